package negotiate

import "strings"

// rawRange is a media range as scanAccept yields it, without allocation: the
// type and subtype lower-cased, the media-type parameters as their raw text.
type rawRange struct {
	typ, sub string
	params   string // raw parameter text before the weight, "" when none
	q        float64
}

// maxAcceptMembers bounds the work done on one Accept header; members past
// it are ignored (a real client sends fewer than twenty).
const maxAcceptMembers = 256

// scanAccept calls fn for each well-formed member of an Accept value, in
// order, until fn returns false. Members are split on commas outside quoted
// strings (RFC 9110 §5.6.1); empty members are skipped, as the list syntax
// allows, and so are malformed ones.
func scanAccept(header string, fn func(rawRange) bool) {
	for n := 0; header != "" && n < maxAcceptMembers; n++ {
		var member string
		member, header = nextListMember(header)
		m, ok := parseRange(member)
		if ok && !fn(m) {
			return
		}
	}
}

// nextListMember splits s at the first comma that is not inside a quoted
// string.
func nextListMember(s string) (member, rest string) {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == ',':
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

// parseRange parses one media-range with its optional weight:
// type "/" subtype *( OWS ";" OWS parameter ) [ weight ].
func parseRange(s string) (rawRange, bool) {
	s = trimOWS(s)
	if s == "" {
		return rawRange{}, false
	}
	typ, sub, params, ok := splitMediaType(s)
	if !ok {
		return rawRange{}, false
	}
	m := rawRange{typ: typ, sub: sub, q: 1}
	// Find the weight: the first parameter named q ends the media-type
	// parameters (RFC 9110 §12.5.1); what follows is ignored.
	end := len(params)
	bad := false
	scanParamsAt(params, func(start int, k, v string, valid bool) bool {
		if !valid {
			bad = true
			return false
		}
		if strings.EqualFold(k, "q") {
			q, ok := parseQValue(v)
			if !ok {
				bad = true
				return false
			}
			m.q, end = q, start
			return false
		}
		return true
	})
	if bad {
		return rawRange{}, false
	}
	m.params = trimOWS(params[:end])
	return m, true
}

// splitMediaType splits "type/subtype; params" into its lower-cased type and
// subtype and the raw parameter text (starting at the first ';'). "*/sub" is
// rejected: only "*/*" may wildcard the type.
func splitMediaType(s string) (typ, sub, params string, ok bool) {
	s = trimOWS(s)
	slash := strings.IndexByte(s, '/')
	if slash <= 0 {
		return "", "", "", false
	}
	typ = s[:slash]
	rest := s[slash+1:]
	end := strings.IndexByte(rest, ';')
	if end < 0 {
		end = len(rest)
	}
	sub, params = trimOWS(rest[:end]), rest[end:]
	if !isToken(typ) || !isToken(sub) || (typ == "*" && sub != "*") {
		return "", "", "", false
	}
	return strings.ToLower(typ), strings.ToLower(sub), params, true
}

// scanParams calls fn with each parameter's lower-cased name and unquoted
// value until fn returns false; it stops at the first malformed parameter.
func scanParams(params string, fn func(k, v string) bool) {
	scanParamsAt(params, func(_ int, k, v string, valid bool) bool {
		return valid && fn(strings.ToLower(k), v)
	})
}

// scanParamsAt walks `*( OWS ";" OWS [ token "=" ( token / quoted-string ) ] )`,
// calling fn with the offset of each parameter's ';', its raw name, its
// unquoted value and whether it is well formed.
func scanParamsAt(s string, fn func(start int, k, v string, valid bool) bool) {
	i := 0
	for i < len(s) {
		i = skipOWS(s, i)
		if i >= len(s) {
			return
		}
		if s[i] != ';' {
			fn(i, "", "", false)
			return
		}
		start := i
		i = skipOWS(s, i+1)
		if i >= len(s) || s[i] == ';' {
			continue // empty parameter, tolerated
		}
		j := i
		for j < len(s) && isTChar(s[j]) {
			j++
		}
		if j == i || j >= len(s) || s[j] != '=' {
			fn(start, "", "", false)
			return
		}
		k := s[i:j]
		v, next, ok := readParamValue(s, j+1)
		if !ok {
			fn(start, k, "", false)
			return
		}
		if !fn(start, k, v, true) {
			return
		}
		i = next
	}
}

// readParamValue reads a token or a quoted-string starting at s[i].
func readParamValue(s string, i int) (v string, next int, ok bool) {
	if i < len(s) && s[i] == '"' {
		escaped := false
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				escaped = true
				j++
			case '"':
				if escaped {
					return unescapeQuoted(s[i+1 : j]), j + 1, true
				}
				return s[i+1 : j], j + 1, true
			}
		}
		return "", len(s), false
	}
	j := i
	for j < len(s) && isTChar(s[j]) {
		j++
	}
	if j == i {
		return "", j, false
	}
	return s[i:j], j, true
}

// unescapeQuoted removes the backslashes of quoted-pairs (RFC 9110 §5.6.4).
func unescapeQuoted(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// parseQValue parses a weight: "0" [ "." 0*3DIGIT ] / "1" [ "." 0*3("0") ]
// (RFC 9110 §12.4.2).
func parseQValue(s string) (float64, bool) {
	if s == "" || len(s) > 5 || (s[0] != '0' && s[0] != '1') {
		return 0, false
	}
	// Count in thousandths so 0.7 comes out as the float literal 0.7.
	milli := int(s[0]-'0') * 1000
	if len(s) == 1 {
		return float64(milli) / 1000, true
	}
	if s[1] != '.' {
		return 0, false
	}
	scale := 100
	for _, c := range []byte(s[2:]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		milli += int(c-'0') * scale
		scale /= 10
	}
	if milli > 1000 {
		return 0, false
	}
	return float64(milli) / 1000, true
}

// trimOWS removes optional whitespace (RFC 9110 §5.6.3) at both ends. A
// loop, not strings.Trim, which builds its set of bytes on every call (it
// runs a few times per response; with the single parse in decide, a
// stylesheet's response went from 8,168 to 7,055 instructions,
// BenchmarkServeHTTPOverhead/not_html).
func trimOWS(s string) string {
	for s != "" && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for s != "" && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

func skipOWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// isToken reports whether s is a non-empty RFC 9110 §5.6.2 token.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isTChar(s[i]) {
			return false
		}
	}
	return true
}

func isTChar(c byte) bool { return tchar[c] }

// tchar marks the bytes RFC 9110 §5.6.2 allows in a token.
var tchar = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for _, c := range []byte("!#$%&'*+-.^_`|~") {
		t[c] = true
	}
	return t
}()
