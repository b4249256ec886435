package htmlrewrite

import (
	"bytes"

	nethtml "golang.org/x/net/html"
)

// tagAttrs reads a start tag's attributes from the spans the tokenizer
// found, as x/net/html's Tokenizer returns them: keys lower-cased, the
// first of each key kept, values with character references decoded.
type tagAttrs struct {
	raw         []byte
	spans       []attrSpan
	selfClosing bool
	done        bool
	list        []attr
	keys        []byte // lower-cased keys
}

type attr struct{ key, val []byte }

func (t *tagAttrs) reset(raw []byte, spans []attrSpan) {
	t.raw, t.spans, t.done = raw, spans, false
	// x/net/html: a tag ending in "/>" is self-closing unless that '/' ends
	// the value of its last attribute (<a href=/>).
	t.selfClosing = len(raw) >= 2 && raw[len(raw)-2] == '/'
	if t.selfClosing {
		if last, ok := t.lastKept(); ok && last.v1-1 == len(raw)-2 {
			t.selfClosing = false
		}
	}
}

// lastKept is the last attribute x/net/html keeps (non-empty key, not a
// repeat).
func (t *tagAttrs) lastKept() (attrSpan, bool) {
	for i := len(t.spans) - 1; i >= 0; i-- {
		if t.kept(i) {
			return t.spans[i], true
		}
	}
	return attrSpan{}, false
}

// kept reports whether x/net/html keeps attribute i: a non-empty key seen
// for the first time.
func (t *tagAttrs) kept(i int) bool {
	a := t.spans[i]
	if a.k0 == a.k1 {
		return false
	}
	for _, b := range t.spans[:i] {
		if b.k0 != b.k1 && asciiFoldEqual(t.raw[a.k0:a.k1], t.raw[b.k0:b.k1]) {
			return false
		}
	}
	return true
}

// attrs returns the attributes, computed on first use.
func (t *tagAttrs) attrs() []attr {
	if t.done {
		return t.list
	}
	t.done = true
	t.list, t.keys = t.list[:0], t.keys[:0]
	for i, a := range t.spans {
		if !t.kept(i) {
			continue
		}
		if k, v := t.raw[a.k0:a.k1], t.raw[a.v0:a.v1]; bytes.IndexByte(k, 0) >= 0 ||
			bytes.IndexByte(v, '&') >= 0 || bytes.IndexByte(v, '\r') >= 0 || bytes.IndexByte(v, 0) >= 0 {
			// Character references, CR and NUL: x/net/html decodes and
			// replaces them; let it, on this tag's bytes alone.
			t.list = libraryAttrs(t.raw, t.list[:0])
			return t.list
		}
		k0 := len(t.keys)
		for _, c := range t.raw[a.k0:a.k1] {
			t.keys = append(t.keys, c|lowerBit(c))
		}
		t.list = append(t.list, attr{key: t.keys[k0:len(t.keys):len(t.keys)], val: t.raw[a.v0:a.v1]})
	}
	return t.list
}

// libraryAttrs tokenizes the complete start tag raw with x/net/html.
func libraryAttrs(raw []byte, dst []attr) []attr {
	z := nethtml.NewTokenizer(bytes.NewReader(raw))
	z.Next()
	for {
		k, v, more := z.TagAttr()
		if k == nil {
			return dst
		}
		dst = append(dst, attr{key: bytes.Clone(k), val: bytes.Clone(v)})
		if !more {
			return dst
		}
	}
}
