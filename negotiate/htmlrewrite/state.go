package htmlrewrite

import (
	"bytes"
	"html"
	"slices"
	"strings"

	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// rewriteState decides, token by token, what the rewriter injects.
type rewriteState struct {
	inj      *Injection
	langDone bool
	headDone bool
	skip     []bool // per inj.Head: a matching tag was seen in the head
	prevRaw  bool   // the previous token opened a raw-text element
	started  bool   // a token has been seen
	template int    // depth of <template> elements in the head
	forms    []formMatcher
	fields   map[string]map[string]string // fields of the form we are in

	// ins are the insertions into the current token, by offset; their
	// bytes live in buf, reset for every token.
	ins []insertion
	buf []byte
}

// insertion is markup the rewrite adds inside or before a token: b goes in
// at offset at of the token's raw bytes.
type insertion struct {
	at int
	b  []byte
}

func newRewriteState(inj *Injection) *rewriteState {
	return &rewriteState{
		inj:      inj,
		langDone: inj.Lang == "",
		headDone: len(inj.Head) == 0,
		skip:     make([]bool, len(inj.Head)),
		forms:    compileForms(inj.Forms),
	}
}

// disable gives up every injection: the rest is copied as is.
func (st *rewriteState) disable() {
	st.langDone, st.headDone, st.forms = true, true, nil
}

// finished reports whether nothing is left to inject, so the rest of the
// page can be copied without tokenizing.
func (st *rewriteState) finished() bool {
	return st.langDone && st.headDone && len(st.forms) == 0
}

// needs reports whether token would look at a token of type tt whose tag
// name (lower-cased; nil for text and comments) is name. Until the head is
// done it looks at every token; after, only at the tags it may annotate.
func (st *rewriteState) needs(tt nethtml.TokenType, name []byte) bool {
	if !st.headDone || !st.started {
		return true
	}
	if !annotatable(tt, name) {
		return false
	}
	switch string(name) {
	case "html":
		return !st.langDone
	case "form":
		if tt == nethtml.StartTagToken {
			return len(st.forms) > 0
		}
		return st.fields != nil
	}
	return st.fields != nil // a field
}

// attrSource gives the attributes of the current start tag, as
// x/net/html's Tokenizer reads them (keys lower-cased, values decoded).
type attrSource interface{ attrs() []attr }

// token decides what the current token gains and reports whether it gains
// anything: the insertions are then in st.ins, in the order of their
// offsets. raw is the token's bytes; tag gives a start tag's attributes.
// raw may be nil for a token that was partly written already: only text
// after the head has started the body, raw text and comments, none of
// which gain anything.
func (st *rewriteState) token(tt nethtml.TokenType, raw []byte, tag attrSource) bool {
	st.ins, st.buf = st.ins[:0], st.buf[:0]
	if !st.started {
		st.started = true
		if bytes.HasPrefix(raw, []byte("\xff\xfe")) || bytes.HasPrefix(raw, []byte("\xfe\xff")) {
			// UTF-16 (WHATWG BOM sniffing): our ASCII bytes would corrupt it.
			st.disable()
			return false
		}
	}
	prevRaw := st.prevRaw
	st.prevRaw = false
	switch tt {
	case nethtml.TextToken:
		// A byte order mark (U+FEFF) must stay the first bytes of the page.
		if !st.headDone && !prevRaw && st.template == 0 && len(bytes.TrimLeft(raw, " \t\r\n\f\ufeff")) > 0 {
			st.withHead()
		}
	case nethtml.EndTagToken:
		a, _ := tagName(raw)
		switch a {
		case atom.Template:
			if st.template > 0 {
				st.template--
			}
		case atom.Head, atom.Body, atom.Html, atom.Br:
			if !st.headDone && st.template == 0 {
				st.withHead()
			}
		case atom.Form:
			st.fields = nil
		}
	case nethtml.StartTagToken, nethtml.SelfClosingTagToken:
		st.startTag(tt, raw, tag)
	}
	return len(st.ins) > 0
}

func (st *rewriteState) startTag(tt nethtml.TokenType, raw []byte, tag attrSource) {
	a, name := tagName(raw)
	st.prevRaw = isRawText(a)
	inHead := !st.headDone
	var attrs []attr
	if inHead || st.wantsAttrs(a) {
		attrs = tag.attrs()
	}
	if inHead {
		if a == atom.Template && tt == nethtml.StartTagToken {
			st.template++ // its content is inert, not the start of the body
		}
		if !isHeadTag(a) && st.template == 0 {
			st.withHead()
		} else {
			for i := range st.inj.Head {
				if !st.skip[i] && st.inj.Head[i].SkipIf.matches(name, attrs) {
					st.skip[i] = true
				}
			}
		}
	}
	st.annotate(a, tt, raw, attrs)
}

// wantsAttrs reports whether annotate looks at the attributes of a tag.
func (st *rewriteState) wantsAttrs(a atom.Atom) bool {
	switch a {
	case atom.Html:
		return !st.langDone
	case atom.Form:
		return len(st.forms) > 0
	case atom.Input, atom.Select, atom.Textarea:
		return st.fields != nil
	}
	return false
}

// isHeadTag reports whether an element may sit in a head (WHATWG "in head"
// insertion mode); any other start tag begins the body.
func isHeadTag(a atom.Atom) bool {
	switch a {
	case atom.Base, atom.Basefont, atom.Bgsound, atom.Head, atom.Html, atom.Link, atom.Meta,
		atom.Noscript, atom.Script, atom.Style, atom.Template, atom.Title:
		return true
	}
	return false
}

// annotate adds lang, form and field attributes to a start tag.
func (st *rewriteState) annotate(a atom.Atom, tt nethtml.TokenType, raw []byte, attrs []attr) {
	switch a {
	case atom.Html:
		if st.langDone {
			return
		}
		st.langDone = true
		if !hasAttr(attrs, "lang") {
			st.addAttrs(raw, tt, attrs, map[string]string{"lang": st.inj.Lang})
		}
	case atom.Form:
		if len(st.forms) == 0 {
			return
		}
		st.fields = nil
		node := &nethtml.Node{Type: nethtml.ElementNode, Data: "form", DataAtom: atom.Form, Attr: make([]nethtml.Attribute, len(attrs))}
		for i, at := range attrs {
			node.Attr[i] = nethtml.Attribute{Key: string(at.key), Val: string(at.val)}
		}
		var add map[string]string
		for _, f := range st.forms {
			if f.match == nil || !f.match.Match(node) {
				continue
			}
			add = mergeMissing(add, f.ann.Attrs)
			for field, fa := range f.ann.Fields {
				if st.fields == nil {
					st.fields = make(map[string]map[string]string)
				}
				st.fields[field] = mergeMissing(st.fields[field], fa)
			}
		}
		st.addAttrs(raw, tt, attrs, add)
	case atom.Input, atom.Select, atom.Textarea:
		if st.fields != nil {
			st.addAttrs(raw, tt, attrs, st.fields[string(attrValue(attrs, "name"))])
		}
	}
}

// withHead inserts the head elements not skipped before the current token.
func (st *rewriteState) withHead() {
	st.headDone = true
	start := len(st.buf)
	for i, he := range st.inj.Head {
		if !st.skip[i] {
			st.buf = append(st.buf, he.HTML...)
		}
	}
	if len(st.buf) > start {
		// Before whatever annotate adds to the same tag.
		st.ins = slices.Insert(st.ins, 0, insertion{at: 0, b: st.buf[start:len(st.buf):len(st.buf)]})
	}
}

// addAttrs inserts the attributes of add that the tag does not have yet, in
// name order, before the tag's closing "/>" when the tokenizer saw it as
// self-closing, else before its ">", so every existing byte keeps its meaning
// (an unquoted value ending in "/" stays whole).
func (st *rewriteState) addAttrs(raw []byte, tt nethtml.TokenType, attrs []attr, add map[string]string) {
	if len(add) == 0 || len(raw) < 2 || raw[len(raw)-1] != '>' {
		return
	}
	keys := make([]string, 0, len(add))
	for k := range add {
		if isAttrName(k) && !hasAttr(attrs, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return
	}
	slices.Sort(keys)
	cut := len(raw) - 1
	if tt == nethtml.SelfClosingTagToken && raw[cut-1] == '/' {
		cut--
		for cut > 1 && isHTMLSpace(raw[cut-1]) {
			cut-- // `<input a="b" />` keeps its space before the "/"
		}
	}
	start := len(st.buf)
	for _, k := range keys {
		st.buf = append(st.buf, ' ')
		st.buf = append(st.buf, strings.ToLower(k)...)
		st.buf = append(st.buf, `="`...)
		st.buf = append(st.buf, html.EscapeString(add[k])...)
		st.buf = append(st.buf, '"')
	}
	st.ins = append(st.ins, insertion{at: cut, b: st.buf[start:len(st.buf):len(st.buf)]})
}

// tagName reads the name of a start or end tag from its raw bytes (the
// tokenizer's TagName copies it) and returns its atom, 0 for a name we have
// no use for by atom (longer than any we look at, or not lower-case-able).
func tagName(raw []byte) (atom.Atom, []byte) {
	i := 1
	if i < len(raw) && raw[i] == '/' {
		i++
	}
	j := i
	for j < len(raw) && byteClass[raw[j]]&endsName == 0 {
		j++
	}
	name := raw[i:j]
	var lower [16]byte
	if len(name) > len(lower) {
		return 0, name
	}
	for k, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[k] = c
	}
	return atom.Lookup(lower[:len(name)]), name
}

func hasAttr(attrs []attr, key string) bool {
	for _, a := range attrs {
		if equalFold(a.key, key) {
			return true
		}
	}
	return false
}

func attrValue(attrs []attr, key string) []byte {
	for _, a := range attrs {
		if string(a.key) == key {
			return a.val
		}
	}
	return nil
}

// mergeMissing returns dst with the entries of src it does not have yet
// (the first annotation to name an attribute wins).
func mergeMissing(dst, src map[string]string) map[string]string {
	for k, v := range src {
		if dst == nil {
			dst = make(map[string]string, len(src))
		}
		if _, ok := dst[k]; !ok {
			dst[k] = v
		}
	}
	return dst
}

// isAttrName accepts the attribute names we are willing to write: ASCII
// letters, digits and "-_.:", starting with a letter.
func isAttrName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':'):
		default:
			return false
		}
	}
	return true
}
