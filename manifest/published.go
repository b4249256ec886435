package manifest

import "fmt"

// DeclaredURL is one URL this file declares and the generated documents
// publish (ard.json, agents.json, llms.txt, the api-catalog), with where it
// is declared.
type DeclaredURL struct {
	// Field is its YAML path, e.g. interfaces[0].url.
	Field string
	// Line is its line in the file (1 when unknown).
	Line int
	// URL is as written: a site path or an absolute URL.
	URL string
	// Document is true for a document an agent fetches (an OpenAPI
	// description, a card, a docs page, a listed page), false for an
	// endpoint (mcp, graphql, a2a), which may answer a GET with 405 or 400.
	Document bool
}

// DeclaredURLs lists the URLs this file declares, in file order:
// interfaces' url, docs and card, site.pages, the llms.txt links and the
// contact page. Skill files are served by the module and not listed.
func (s *Site) DeclaredURLs() []DeclaredURL {
	var out []DeclaredURL
	add := func(field, u string, doc bool) {
		if u != "" {
			out = append(out, DeclaredURL{Field: field, Line: s.line(field), URL: u, Document: doc})
		}
	}
	for i, p := range s.Info.Pages {
		add(fmt.Sprintf("site.pages[%d]", i), p, true)
	}
	for i, sec := range s.LLMs.Sections {
		for j, l := range sec.Links {
			add(fmt.Sprintf("llms.sections[%d].links[%d].url", i, j), l.URL, true)
		}
	}
	for j, l := range s.LLMs.Optional {
		add(fmt.Sprintf("llms.optional[%d].url", j), l.URL, true)
	}
	for i := range s.Interfaces {
		it := &s.Interfaces[i]
		switch it.Type {
		case TypeOpenAPI, TypeCLI, TypeSDK:
			add(fmt.Sprintf("interfaces[%d].url", i), it.URL, true)
		default:
			add(fmt.Sprintf("interfaces[%d].url", i), it.URL, false)
		}
		add(fmt.Sprintf("interfaces[%d].docs", i), it.Docs, true)
		add(fmt.Sprintf("interfaces[%d].card", i), it.Card, true)
	}
	add("contacts.page", s.Contacts.Page, true)
	return out
}
