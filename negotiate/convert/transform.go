package convert

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// image fixes lazy-loaded sources, reduces data: images to their alt text
// and drops images without alt text unless configured to keep them. It
// reports whether n was removed.
func (cl *cleaner) image(n *html.Node) bool {
	src := strings.TrimSpace(attr(n, "src"))
	if src == "" || isData(src) {
		// Lazy loaders put a placeholder in src and the real image aside.
		for _, k := range [...]string{"data-src", "data-lazy-src", "data-original"} {
			if v := strings.TrimSpace(attr(n, k)); v != "" && !isData(v) {
				src = v
				break
			}
		}
		if src == "" || isData(src) {
			if v := firstSrcset(attr(n, "srcset")); v != "" {
				src = v
			} else if v := firstSrcset(attr(n, "data-srcset")); v != "" {
				src = v
			}
		}
	}
	alt := strings.Join(strings.Fields(attr(n, "alt")), " ")
	switch {
	case isData(src) || scriptURL(src):
		replaceWithText(n, alt)
		return true
	case src == "" || alt == "" && !cl.opts.KeepImagesWithoutAlt:
		n.Parent.RemoveChild(n)
		return true
	}
	setAttr(n, "src", src)
	return false
}

// scriptURL reports whether u runs a script when followed (javascript: or
// vbscript:), read as a browser reads it: tabs and line breaks anywhere
// and leading control characters and spaces are ignored, and the scheme is
// case-insensitive (WHATWG URL, "basic URL parser").
func scriptURL(u string) bool {
	u = strings.ToLower(schemeless(u))
	return strings.HasPrefix(u, "javascript:") || strings.HasPrefix(u, "vbscript:")
}

// schemeless returns u as a browser reads its scheme: without the tabs and
// line breaks anywhere in it and the control characters and spaces before
// it.
func schemeless(u string) string {
	u = strings.TrimLeftFunc(u, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(u, "\t\n\r") {
		u = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(u)
	}
	return u
}

// isData reports whether u is a data: URL.
func isData(u string) bool {
	return len(u) >= 5 && strings.EqualFold(u[:5], "data:")
}

// firstSrcset returns the first URL of a srcset attribute.
func firstSrcset(s string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(s), ",")
	u, _, _ := strings.Cut(strings.TrimSpace(first), " ")
	if isData(u) {
		return ""
	}
	return u
}

// permalinkMarks are the texts of the anchor links docs generators put next
// to headings.
var permalinkMarks = map[string]bool{"#": true, "¶": true, "§": true, "🔗": true, "": true}

// anchor drops heading permalinks, and turns links without a followable
// href (empty, javascript:) into their text.
// It reports whether n was removed.
func anchor(n *html.Node) bool {
	href := strings.TrimSpace(attr(n, "href"))
	if strings.HasPrefix(href, "#") && permalinkMarks[strings.TrimSpace(textOf(n))] && !hasImage(n) {
		n.Parent.RemoveChild(n)
		return true
	}
	if href == "" || scriptURL(href) || isData(schemeless(href)) {
		// Not a link an agent can follow: keep only its content.
		n.Data, n.DataAtom, n.Attr = "span", atom.Span, nil
	}
	return false
}

// hasImage reports whether an <img> lies under n.
func hasImage(n *html.Node) bool {
	return findFirst(n, atom.Img) != nil
}

// textOf returns n's text content.
func textOf(n *html.Node) string { return textUnder(n, false) }

// textUnder returns the text under n, leaving out what is under <script>,
// <style> and <noscript> elements when visibleOnly is set (see visibleText).
func textUnder(n *html.Node, visibleOnly bool) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
		case visibleOnly && n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style || n.DataAtom == atom.Noscript):
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// codeLanguage finds a code block's language wherever the highlighter put
// it (class "language-x", "lang-x", "highlight-x", "highlight-source-x", or
// data-lang, on the <pre>, its <code> or a wrapper up to two levels up) and
// writes it as class="language-x" on the <pre>, where html-to-markdown
// reads the fence's info string.
func codeLanguage(pre *html.Node) {
	cands := []*html.Node{pre}
	if code := findFirst(pre, atom.Code); code != nil {
		cands = append(cands, code)
	}
	for p, i := pre.Parent, 0; p != nil && i < 2; p, i = p.Parent, i+1 {
		cands = append(cands, p)
	}
	lang := ""
	for _, n := range cands {
		if lang = languageOf(n); lang != "" {
			break
		}
	}
	for _, n := range cands[:min(2, len(cands))] {
		delAttr(n, "class")
	}
	if lang != "" {
		setAttr(pre, "class", "language-"+lang)
	}
}

// verbatim replaces the content of pre with its text, a <br> as a line
// feed: the elements inside a code block (syntax highlighting's spans, a
// synopsis's <em><code>name</code></em> for a placeholder) mark up text
// that is rendered verbatim. html-to-markdown pads an element nested in
// another inside a <pre> with spaces ("LOCK [ ONLY ]  name  [ * ]" for
// "LOCK [ ONLY ] name [ * ]"), which changed the code.
func verbatim(pre *html.Node) {
	if pre.FirstChild == nil || (pre.FirstChild == pre.LastChild && pre.FirstChild.Type == html.TextNode) {
		return
	}
	var b strings.Builder
	newline := func() {
		if s := b.String(); s != "" && !strings.HasSuffix(s, "\n") {
			b.WriteByte('\n')
		}
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b.WriteString(c.Data)
			case c.Type == html.ElementNode && c.DataAtom == atom.Br:
				b.WriteByte('\n')
			case c.Type == html.ElementNode && verbatimLines[c.DataAtom]:
				// a line of its own, as a browser shows a block in a
				// <pre> (an editor's <div> per line of code)
				newline()
				walk(c)
				newline()
			case c.Type == html.ElementNode:
				walk(c)
			}
		}
	}
	walk(pre)
	for pre.FirstChild != nil {
		pre.RemoveChild(pre.FirstChild)
	}
	pre.AppendChild(&html.Node{Type: html.TextNode, Data: b.String()})
}

// verbatimLines are the block elements that verbatim puts on lines of
// their own.
var verbatimLines = map[atom.Atom]bool{
	atom.Div: true, atom.P: true, atom.Li: true, atom.Tr: true, atom.Table: true, atom.Ul: true, atom.Ol: true,
	atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Blockquote: true, atom.Section: true, atom.Pre: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
}

// languageOf reads a language name from n's class or data-lang attribute.
func languageOf(n *html.Node) string {
	for _, k := range [...]string{"data-lang", "data-language"} {
		if v := strings.TrimSpace(attr(n, k)); validLang(v) {
			return strings.ToLower(v)
		}
	}
	for cls := range strings.FieldsSeq(attr(n, "class")) {
		for _, prefix := range [...]string{"language-", "lang-", "highlight-source-", "highlight-", "sourcecode-"} {
			if v, ok := strings.CutPrefix(strings.ToLower(cls), prefix); ok && validLang(v) {
				return v
			}
		}
	}
	return ""
}

// validLang accepts info strings made of letters, digits and + - # _ .
func validLang(s string) bool {
	if s == "" || len(s) > 32 || s == "none" || s == "plaintext" || s == "text" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("+-#_.", r)) {
			return false
		}
	}
	return true
}

// definitionList rewrites <dl> as a bullet list, each term in bold followed
// by its definitions: "- **Term**: definition". Markdown has no definition
// lists, and this form reads the same to an agent. Definitions with block
// content become paragraphs inside the item. Anything else in the <dl>
// with text (a paragraph, a heading, the rest of the page when a <dl> is
// never closed, as in SQLite's C reference) stays, in its place: the
// <dl> becomes a <div> of the lists before and after it.
func definitionList(dl *html.Node) {
	var items, out []*html.Node
	var cur *html.Node
	var pending []*html.Node // consecutive <dt>s
	endTerms := func() {
		if cur == nil && len(pending) > 0 { // terms without definitions
			li := element(atom.Li)
			li.AppendChild(terms(pending))
			items = append(items, li)
		}
		cur, pending = nil, nil
	}
	endList := func() {
		endTerms()
		if len(items) > 0 {
			ul := element(atom.Ul)
			for _, li := range items {
				ul.AppendChild(li)
			}
			out, items = append(out, ul), nil
		}
	}
	for c := dl.FirstChild; c != nil; {
		next := c.NextSibling
		dl.RemoveChild(c)
		switch {
		case c.Type == html.ElementNode && c.DataAtom == atom.Dt:
			if cur != nil {
				cur, pending = nil, nil
			}
			pending = append(pending, c)
		case c.Type == html.ElementNode && c.DataAtom == atom.Dd:
			if cur == nil {
				cur = element(atom.Li)
				items = append(items, cur)
				if len(pending) > 0 {
					cur.AppendChild(terms(pending))
					cur.AppendChild(&html.Node{Type: html.TextNode, Data: ": "})
				}
			} else {
				cur.AppendChild(&html.Node{Type: html.TextNode, Data: "; "})
			}
			if hasBlock(c) {
				div := element(atom.Div)
				moveChildren(c, div)
				cur.AppendChild(div)
			} else {
				moveChildren(c, cur)
			}
		case c.Type == html.ElementNode && c.DataAtom == atom.Div:
			// <div> groups of <dt>/<dd> (allowed by HTML): unwrap them.
			for g := c.LastChild; g != nil; g = c.LastChild {
				c.RemoveChild(g)
				dl.InsertBefore(g, next)
				next = g
			}
		case nodeHasText(c):
			endList()
			out = append(out, c)
		}
		c = next
	}
	endTerms()
	if len(out) == 0 {
		dl.Data, dl.DataAtom, dl.Attr = "ul", atom.Ul, nil
		for _, li := range items {
			dl.AppendChild(li)
		}
		return
	}
	endList()
	dl.Data, dl.DataAtom, dl.Attr = "div", atom.Div, nil
	for _, n := range out {
		dl.AppendChild(n)
	}
}

// terms joins the contents of consecutive <dt>s with ", ", in bold unless
// every term is already code (`term` reads as a term on its own, and bold
// around code makes html-to-markdown pad it with spaces).
func terms(dts []*html.Node) *html.Node {
	wrap := element(atom.Strong)
	allCode := true
	for _, dt := range dts {
		allCode = allCode && onlyCode(dt)
	}
	if allCode {
		wrap = element(atom.Span)
	}
	for i, dt := range dts {
		if i > 0 {
			wrap.AppendChild(&html.Node{Type: html.TextNode, Data: ", "})
		}
		moveChildren(dt, wrap)
	}
	return wrap
}

// onlyCode reports whether n's content is one <code> element (and white
// space).
func onlyCode(n *html.Node) bool {
	codes := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.ElementNode && c.DataAtom == atom.Code:
			codes++
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "":
		default:
			return false
		}
	}
	return codes == 1
}

// hasBlock reports whether n has a block-level child element.
func hasBlock(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		switch c.DataAtom {
		case atom.P, atom.Div, atom.Pre, atom.Ul, atom.Ol, atom.Table, atom.Blockquote, atom.Dl, atom.Figure:
			return true
		}
	}
	return false
}

// figure italicises the caption and gives a caption-less-alt image the
// caption as its alt text.
func figure(fig *html.Node) {
	cap := findFirst(fig, atom.Figcaption)
	if cap == nil {
		return
	}
	capText := strings.Join(strings.Fields(textOf(cap)), " ")
	if img := findFirst(fig, atom.Img); img != nil && strings.TrimSpace(attr(img, "alt")) == "" && capText != "" {
		setAttr(img, "alt", capText)
	}
	if capText != "" && !hasBlock(cap) {
		em := element(atom.Em)
		moveChildren(cap, em)
		cap.AppendChild(em)
	}
}

// formControl makes a form readable as text: each <label> becomes a
// paragraph of its own instead of running into the next, and a <select>
// becomes the list of its options' texts ("Sales, Support, Billing"), or
// nothing when they have none. It reports whether n was replaced.
func formControl(n *html.Node) bool {
	if n.DataAtom == atom.Label {
		n.Data, n.DataAtom = "p", atom.P
		return false
	}
	var opts []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type != html.ElementNode:
			case c.DataAtom == atom.Option:
				if t := strings.Join(strings.Fields(textOf(c)), " "); t != "" {
					opts = append(opts, t)
				}
			case c.DataAtom == atom.Optgroup:
				walk(c)
			}
		}
	}
	walk(n)
	p := element(atom.P)
	if len(opts) > 0 {
		p.AppendChild(&html.Node{Type: html.TextNode, Data: strings.Join(opts, ", ")})
		n.Parent.InsertBefore(p, n)
	}
	n.Parent.RemoveChild(n)
	return true
}

// element returns a new element node.
func element(a atom.Atom) *html.Node {
	return &html.Node{Type: html.ElementNode, DataAtom: a, Data: a.String()}
}

// moveChildren moves all children of from to the end of to.
func moveChildren(from, to *html.Node) {
	for c := from.FirstChild; c != nil; c = from.FirstChild {
		from.RemoveChild(c)
		to.AppendChild(c)
	}
}

// sectionRows finds the rows that label a section of a table (one cell
// spanning every column) and drops their colspan, so the label is written
// once instead of repeated in each column.
func sectionRows(table *html.Node) {
	rows := tableRows(table)
	width := 0
	for _, r := range rows {
		w := 0
		for _, cell := range childElements(r) {
			w += max(1, min(atoi(attr(cell, "colspan")), 1000))
		}
		width = max(width, w)
	}
	for _, r := range rows {
		cells := childElements(r)
		if len(cells) == 1 && width > 1 && atoi(attr(cells[0], "colspan")) >= width {
			delAttr(cells[0], "colspan")
		}
	}
}

// tableCaption moves a table's <caption> out in front of it as a
// paragraph: html-to-markdown writes the caption after the table, where
// it no longer reads as the table's title. It returns the paragraph, or
// nil.
func tableCaption(table *html.Node) *html.Node {
	for _, c := range childElements(table) {
		if c.DataAtom != atom.Caption {
			continue
		}
		table.RemoveChild(c)
		if !nodeHasText(c) || table.Parent == nil {
			return nil
		}
		p := element(atom.P)
		moveChildren(c, p)
		table.Parent.InsertBefore(p, table)
		return p
	}
	return nil
}

// childElements returns n's element children.
func childElements(n *html.Node) []*html.Node {
	var out []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			out = append(out, c)
		}
	}
	return out
}

// atoi parses a small non-negative integer attribute, 0 when invalid.
func atoi(s string) int {
	n := 0
	for _, r := range strings.TrimSpace(s) {
		if r < '0' || r > '9' || n > 1e6 {
			return n
		}
		n = n*10 + int(r-'0')
	}
	return n
}
