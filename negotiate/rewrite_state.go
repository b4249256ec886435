package negotiate

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
	buf      []byte
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

// token returns the bytes to write for the current token: its raw bytes,
// possibly with attributes added, possibly preceded by the head elements.
func (st *rewriteState) token(z *nethtml.Tokenizer, tt nethtml.TokenType) []byte {
	raw := z.Raw()
	if !st.started {
		st.started = true
		if bytes.HasPrefix(raw, []byte("\xff\xfe")) || bytes.HasPrefix(raw, []byte("\xfe\xff")) {
			// UTF-16 (WHATWG BOM sniffing): our ASCII bytes would corrupt it.
			st.disable()
			return raw
		}
	}
	prevRaw := st.prevRaw
	st.prevRaw = false
	switch tt {
	case nethtml.TextToken:
		// A byte order mark (U+FEFF) must stay the first bytes of the page.
		if !st.headDone && !prevRaw && st.template == 0 && len(bytes.TrimLeft(raw, " \t\r\n\f\ufeff")) > 0 {
			return st.withHead(raw)
		}
		return raw
	case nethtml.EndTagToken:
		a, _ := tagName(raw)
		switch a {
		case atom.Template:
			if st.template > 0 {
				st.template--
			}
		case atom.Head, atom.Body, atom.Html, atom.Br:
			if !st.headDone && st.template == 0 {
				return st.withHead(raw)
			}
		case atom.Form:
			st.fields = nil
		}
		return raw
	case nethtml.StartTagToken, nethtml.SelfClosingTagToken:
		return st.startTag(z, tt, raw)
	}
	return raw
}

func (st *rewriteState) startTag(z *nethtml.Tokenizer, tt nethtml.TokenType, raw []byte) []byte {
	a, nameB := tagName(raw)
	st.prevRaw = isRawText(a)
	inHead := !st.headDone
	var name string
	if inHead {
		name = strings.ToLower(string(nameB))
	}
	var attrs []nethtml.Attribute
	if inHead || st.wantsAttrs(a) {
		attrs = readAttrs(z)
	}
	if inHead {
		if a == atom.Template && tt == nethtml.StartTagToken {
			st.template++ // its content is inert, not the start of the body
		}
		if !isHeadTag(a) && st.template == 0 {
			return st.withHead(st.annotate(a, tt, raw, attrs))
		}
		for i, he := range st.inj.Head {
			if !st.skip[i] && he.SkipIf.matches(name, attrs) {
				st.skip[i] = true
			}
		}
	}
	return st.annotate(a, tt, raw, attrs)
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

// isRawText reports whether the tokenizer reads an element's content as text.
func isRawText(a atom.Atom) bool {
	switch a {
	case atom.Iframe, atom.Noembed, atom.Noframes, atom.Noscript, atom.Plaintext,
		atom.Script, atom.Style, atom.Textarea, atom.Title, atom.Xmp:
		return true
	}
	return false
}

// annotate adds lang, form and field attributes to a start tag.
func (st *rewriteState) annotate(a atom.Atom, tt nethtml.TokenType, raw []byte, attrs []nethtml.Attribute) []byte {
	switch a {
	case atom.Html:
		if st.langDone {
			return raw
		}
		st.langDone = true
		if hasAttr(attrs, "lang") {
			return raw
		}
		return st.addAttrs(raw, tt, attrs, map[string]string{"lang": st.inj.Lang})
	case atom.Form:
		if len(st.forms) == 0 {
			return raw
		}
		st.fields = nil
		node := &nethtml.Node{Type: nethtml.ElementNode, Data: "form", DataAtom: atom.Form, Attr: attrs}
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
		return st.addAttrs(raw, tt, attrs, add)
	case atom.Input, atom.Select, atom.Textarea:
		if st.fields == nil {
			return raw
		}
		return st.addAttrs(raw, tt, attrs, st.fields[attrValue(attrs, "name")])
	}
	return raw
}

// withHead returns the head elements not skipped, followed by raw.
func (st *rewriteState) withHead(raw []byte) []byte {
	st.headDone = true
	st.buf = st.buf[:0]
	for i, he := range st.inj.Head {
		if !st.skip[i] {
			st.buf = append(st.buf, he.HTML...)
		}
	}
	return append(st.buf, raw...)
}

// addAttrs inserts the attributes of add that the tag does not have yet, in
// name order, before the tag's closing "/>" when the tokenizer saw it as
// self-closing, else before its ">", so every existing byte keeps its meaning
// (an unquoted value ending in "/" stays whole).
func (st *rewriteState) addAttrs(raw []byte, tt nethtml.TokenType, attrs []nethtml.Attribute, add map[string]string) []byte {
	if len(add) == 0 || len(raw) < 2 || raw[len(raw)-1] != '>' {
		return raw
	}
	keys := make([]string, 0, len(add))
	for k := range add {
		if isAttrName(k) && !hasAttr(attrs, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return raw
	}
	slices.Sort(keys)
	cut := len(raw) - 1
	if tt == nethtml.SelfClosingTagToken && raw[cut-1] == '/' {
		cut--
		for cut > 1 && isHTMLSpace(raw[cut-1]) {
			cut-- // `<input a="b" />` keeps its space before the "/"
		}
	}
	out := make([]byte, 0, len(raw)+32*len(keys))
	out = append(out, raw[:cut]...)
	for _, k := range keys {
		out = append(out, ' ')
		out = append(out, strings.ToLower(k)...)
		out = append(out, `="`...)
		out = append(out, html.EscapeString(add[k])...)
		out = append(out, '"')
	}
	return append(out, raw[cut:]...)
}

func readAttrs(z *nethtml.Tokenizer) []nethtml.Attribute {
	var attrs []nethtml.Attribute
	for {
		k, v, more := z.TagAttr()
		if k == nil {
			return attrs
		}
		attrs = append(attrs, nethtml.Attribute{Key: string(k), Val: string(v)})
		if !more {
			return attrs
		}
	}
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
	for j < len(raw) && !isHTMLSpace(raw[j]) && raw[j] != '/' && raw[j] != '>' {
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

func hasAttr(attrs []nethtml.Attribute, key string) bool {
	for _, a := range attrs {
		if strings.EqualFold(a.Key, key) {
			return true
		}
	}
	return false
}

func attrValue(attrs []nethtml.Attribute, key string) string {
	for _, a := range attrs {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
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

func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}
