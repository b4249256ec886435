package selfcheck

import (
	"bytes"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// HTML fact limits: how deep the open-element stack is tracked, how much
// JSON-LD and script text is kept, how many forms are described.
const (
	htmlMaxDepth     = 512
	htmlMaxJSONLD    = 1 << 20
	htmlMaxForms     = 200
	htmlMaxFields    = 200
	htmlMaxLinks     = 500
	htmlScriptWindow = 64 << 10
)

// pageFacts are the facts the checks read from one page's HTML, gathered in
// one streaming pass of the tokenizer (no DOM is built, so hostile nesting
// costs no memory beyond the bounded stack).
type pageFacts struct {
	htmlSeen   bool
	lang       string
	title      string
	links      []linkValue // head and body <link> elements
	jsonld     [][]byte
	textChars  int // visible text outside script/style/template, whitespace collapsed
	textWords  int
	hasMain    bool
	mainChars  int
	forms      []formFacts
	surfaces   []surface // interactive surfaces outside forms (search inputs, role=search)
	register   bool      // document.modelContext.registerTool in an inline script
	navigator  bool      // navigator.modelContext in an inline script
	mailto     []string
	contact    []string // hrefs of links that look like a contact page
	labelFor   map[string]bool
	truncation bool
}

// formFacts describe one <form>.
type formFacts struct {
	id, toolname, tooldescription string
	hyphenated                    bool // tool-name / tool-description only
	hidden                        bool
	fields                        []fieldFacts
}

// annotated reports whether the form is declared as a tool, in either form.
func (f formFacts) annotated() bool { return f.toolname != "" || f.hyphenated }

// fieldFacts describe one form control.
type fieldFacts struct {
	name, id  string
	labelled  bool
	paramDesc bool
}

// surface is an interactive control outside any form.
type surface struct {
	what      string
	annotated bool
}

// openElem is one entry of the tokenizer's open-element stack.
type openElem struct {
	a      atom.Atom
	name   string
	hidden bool
	main   bool
	label  bool
	form   int // index into forms, or -1
	script string
}

// parseHTMLFacts reads the facts of an HTML page. base resolves relative
// links. It never fails: garbage yields empty facts.
func parseHTMLFacts(body []byte, base *url.URL) *pageFacts {
	p := &pageFacts{labelFor: map[string]bool{}}
	z := html.NewTokenizer(bytes.NewReader(body))
	z.SetMaxBuf(0)
	stack := make([]openElem, 0, 64)
	top := func() openElem {
		if len(stack) == 0 {
			return openElem{form: -1}
		}
		return stack[len(stack)-1]
	}
	jsonldBytes := 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			p.finish()
			return p
		case html.TextToken:
			t := top()
			switch t.script {
			case "ld+json":
				if jsonldBytes < htmlMaxJSONLD {
					raw := append([]byte(nil), z.Text()...)
					jsonldBytes += len(raw)
					p.jsonld = append(p.jsonld, raw)
				}
				continue
			case "js":
				txt := z.Text()
				if len(txt) > htmlScriptWindow {
					txt = txt[:htmlScriptWindow]
				}
				if bytes.Contains(txt, []byte("document.modelContext")) && bytes.Contains(txt, []byte("registerTool")) {
					p.register = true
				}
				if bytes.Contains(txt, []byte("navigator.modelContext")) {
					p.navigator = true
				}
				continue
			case "skip":
				continue
			}
			if t.hidden || t.a == atom.Title {
				if t.a == atom.Title && p.title == "" {
					p.title = strings.Join(strings.Fields(string(z.Text())), " ")
				}
				continue
			}
			words := strings.Fields(string(z.Text()))
			if len(words) == 0 {
				continue
			}
			n := len(strings.Join(words, " "))
			p.textChars += n
			p.textWords += len(words)
			if t.main {
				p.mainChars += n
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			attrs := readAttrs(z, hasAttr)
			a := atom.Lookup(name)
			parent := top()
			e := openElem{a: a, name: string(name), hidden: parent.hidden, main: parent.main, label: parent.label, form: parent.form}
			if isHidden(a, attrs) {
				e.hidden = true
			}
			p.element(a, attrs, &e, base)
			if tt == html.SelfClosingTagToken || isVoid(a) {
				continue
			}
			if len(stack) < htmlMaxDepth {
				stack = append(stack, e)
			} else {
				p.truncation = true
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i].name == string(name) {
					stack = stack[:i]
					break
				}
			}
		}
	}
}

// element records the facts one start tag carries and marks e with the
// context it opens.
func (p *pageFacts) element(a atom.Atom, attrs map[string]string, e *openElem, base *url.URL) {
	switch a {
	case atom.Html:
		if !p.htmlSeen {
			p.htmlSeen = true
			p.lang = strings.TrimSpace(attrs["lang"])
		}
	case atom.Body:
		// A body opens visible content even when </head> was omitted.
		e.hidden, e.script = isHidden(a, attrs), ""
	case atom.Main, atom.Article:
		if !e.hidden {
			p.hasMain, e.main = true, true
		}
	case atom.Script:
		t := strings.ToLower(strings.TrimSpace(attrs["type"]))
		switch {
		case t == "application/ld+json":
			e.script = "ld+json"
		case t == "" || strings.Contains(t, "javascript") || t == "module":
			e.script = "js"
		default:
			e.script = "skip"
		}
	case atom.Style, atom.Noscript, atom.Template, atom.Head:
		e.script = "skip"
		if a == atom.Head {
			e.script = ""
			e.hidden = true
		}
	case atom.Link:
		if len(p.links) < htmlMaxLinks {
			p.links = append(p.links, linkValue{raw: strings.TrimSpace(attrs["href"]), target: resolve(base, attrs["href"]), rel: strings.Fields(strings.ToLower(attrs["rel"])), typ: strings.ToLower(strings.TrimSpace(attrs["type"]))})
		}
	case atom.A:
		p.anchor(attrs["href"], base)
	case atom.Label:
		e.label = true
		if f := attrs["for"]; f != "" {
			p.labelFor[f] = true
		}
	case atom.Form:
		e.form = -1
		if len(p.forms) < htmlMaxForms {
			p.forms = append(p.forms, formFacts{
				id: attrs["id"], toolname: attrs["toolname"], tooldescription: attrs["tooldescription"],
				hyphenated: attrs["toolname"] == "" && attrs["tool-name"] != "", hidden: e.hidden,
			})
			e.form = len(p.forms) - 1
		}
	case atom.Input, atom.Select, atom.Textarea:
		p.control(a, attrs, e)
	}
	if strings.EqualFold(attrs["role"], "main") && !e.hidden {
		p.hasMain, e.main = true, true
	}
	if strings.EqualFold(attrs["role"], "search") && e.form < 0 && !e.hidden {
		p.surfaces = append(p.surfaces, surface{what: "role=search", annotated: attrs["toolname"] != ""})
	}
}

// control records one form control, or a surface when outside a form.
func (p *pageFacts) control(a atom.Atom, attrs map[string]string, e *openElem) {
	typ := strings.ToLower(attrs["type"])
	if a == atom.Input {
		switch typ {
		case "hidden", "submit", "button", "reset", "image":
			return
		}
	}
	if e.form < 0 {
		if a == atom.Input && typ == "search" && !e.hidden && len(p.surfaces) < htmlMaxForms {
			p.surfaces = append(p.surfaces, surface{what: "search input", annotated: attrs["toolname"] != ""})
		}
		return
	}
	f := &p.forms[e.form]
	if len(f.fields) >= htmlMaxFields {
		return
	}
	_, desc := attrs["toolparamdescription"]
	f.fields = append(f.fields, fieldFacts{name: attrs["name"], id: attrs["id"], labelled: e.label, paramDesc: desc})
}

// anchor records mailto, contact and developer-docs links.
func (p *pageFacts) anchor(href string, base *url.URL) {
	h := strings.TrimSpace(href)
	lh := strings.ToLower(h)
	switch {
	case strings.HasPrefix(lh, "mailto:"):
		if len(p.mailto) < htmlMaxLinks {
			p.mailto = append(p.mailto, h)
		}
	case strings.Contains(lh, "contact") || strings.Contains(lh, "support") || strings.Contains(lh, "kontakt"):
		if len(p.contact) < htmlMaxLinks {
			p.contact = append(p.contact, resolve(base, h))
		}
	}
}

// finish resolves labels given by <label for=…>.
func (p *pageFacts) finish() {
	for i := range p.forms {
		for j := range p.forms[i].fields {
			f := &p.forms[i].fields[j]
			if f.id != "" && p.labelFor[f.id] {
				f.labelled = true
			}
		}
	}
}

// readAttrs collects a start tag's attributes, lower-cased names, first
// occurrence wins (HTML §13.2.5.33).
func readAttrs(z *html.Tokenizer, more bool) map[string]string {
	attrs := map[string]string{}
	for n := 0; more && n < 64; n++ {
		var k, v []byte
		k, v, more = z.TagAttr()
		key := strings.ToLower(string(k))
		if _, dup := attrs[key]; !dup {
			attrs[key] = string(v)
		}
	}
	return attrs
}

// isHidden reports whether an element hides its content from a reader:
// the hidden or inert attribute, aria-hidden, display:none, <template>.
func isHidden(a atom.Atom, attrs map[string]string) bool {
	if a == atom.Template {
		return true
	}
	if _, ok := attrs["hidden"]; ok {
		return true
	}
	if _, ok := attrs["inert"]; ok {
		return true
	}
	if strings.EqualFold(attrs["aria-hidden"], "true") {
		return true
	}
	style := strings.ReplaceAll(strings.ToLower(attrs["style"]), " ", "")
	return strings.Contains(style, "display:none") || strings.Contains(style, "visibility:hidden")
}

// isVoid reports the void elements, which never have an end tag (HTML §13.1.2).
func isVoid(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img, atom.Input,
		atom.Link, atom.Meta, atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}
