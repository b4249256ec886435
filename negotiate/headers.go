package negotiate

import (
	"net/http"
	"strings"
)

// mdSuffix is appended inside the quotes of the origin's entity tag to name
// the Markdown variant (RFC 9110 §8.8.3.3: each representation of a resource
// needs its own entity tag).
const mdSuffix = "-md"

// AddVary adds field to the Vary header of h unless it is already listed
// (compared case-insensitively, on any of the field lines) or Vary is "*",
// which already covers every field (RFC 9110 §12.5.5). Existing values are
// kept; the field is appended as a new line.
func AddVary(h http.Header, field string) {
	if hasToken(h["Vary"], "*") || hasToken(h["Vary"], field) {
		return
	}
	h["Vary"] = append(h["Vary"], field)
}

// hasToken reports whether the comma-separated list spread over lines holds
// token, compared case-insensitively; quoted strings are not looked into.
func hasToken(lines []string, token string) bool {
	for _, line := range lines {
		for line != "" {
			var item string
			item, line = nextListMember(line)
			item = trimOWS(item)
			if name, _, _ := strings.Cut(item, "="); strings.EqualFold(trimOWS(name), token) {
				return true
			}
		}
	}
	return false
}

// MarkdownETag returns the entity tag of the Markdown variant of the
// representation tagged etag: "abc" becomes "abc-md" and W/"abc" becomes
// W/"abc-md". An empty or malformed tag gives "" (no ETag is better than a
// wrong one).
func MarkdownETag(etag string) string {
	weak, opaque, ok := parseETag(trimOWS(etag))
	if !ok {
		return ""
	}
	return weak + `"` + opaque + mdSuffix + `"`
}

// appendMarkdownETag appends MarkdownETag(etag) to dst; ok is false, and
// dst unchanged, when that is "".
func appendMarkdownETag(dst []byte, etag string) ([]byte, bool) {
	weak, opaque, ok := parseETag(trimOWS(etag))
	if !ok {
		return dst, false
	}
	dst = append(append(append(dst, weak...), '"'), opaque...)
	return append(append(dst, mdSuffix...), '"'), true
}

// parseETag splits an entity-tag (RFC 9110 §8.8.3) into its weak prefix ("W/"
// or "") and its opaque content without quotes.
func parseETag(s string) (weak, opaque string, ok bool) {
	if strings.HasPrefix(s, "W/") {
		weak, s = "W/", s[2:]
	}
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", "", false
	}
	opaque = s[1 : len(s)-1]
	for i := 0; i < len(opaque); i++ {
		// etagc = %x21 / %x23-7E / obs-text
		if c := opaque[i]; c == '"' || c < 0x21 || c == 0x7f {
			return "", "", false
		}
	}
	return weak, opaque, true
}

// etagList calls fn with each member of an If-None-Match value: "*", an
// entity-tag, or (for a malformed remainder) the raw rest of the value with
// ok false. Commas inside an entity-tag's quotes do not split it.
func etagList(v string, fn func(member string, ok bool)) {
	for {
		v = strings.TrimLeft(v, " \t,")
		if v == "" {
			return
		}
		if v[0] == '*' {
			fn("*", true)
			v = v[1:]
			continue
		}
		i := 0
		if strings.HasPrefix(v, "W/") {
			i = 2
		}
		if i >= len(v) || v[i] != '"' {
			fn(trimOWS(v), false)
			return
		}
		end := strings.IndexByte(v[i+1:], '"')
		if end < 0 {
			fn(trimOWS(v), false)
			return
		}
		end += i + 2
		fn(v[:end], true)
		v = v[end:]
	}
}

// SplitIfNoneMatch separates the entity tags of an If-None-Match value (the
// lines joined with ", ") into those the origin issued and those naming our
// Markdown variant (ending in -md inside the quotes). origin is the value to
// forward to the origin ("" when nothing is left); markdown keeps our tags as
// they were sent. A malformed remainder stays with the origin's part.
func SplitIfNoneMatch(v string) (origin string, markdown []string) {
	var kept []string
	etagList(v, func(m string, ok bool) {
		if _, _, valid := parseETag(m); ok && valid && strings.HasSuffix(m, mdSuffix+`"`) {
			markdown = append(markdown, m)
			return
		}
		kept = append(kept, m)
	})
	return strings.Join(kept, ", "), markdown
}

// originTag turns one of our Markdown entity tags back into the origin's tag
// it was made from: "abc-md" -> "abc".
func originTag(md string) string {
	return strings.TrimSuffix(md, mdSuffix+`"`) + `"`
}

// ETagMatch evaluates an If-None-Match value against the current entity tag
// with the weak comparison RFC 9110 §13.1.2 requires: it reports whether "*"
// is listed or any listed tag has the same opaque content as etag, weak or
// not. An empty or malformed etag matches only "*".
func ETagMatch(ifNoneMatch, etag string) bool {
	_, want, okWant := parseETag(trimOWS(etag))
	match := false
	etagList(ifNoneMatch, func(m string, ok bool) {
		if !ok || match {
			return
		}
		if m == "*" {
			match = true
			return
		}
		if _, got, _ := parseETag(m); okWant && got == want {
			match = true
		}
	})
	return match
}

// LinkValue formats one Link field value (RFC 8288 §3):
// `</llms.txt>; rel="describedby"; type="text/plain"`. The target is
// percent-encoded wherever a byte is not allowed in a URI-reference (so CR,
// LF, '>' and spaces cannot break out of the brackets), and rel and type are
// written as quoted-strings with control characters dropped. An empty typ is
// left out.
func LinkValue(target, rel, typ string) string {
	var b strings.Builder
	b.Grow(len(target) + len(rel) + len(typ) + 24)
	b.WriteByte('<')
	writeURIReference(&b, target)
	b.WriteString(`>; rel=`)
	writeQuoted(&b, rel)
	if typ != "" {
		b.WriteString(`; type=`)
		writeQuoted(&b, typ)
	}
	return b.String()
}

// writeURIReference writes s, percent-encoding every byte outside RFC 3986's
// unreserved, reserved and '%' sets. Runs of bytes that need no escaping
// (all of a usual path) are written whole.
func writeURIReference(b *strings.Builder, s string) {
	const hex = "0123456789ABCDEF"
	for s != "" {
		i := 0
		for i < len(s) && uriChars[s[i]] {
			i++
		}
		b.WriteString(s[:i])
		if i == len(s) {
			return
		}
		c := s[i]
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&0x0f])
		s = s[i+1:]
	}
}

// uriChars marks the bytes writeURIReference copies as they are: a table
// instead of a comparison chain per byte (a Link value is made on every
// HTML response).
var uriChars = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = isURIChar(byte(c))
	}
	return t
}()

func isURIChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~:/?#[]@!$&'()*+,;=%", c) >= 0
}

// writeQuoted writes s as a quoted-string (RFC 9110 §5.6.4), escaping '"'
// and '\' and dropping control characters.
func writeQuoted(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 && c != '\t', c == 0x7f:
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// hasCtl reports whether s holds a byte that may not appear in a field
// value (RFC 9110 §5.5: CR, LF, NUL and the other controls except HTAB).
func hasCtl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return true
		}
	}
	return false
}
