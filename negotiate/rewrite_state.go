package negotiate

import (
	"bytes"
	"html"
	"slices"
	"strings"

	nethtml "golang.org/x/net/html"
)

// rewriteState decides, token by token, what the rewriter injects.
type rewriteState struct {
	inj      *Injection
	langDone bool
	headDone bool
	skip     []bool // per inj.Head: a matching tag was seen in the head
	prevRaw  bool   // the previous token opened a raw-text element
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

// finished reports whether nothing is left to inject, so the rest of the
// page can be copied without tokenizing.
func (st *rewriteState) finished() bool {
	return st.langDone && st.headDone && len(st.forms) == 0
}

// headTags are the elements that may sit in a head (WHATWG "in head"
// insertion mode); any other start tag begins the body.
var headTags = []string{"base", "basefont", "bgsound", "head", "html", "link", "meta", "noscript", "script", "style", "template", "title"}

// rawTextTags are the elements whose content the tokenizer reads as text.
var rawTextTags = []string{"iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "textarea", "title", "xmp"}

// token returns the bytes to write for the current token: its raw bytes,
// possibly with attributes added, possibly preceded by the head elements.
func (st *rewriteState) token(z *nethtml.Tokenizer, tt nethtml.TokenType) []byte {
	raw := z.Raw()
	prevRaw := st.prevRaw
	st.prevRaw = false
	switch tt {
	case nethtml.TextToken:
		if !st.headDone && !prevRaw && len(bytes.TrimLeft(raw, " \t\r\n\f")) > 0 {
			return st.withHead(raw)
		}
		return raw
	case nethtml.EndTagToken:
		name, _ := z.TagName()
		switch string(name) {
		case "head", "body", "html", "br":
			if !st.headDone {
				return st.withHead(raw)
			}
		case "form":
			st.fields = nil
		}
		return raw
	case nethtml.StartTagToken, nethtml.SelfClosingTagToken:
		return st.startTag(z, tt, raw)
	}
	return raw
}

func (st *rewriteState) startTag(z *nethtml.Tokenizer, tt nethtml.TokenType, raw []byte) []byte {
	nameB, hasAttr := z.TagName()
	name := string(nameB)
	st.prevRaw = slices.Contains(rawTextTags, name)
	var attrs []nethtml.Attribute
	if hasAttr {
		attrs = readAttrs(z)
	}
	if !st.headDone {
		if !slices.Contains(headTags, name) {
			return st.withHead(st.annotate(name, tt, raw, attrs))
		}
		for i, he := range st.inj.Head {
			if !st.skip[i] && he.SkipIf.matches(name, attrs) {
				st.skip[i] = true
			}
		}
	}
	return st.annotate(name, tt, raw, attrs)
}

// annotate adds lang, form and field attributes to a start tag.
func (st *rewriteState) annotate(name string, tt nethtml.TokenType, raw []byte, attrs []nethtml.Attribute) []byte {
	switch name {
	case "html":
		if st.langDone {
			return raw
		}
		st.langDone = true
		if hasAttr(attrs, "lang") {
			return raw
		}
		return st.addAttrs(raw, tt, attrs, map[string]string{"lang": st.inj.Lang})
	case "form":
		if len(st.forms) == 0 {
			return raw
		}
		st.fields = nil
		node := &nethtml.Node{Type: nethtml.ElementNode, Data: name, Attr: attrs}
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
	case "input", "select", "textarea":
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
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		attrs = append(attrs, nethtml.Attribute{Key: string(k), Val: string(v)})
	}
	return attrs
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
