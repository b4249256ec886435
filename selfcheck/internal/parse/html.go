package parse

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
	htmlMaxLabel     = 120 // bytes of label or heading text kept
	htmlScriptWindow = 64 << 10
)

// Page holds the facts the checks read from one page's HTML, gathered in
// one streaming pass of the tokenizer (no DOM is built, so hostile nesting
// costs no memory beyond the bounded stack).
type Page struct {
	HTMLSeen  bool
	Lang      string
	Title     string
	Links     []Link // head and body <link> elements
	JSONLD    [][]byte
	TextChars int // visible text outside script/style/template, whitespace collapsed
	TextWords int
	HasMain   bool
	MainChars int
	Forms     []Form
	Surfaces  []Surface // interactive surfaces outside forms (search inputs, role=search)
	Register  bool      // document.modelContext.registerTool in an inline script
	Navigator bool      // navigator.modelContext in an inline script
	Mailto    []string
	Contact   []string // hrefs of links that look like a contact page
	Anchors   []string // resolved hrefs of every <a> (bounded), in page order
	Headings  int      // h1..h6 elements outside hidden content
	CodeLang  bool     // a <code> or <pre> with a language-* / lang-* class
	LabelFor  map[string]bool
	LabelText map[string]string // <label for=id> → its text (bounded)
	Truncated bool
	heading   string // text of the last heading seen, for the next form
}

// Form describes one <form>.
type Form struct {
	ID, ToolName, ToolDescription string
	Heading                       string // the last heading before the form, or its aria-label/title
	Method                        string // lower-cased method attribute ("get" when absent)
	Action                        string // the action attribute, resolved against the page
	Hyphenated                    bool   // tool-name / tool-description only
	Hidden                        bool
	Fields                        []Field
}

// Annotated reports whether the form is declared as a tool, in either form.
func (f Form) Annotated() bool { return f.ToolName != "" || f.Hyphenated }

// Field describes one form control.
type Field struct {
	Name, ID  string
	Label     string // its <label for=…> text
	Labelled  bool
	ParamDesc bool
}

// Surface is an interactive control outside any form.
type Surface struct {
	What      string
	Annotated bool
}

// openElem is one entry of the tokenizer's open-element stack.
type openElem struct {
	a      atom.Atom
	name   string
	hidden bool
	main   bool
	label  bool
	lfor   string // the for= of the enclosing <label>
	head   bool   // inside h1..h6
	form   int    // index into forms, or -1
	script string
}

// HTML reads the facts of an HTML page. base resolves relative
// links. It never fails: garbage yields empty facts.
func HTML(body []byte, base *url.URL) *Page {
	z := html.NewTokenizer(bytes.NewReader(body))
	z.SetMaxBuf(0)
	h := &htmlPass{p: &Page{LabelFor: map[string]bool{}, LabelText: map[string]string{}}, z: z, base: base, stack: make([]openElem, 0, 64)}
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			h.p.finish()
			return h.p
		case html.TextToken:
			h.text()
		case html.StartTagToken, html.SelfClosingTagToken:
			h.start(tt == html.SelfClosingTagToken)
		case html.EndTagToken:
			h.end()
		}
	}
}

// htmlPass is the state of one streaming pass over a page.
type htmlPass struct {
	p           *Page
	z           *html.Tokenizer
	base        *url.URL
	stack       []openElem
	jsonldBytes int
	abuf        attrs // reused by every start tag
}

// top returns the innermost open element (a context outside any form when
// none is open).
func (h *htmlPass) top() openElem {
	if len(h.stack) == 0 {
		return openElem{form: -1}
	}
	return h.stack[len(h.stack)-1]
}

// text records a text token: JSON-LD and inline-script facts inside
// scripts, the title, and visible words elsewhere.
func (h *htmlPass) text() {
	p, z, t := h.p, h.z, h.top()
	switch t.script {
	case "ld+json":
		if h.jsonldBytes < htmlMaxJSONLD {
			raw := append([]byte(nil), z.Raw()...)
			h.jsonldBytes += len(raw)
			p.JSONLD = append(p.JSONLD, raw)
		}
		return
	case "js":
		txt := z.Raw()
		if len(txt) > htmlScriptWindow {
			txt = txt[:htmlScriptWindow]
		}
		if bytes.Contains(txt, []byte("document.modelContext")) && bytes.Contains(txt, []byte("registerTool")) {
			p.Register = true
		}
		if bytes.Contains(txt, []byte("navigator.modelContext")) {
			p.Navigator = true
		}
		return
	case "skip":
		return
	}
	if t.hidden || t.a == atom.Title {
		if t.a == atom.Title && p.Title == "" {
			p.Title = strings.Join(strings.Fields(string(z.Text())), " ")
		}
		return
	}
	words, n := countWords(z.Raw()) // raw text: entities count as letters, no copy
	if words == 0 {
		return
	}
	p.TextChars += n
	p.TextWords += words
	if t.lfor != "" || t.head {
		txt := strings.Join(strings.Fields(string(z.Text())), " ")
		if t.lfor != "" && len(p.LabelText[t.lfor]) < htmlMaxLabel {
			p.LabelText[t.lfor] = strings.TrimSpace(p.LabelText[t.lfor] + " " + txt)
		}
		if t.head && len(p.heading) < htmlMaxLabel {
			p.heading = strings.TrimSpace(p.heading + " " + txt)
		}
	}
	if t.main {
		p.MainChars += n
	}
}

// start records a start tag and opens its element (unless it is void or
// self-closing); past htmlMaxDepth elements are no longer tracked.
func (h *htmlPass) start(selfClosing bool) {
	name, hasAttr := h.z.TagName()
	h.abuf = readAttrs(h.z, hasAttr, h.abuf)
	attrs := h.abuf
	a := atom.Lookup(name)
	parent := h.top()
	e := openElem{a: a, hidden: parent.hidden, main: parent.main, label: parent.label, lfor: parent.lfor, head: parent.head, form: parent.form}
	if isHidden(a, attrs) {
		e.hidden = true
	}
	if a == 0 {
		e.name = string(name) // only unknown elements need their name kept
	}
	h.p.element(a, attrs, &e, h.base)
	if selfClosing || isVoid(a) {
		return
	}
	if len(h.stack) < htmlMaxDepth {
		h.stack = append(h.stack, e)
	} else {
		h.p.Truncated = true
	}
}

// end closes the innermost open element an end tag names, and every
// element opened inside it.
func (h *htmlPass) end() {
	name, _ := h.z.TagName()
	a := atom.Lookup(name)
	for i := len(h.stack) - 1; i >= 0; i-- {
		if h.stack[i].a == a && (a != 0 || h.stack[i].name == string(name)) {
			h.stack = h.stack[:i]
			return
		}
	}
}

// element records the facts one start tag carries and marks e with the
// context it opens.
func (p *Page) element(a atom.Atom, attrs attrs, e *openElem, base *url.URL) {
	switch a {
	case atom.Html:
		if !p.HTMLSeen {
			p.HTMLSeen = true
			p.Lang = strings.TrimSpace(attrs.get("lang"))
		}
	case atom.Body:
		// A body opens visible content even when </head> was omitted.
		e.hidden, e.script = isHidden(a, attrs), ""
	case atom.Main, atom.Article:
		if !e.hidden {
			p.HasMain, e.main = true, true
		}
	case atom.Script:
		t := strings.ToLower(strings.TrimSpace(attrs.get("type")))
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
		if len(p.Links) < htmlMaxLinks {
			p.Links = append(p.Links, Link{Raw: strings.TrimSpace(attrs.get("href")), Target: Resolve(base, attrs.get("href")), Rel: strings.Fields(strings.ToLower(attrs.get("rel"))), Type: strings.ToLower(strings.TrimSpace(attrs.get("type")))})
		}
	case atom.A:
		p.anchor(attrs.get("href"), base)
	case atom.Label:
		e.label = true
		if f := attrs.get("for"); f != "" {
			p.LabelFor[f] = true
			e.lfor = f
		}
	case atom.Form:
		e.form = -1
		if len(p.Forms) < htmlMaxForms {
			p.Forms = append(p.Forms, Form{
				ID: attrs.get("id"), ToolName: attrs.get("toolname"), ToolDescription: attrs.get("tooldescription"),
				Method: formMethod(attrs.get("method")), Action: Resolve(base, attrs.get("action")),
				Hyphenated: attrs.get("toolname") == "" && attrs.get("tool-name") != "", Hidden: e.hidden,
				Heading: firstOf(attrs.get("aria-label"), attrs.get("title"), p.heading),
			})
			e.form = len(p.Forms) - 1
		}
	case atom.Input, atom.Select, atom.Textarea:
		p.control(a, attrs, e)
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		if !e.hidden {
			p.Headings++
			p.heading, e.head = "", true
		}
	case atom.Code, atom.Pre:
		for _, c := range strings.Fields(strings.ToLower(attrs.get("class"))) {
			if strings.HasPrefix(c, "language-") || strings.HasPrefix(c, "lang-") {
				p.CodeLang = true
			}
		}
	}
	if strings.EqualFold(attrs.get("role"), "main") && !e.hidden {
		p.HasMain, e.main = true, true
	}
	if strings.EqualFold(attrs.get("role"), "search") && e.form < 0 && !e.hidden {
		p.Surfaces = append(p.Surfaces, Surface{What: "role=search", Annotated: attrs.get("toolname") != ""})
	}
}

// control records one form control, or a surface when outside a form.
func (p *Page) control(a atom.Atom, attrs attrs, e *openElem) {
	typ := strings.ToLower(attrs.get("type"))
	if a == atom.Input {
		switch typ {
		case "hidden", "submit", "button", "reset", "image":
			return
		}
	}
	if e.form < 0 {
		if a == atom.Input && typ == "search" && !e.hidden && len(p.Surfaces) < htmlMaxForms {
			p.Surfaces = append(p.Surfaces, Surface{What: "search input", Annotated: attrs.get("toolname") != ""})
		}
		return
	}
	f := &p.Forms[e.form]
	if len(f.Fields) >= htmlMaxFields {
		return
	}
	_, desc := attrs.lookup("toolparamdescription")
	f.Fields = append(f.Fields, Field{Name: attrs.get("name"), ID: attrs.get("id"), Labelled: e.label, ParamDesc: desc})
}

// anchor records mailto, contact and developer-docs links.
func (p *Page) anchor(href string, base *url.URL) {
	h := strings.TrimSpace(href)
	lh := strings.ToLower(h)
	if h != "" && len(p.Anchors) < htmlMaxLinks {
		p.Anchors = append(p.Anchors, Resolve(base, h))
	}
	switch {
	case strings.HasPrefix(lh, "mailto:"):
		if len(p.Mailto) < htmlMaxLinks {
			p.Mailto = append(p.Mailto, h)
		}
	case strings.Contains(lh, "contact") || strings.Contains(lh, "support") || strings.Contains(lh, "kontakt"):
		if len(p.Contact) < htmlMaxLinks {
			p.Contact = append(p.Contact, Resolve(base, h))
		}
	}
}

// formMethod normalises a form's method attribute (HTML: get by default;
// dialog closes a dialog and sends nothing).
func formMethod(m string) string {
	m = strings.ToLower(strings.TrimSpace(m))
	if m == "" {
		return "get"
	}
	return m
}

// Writes reports a form that sends something a server may keep: any method
// but get and dialog.
func (f Form) Writes() bool { return f.Method != "get" && f.Method != "dialog" }

// finish resolves labels given by <label for=…>.
func (p *Page) finish() {
	for i := range p.Forms {
		for j := range p.Forms[i].Fields {
			f := &p.Forms[i].Fields[j]
			if f.ID != "" && p.LabelFor[f.ID] {
				f.Labelled = true
				f.Label = p.LabelText[f.ID]
			}
		}
	}
}

// attrs are the attributes of one start tag that the facts need.
type attrs []attr

// attr is one attribute, name lower-cased.
type attr struct{ key, val string }

// get returns the value of the named attribute, "" when absent.
func (a attrs) get(key string) string {
	v, _ := a.lookup(key)
	return v
}

// lookup returns the value and presence of the named attribute.
func (a attrs) lookup(key string) (string, bool) {
	for _, at := range a {
		if at.key == key {
			return at.val, true
		}
	}
	return "", false
}

// readAttrs collects the attributes the facts read (first occurrence wins,
// HTML §13.2.5.33), reusing buf; other attributes cost no allocation.
func readAttrs(z *html.Tokenizer, more bool, buf attrs) attrs {
	buf = buf[:0]
	for n := 0; more && n < 64; n++ {
		var k, v []byte
		k, v, more = z.TagAttr()
		// The tokenizer lower-cases attribute names already.
		switch key := string(k); key {
		case "lang", "href", "rel", "type", "hidden", "inert", "aria-hidden", "style", "role", "for", "id",
			"name", "toolname", "tooldescription", "tool-name", "toolparamdescription",
			"method", "action", "class", "aria-label", "title":
			if _, dup := buf.lookup(key); !dup {
				buf = append(buf, attr{key, string(v)})
			}
		}
	}
	return buf
}

// isHidden reports whether an element hides its content from a reader:
// the hidden or inert attribute, aria-hidden, display:none, <template>.
func isHidden(a atom.Atom, attrs attrs) bool {
	if a == atom.Template {
		return true
	}
	if _, ok := attrs.lookup("hidden"); ok {
		return true
	}
	if _, ok := attrs.lookup("inert"); ok {
		return true
	}
	if strings.EqualFold(attrs.get("aria-hidden"), "true") {
		return true
	}
	style := strings.ReplaceAll(strings.ToLower(attrs.get("style")), " ", "")
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

// countWords counts the words of text and its length with whitespace
// collapsed to single spaces, without allocating.
func countWords(text []byte) (words, chars int) {
	inWord := false
	for _, c := range text {
		switch c {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			inWord = false
		default:
			if !inWord {
				words++
				if words > 1 {
					chars++ // the collapsed space before this word
				}
			}
			inWord = true
			chars++
		}
	}
	return words, chars
}

// firstOf returns the first of vs that is not blank, trimmed.
func firstOf(vs ...string) string {
	for _, v := range vs {
		if v = strings.Join(strings.Fields(v), " "); v != "" {
			return v
		}
	}
	return ""
}
