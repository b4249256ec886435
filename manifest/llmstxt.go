package manifest

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// llmsTxt renders /llms.txt after the llms.txt proposal (llmstxt.org): an
// H1, a summary blockquote, plain instructions, H2 link lists, and an
// `## Optional` section last. Every link is a canonical absolute URL on the
// origin.
func (r *resolved) llmsTxt() []byte {
	s := r.s
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", oneLine(orDefault(s.LLMs.Title, r.name)))
	if sum := orDefault(s.LLMs.Summary, s.Info.Description); sum != "" {
		for _, line := range strings.Split(strings.TrimSpace(sum), "\n") {
			fmt.Fprintf(&b, "> %s\n", strings.TrimSpace(line))
		}
		b.WriteString("\n")
	}
	r.llmsInstructions(&b)
	if extra := strings.TrimSpace(s.LLMs.Instructions); extra != "" {
		b.WriteString(extra)
		b.WriteString("\n\n")
	}
	if c := r.contactLine(); c != "" {
		fmt.Fprintf(&b, "Contact a person: %s\n\n", c)
	}
	sections := s.LLMs.Sections
	if len(sections) == 0 {
		sections = []LinkSection{{Title: "Pages", Links: r.defaultLinks()}}
	}
	listed := map[string]bool{}
	for _, sec := range sections {
		fmt.Fprintf(&b, "## %s\n\n", oneLine(sec.Title))
		for _, l := range sec.Links {
			r.writeLink(&b, l)
			listed[r.abs(l.URL)] = true
		}
		b.WriteString("\n")
	}
	if s.LLMs.AutoList.Enabled {
		r.autoList(&b, listed)
	}
	if len(s.LLMs.Optional) > 0 {
		b.WriteString("## Optional\n\n")
		for _, l := range s.LLMs.Optional {
			r.writeLink(&b, l)
		}
		b.WriteString("\n")
	}
	return []byte(strings.TrimRight(b.String(), "\n") + "\n")
}

// llmsInstructions writes the direct, minimal instructions an agent needs
// without reading any other specification.
func (r *resolved) llmsInstructions(b *strings.Builder) {
	s := r.s
	b.WriteString("Instructions for AI agents:\n\n")
	// Consent and safety limits come before any example (UAIX
	// get_action_security_order_warning).
	b.WriteString("- Read freely; change nothing on a person's behalf without their explicit consent.\n")
	md := "- Request any page with the header `Accept: text/markdown` to get it as Markdown (" + MarkdownAcceptRule + ")"
	if r.mdSuffix != "" {
		if ex := r.exampleMDPage(); ex != "" {
			md += fmt.Sprintf(", or append `%s` to its path (for example %s%s)", r.mdSuffix, ex, r.mdSuffix)
		} else {
			md += fmt.Sprintf(", or append `%s` to its path", r.mdSuffix)
		}
	}
	b.WriteString(md + ".\n")
	if r.serve[PathAgentsJSON] {
		fmt.Fprintf(b, "- Read %s%s for what this site offers agents: interfaces, sign-in, contact and usage policy.\n", r.origin, PathWKAgentsJSON)
	}
	if r.serve[PathSitemap] && r.sitemapURL != "" {
		fmt.Fprintf(b, "- Find every page in %s.\n", r.sitemapURL)
	}
	if u := r.url(PathLLMsFullTxt); u != "" {
		fmt.Fprintf(b, "- Read the pages listed here, and the site's others, as Markdown in one file: %s.\n", u)
	}
	if s.Connect.Enabled {
		fmt.Fprintf(b, "- Search and read this site's pages over MCP (streamable HTTP, read-only tools) at %s, or ask a question in plain language with GET %s?query=your+question (JSON answer).\n",
			r.connectMCP(), r.connectAsk())
	}
	for i := range s.Interfaces {
		it := &s.Interfaces[i]
		fmt.Fprintf(b, "- %s\n", r.ifaceInstruction(it))
	}
	if u := r.url(PathARD); u != "" {
		fmt.Fprintf(b, "- Find the machine-readable catalog of agent resources (ARD) at %s.\n", u)
	}
	if u := r.url(PathSkillsIndex); u != "" {
		fmt.Fprintf(b, "- Get agent skills, with sha256 digests, from %s.\n", u)
	}
	b.WriteString("- " + r.authSentence() + "\n")
	if p := r.policySentence(); p != "" {
		b.WriteString("- " + p + "\n")
	}
	r.llmsFallbacks(b)
	b.WriteString("\n")
}

// llmsFallbacks writes what an agent does when a capability is out of its
// reach, for the capabilities the YAML declares (STANDARD.md §12, the UAIX
// agent-compatibility rules the scanner lints): live GET, MCP, tools,
// sign-in, and the no-op for anything unsupported, with where a person
// reviews it.
func (r *resolved) llmsFallbacks(b *strings.Builder) {
	s := r.s
	b.WriteString("- If you cannot make live requests (an index-only fetcher), read the pages listed below as they are: nothing here needs a live call.\n")
	mcp := s.Connect.Enabled
	tools := mcp || len(s.WebMCP.Forms) > 0 || len(s.Interfaces) > 0
	for i := range s.Interfaces {
		if s.Interfaces[i].Type == TypeMCP {
			mcp = true
		}
	}
	if mcp {
		b.WriteString("- If MCP is unavailable, read the same pages as Markdown from the list below; the MCP endpoint says nothing they do not.\n")
	}
	if tools {
		b.WriteString("- If a tool is unavailable, open the page it stands for in a browser instead, or stop.\n")
	}
	human := r.humanContact()
	if _, tokenRequired := r.capabilities(); s.Authentication.Type != AuthNone || len(tokenRequired) > 0 {
		line := "- If you cannot sign in, use only the public pages"
		if human != "" {
			line += " and hand the task to a person at " + human
		}
		b.WriteString(line + ".\n")
	}
	line := "- If something you need is not supported here, stop and do nothing (a no-op): never loop on retries or invent addresses"
	if human != "" {
		line += "; a person reviews requests at " + human
	}
	b.WriteString(line + ".\n")
}

// humanContact is the public address where a person reviews what an agent
// could not do: the contact page, else a mailto; "" without contacts.
func (r *resolved) humanContact() string {
	c := &r.s.Contacts
	switch {
	case c.Page != "":
		return r.abs(c.Page)
	case c.Email != "":
		return "mailto:" + c.Email
	}
	return ""
}

// exampleMDPage is a page URL used to show the Markdown suffix: the first
// page other than the home page that the YAML lists, else the first the
// site is known to serve (discovery or its sitemap); "" when none is
// known, for an example must be an address the site answers.
func (r *resolved) exampleMDPage() string {
	var urls []string
	for _, sec := range r.s.LLMs.Sections {
		for _, l := range sec.Links {
			urls = append(urls, l.URL)
		}
	}
	urls = append(urls, r.s.Info.Pages...)
	for _, p := range r.rankedPages() {
		urls = append(urls, p.URL)
	}
	for _, u := range urls {
		if u := r.abs(u); u != r.origin+"/" && strings.HasPrefix(u, r.origin+"/") {
			return strings.TrimSuffix(u, "/")
		}
	}
	return ""
}

// rankedPages are the pages the site is known to serve (discovery's, else
// its sitemap's URLs), shallowest first (fewer path segments), then in
// the order discovery gave (a crawl's is breadth-first from the home
// page). A site's section and top pages come before its deep reference
// pages, whatever order the sitemap had.
func (r *resolved) rankedPages() []PageInfo {
	pages := slices.Clone(r.pages)
	if len(pages) == 0 {
		for _, u := range r.sitemap {
			pages = append(pages, PageInfo{URL: u})
		}
	}
	slices.SortStableFunc(pages, func(a, b PageInfo) int {
		return cmp.Compare(PathDepth(a.URL), PathDepth(b.URL))
	})
	return pages
}

// PathDepth is the number of non-empty segments of the path of the URL
// raw, an index.html not counted ("/" and "/index.html" are 0); a URL that
// does not parse is deeper than any. llms.txt's page list and
// llms-full.txt's reading order put the shallowest pages first by it.
func PathDepth(raw string) int {
	u, err := url.Parse(raw)
	if err != nil {
		return 1 << 20
	}
	n := 0
	for _, seg := range strings.Split(u.Path, "/") {
		if seg != "" && seg != "index.html" {
			n++
		}
	}
	return n
}

// ifaceInstruction is one sentence on how to use an interface.
func (r *resolved) ifaceInstruction(it *Interface) string {
	name := r.ifaceName(it)
	var s string
	switch it.Type {
	case TypeMCP:
		s = fmt.Sprintf("%s: MCP server (%s) at %s", name, it.Transport, r.abs(it.URL))
	case TypeOpenAPI:
		s = fmt.Sprintf("%s: OpenAPI description at %s", name, r.abs(it.URL))
	case TypeGraphQL:
		s = fmt.Sprintf("%s: GraphQL endpoint at %s", name, r.abs(it.URL))
	case TypeA2A:
		s = fmt.Sprintf("%s: A2A agent at %s", name, r.abs(it.URL))
		if card := r.agentCardURL(it); card != "" {
			s += fmt.Sprintf(" (agent card: %s)", card)
		}
	default:
		s = name
		if it.Install != "" {
			s += fmt.Sprintf(": install with `%s`", oneLine(it.Install))
		}
		if it.URL != "" {
			s += fmt.Sprintf(" (%s)", r.abs(it.URL))
		}
	}
	if it.Docs != "" {
		s += fmt.Sprintf("; documentation: %s", r.abs(it.Docs))
	}
	switch {
	case r.ifacePublic(it):
	case r.s.Authentication.Type == AuthOAuth:
		s += "; needs an OAuth token"
	default:
		s += "; needs credentials"
	}
	return s + "."
}

// authSentence states the authentication posture in one sentence.
func (r *resolved) authSentence() string {
	a := &r.s.Authentication
	if a.Type == AuthNone {
		return "Use it without signing in: " + strings.TrimSuffix(a.Note, ".") + "."
	}
	s := fmt.Sprintf("Sign in with OAuth 2.0 where a capability needs a token; tokens come from %s", strings.Join(a.AuthorizationServers, ", "))
	if u := r.url(PathOAuthResource); u != "" {
		s += fmt.Sprintf(" (metadata: %s)", u)
	}
	public, _ := r.capabilities()
	s += "; usable without a token: " + strings.Join(public, ", ")
	if a.Note != "" {
		s += ". " + strings.TrimSuffix(a.Note, ".")
	}
	return s + "."
}

// policySentence states the crawler policy in one sentence, "" without one.
func (r *resolved) policySentence() string {
	p := &r.s.Policy
	var parts []string
	word := map[Permission]string{Allow: "allowed", Disallow: "not allowed"}
	if p.Search != "" {
		parts = append(parts, "AI search and citation "+word[p.Search])
	}
	if p.User != "" {
		parts = append(parts, "fetching pages a person asked for "+word[p.User])
	}
	if p.Training != "" {
		parts = append(parts, "model training "+word[p.Training])
	}
	if len(parts) == 0 && p.Note == "" {
		return ""
	}
	s := "Usage policy: " + strings.Join(parts, "; ")
	if p.Note != "" {
		if len(parts) > 0 {
			s += ". "
		}
		s += strings.TrimSuffix(p.Note, ".")
	}
	return s + "."
}

// contactLine lists how to reach a person (STANDARD §5 rule 12).
func (r *resolved) contactLine() string {
	c := &r.s.Contacts
	var parts []string
	if c.Email != "" {
		parts = append(parts, fmt.Sprintf("[%s](mailto:%s)", c.Email, c.Email))
	}
	if c.Page != "" {
		parts = append(parts, fmt.Sprintf("[contact page](%s)", mdURL(r.abs(c.Page))))
	}
	if c.Phone != "" {
		parts = append(parts, "phone "+c.Phone)
	}
	return strings.Join(parts, ", ")
}

// defaultLinks is the link list of a site that configured none: the home
// page, the YAML's info.pages, else (and unless auto_list lists them in a
// section of its own) the pages discovery found, shallowest first, up to
// auto_list.max; then the contact page.
func (r *resolved) defaultLinks() []Link {
	links := []Link{{Title: "Home", URL: "/", Note: r.s.Info.Description}}
	for _, p := range r.s.Info.Pages {
		if r.abs(p) != r.origin+"/" {
			links = append(links, Link{Title: p, URL: p})
		}
	}
	if len(r.s.Info.Pages) == 0 && !r.s.LLMs.AutoList.Enabled {
		for _, p := range r.rankedPages() {
			if len(links) > r.s.LLMs.AutoList.Max {
				break
			}
			if r.abs(p.URL) == r.origin+"/" || (r.s.Contacts.Page != "" && r.abs(p.URL) == r.abs(r.s.Contacts.Page)) {
				continue
			}
			links = append(links, r.pageLink(p))
		}
	}
	if r.s.Contacts.Page != "" {
		links = append(links, Link{Title: "Contact", URL: r.s.Contacts.Page, Note: "how to reach a person"})
	}
	return links
}

// autoList writes up to llms.auto_list.max discovered (or sitemap) pages
// not listed yet, shallowest first, with their own titles and
// descriptions when known.
func (r *resolved) autoList(b *strings.Builder, listed map[string]bool) {
	var links []Link
	for _, p := range r.rankedPages() {
		if len(links) >= r.s.LLMs.AutoList.Max || b.Len() > llmsTxtLimit {
			break
		}
		if listed[p.URL] {
			continue
		}
		listed[p.URL] = true
		links = append(links, r.pageLink(p))
	}
	if len(links) == 0 {
		return
	}
	fmt.Fprintf(b, "## %s\n\n", oneLine(r.s.LLMs.AutoList.Section))
	for _, l := range links {
		r.writeLink(b, l)
	}
	b.WriteString("\n")
}

// pageLink is a known page as a link: its own title (else one made from
// its path) and its description.
func (r *resolved) pageLink(p PageInfo) Link {
	title := p.Title
	if oneLine(title) == "" {
		title = pageTitle(p.URL, r.origin)
	}
	return Link{Title: title, URL: p.URL, Note: p.Description}
}

func (r *resolved) writeLink(b *strings.Builder, l Link) {
	fmt.Fprintf(b, "- [%s](%s)", oneLine(l.Title), mdURL(r.abs(l.URL)))
	if n := oneLine(l.Note); n != "" {
		fmt.Fprintf(b, ": %s", n)
	}
	b.WriteString("\n")
}

// pageTitle makes a link title from a URL path: /blog/why-agents → "blog/why agents".
func pageTitle(u, origin string) string {
	p := strings.Trim(strings.TrimPrefix(u, origin), "/")
	if p == "" {
		return "Home"
	}
	return strings.NewReplacer("-", " ", "_", " ", "[", "(", "]", ")").Replace(p)
}

// mdURL escapes what would end a Markdown link destination early.
func mdURL(u string) string {
	return strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E").Replace(u)
}

// oneLine collapses whitespace so configured text cannot break the layout.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
