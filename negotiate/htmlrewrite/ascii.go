package htmlrewrite

import "bytes"

// The byte tests shared by the tokenizer, the attribute reader and the
// rewrite state: byte classes, HTML white space, ASCII case folding.

// Byte classes of the tokenizer's loops (byteClass).
const (
	endsName  = 1 << iota // white space, '/' or '>': ends a tag's name
	endsKey               // those and '=': ends an attribute's key
	endsValue             // white space or '>': ends an unquoted value
	letter                // an ASCII letter
	opensTag              // a letter, '/', '!' or '?': after '<', not text
)

// byteClass gives the classes of each byte, so that the loops test one
// table entry a byte.
var byteClass = func() (t [256]uint8) {
	for _, c := range []byte(" \t\n\r\f") {
		t[c] = endsName | endsKey | endsValue
	}
	t['/'] = endsName | endsKey | opensTag
	t['>'] = endsName | endsKey | endsValue
	t['='] = endsKey
	t['!'], t['?'] = opensTag, opensTag
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = letter|opensTag, letter|opensTag
	}
	return t
}()

// isHTMLSpace reports whether c is white space for HTML (WHATWG's ASCII
// whitespace: tab, LF, FF, CR and space).
func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// lowerBit is what ORs an ASCII upper-case letter into lower case.
func lowerBit(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return 0x20
	}
	return 0
}

// asciiFoldEqual reports whether a and b are equal once ASCII upper case
// is lowered, as x/net/html compares attribute keys (bytes.EqualFold would
// also fold Unicode, and read invalid UTF-8 as equal U+FFFDs).
func asciiFoldEqual(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i]|lowerBit(a[i]) != b[i]|lowerBit(b[i]) {
			return false
		}
	}
	return true
}

// equalFold is strings.EqualFold for a byte slice against a string,
// without converting either.
func equalFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return bytes.EqualFold(b, []byte(s)) // non-ASCII: lengths may differ
	}
	for i := 0; i < len(b); i++ {
		if c, d := b[i], s[i]; c != d && (c|lowerBit(c) != d|lowerBit(d) || c >= 0x80 || d >= 0x80) {
			return bytes.EqualFold(b, []byte(s))
		}
	}
	return true
}
