package parse

import (
	"net/url"
	"strings"
)

// linkMaxValues bounds how many link-values are parsed from one response.
const linkMaxValues = 200

// Link is one link of a Link header (RFC 8288 §3) or a head <link>.
type Link struct {
	Raw    string   // the target as written
	Target string   // resolved against the base when possible
	Rel    []string // lower-cased relation types
	Type   string   // the type hint, lower-cased
}

// HasRel reports whether l carries relation rel.
func (l Link) HasRel(rel string) bool {
	for _, r := range l.Rel {
		if r == rel {
			return true
		}
	}
	return false
}

// LinkHeader parses every Link header value (RFC 8288 §3) into links,
// resolving targets against base. Malformed values are skipped.
func LinkHeader(values []string, base *url.URL) []Link {
	var out []Link
	for _, v := range values {
		for len(v) > 0 && len(out) < linkMaxValues {
			v = strings.TrimLeft(v, " \t,")
			if !strings.HasPrefix(v, "<") {
				// Not a link-value: skip to the next top-level comma.
				i := nextComma(v)
				if i < 0 {
					break
				}
				v = v[i+1:]
				continue
			}
			end := strings.IndexByte(v, '>')
			if end < 0 {
				break
			}
			l := Link{Raw: strings.TrimSpace(v[1:end]), Target: Resolve(base, v[1:end])}
			v = v[end+1:]
			// link-param *( OWS ";" OWS link-param ) up to the next comma.
			for {
				v = strings.TrimLeft(v, " \t")
				if !strings.HasPrefix(v, ";") {
					break
				}
				v = strings.TrimLeft(v[1:], " \t")
				name, val, rest := linkParam(v)
				v = rest
				switch name {
				case "rel":
					l.Rel = strings.Fields(strings.ToLower(val))
				case "type":
					l.Type = strings.ToLower(strings.TrimSpace(val))
				}
			}
			out = append(out, l)
		}
	}
	return out
}

// linkParam reads one name[=value] parameter, the value a token or a
// quoted-string (RFC 9110 §5.6.4), and returns the rest of the input.
func linkParam(v string) (name, val, rest string) {
	i := strings.IndexAny(v, "=;,")
	if i < 0 {
		return strings.ToLower(strings.TrimSpace(v)), "", ""
	}
	name = strings.ToLower(strings.TrimSpace(v[:i]))
	if v[i] != '=' {
		return name, "", v[i:]
	}
	v = strings.TrimLeft(v[i+1:], " \t")
	if strings.HasPrefix(v, `"`) {
		var b strings.Builder
		for j := 1; j < len(v); j++ {
			switch v[j] {
			case '\\':
				if j+1 < len(v) {
					j++
					b.WriteByte(v[j])
				}
			case '"':
				return name, b.String(), v[j+1:]
			default:
				b.WriteByte(v[j])
			}
		}
		return name, b.String(), ""
	}
	j := strings.IndexAny(v, ";,")
	if j < 0 {
		return name, strings.TrimSpace(v), ""
	}
	return name, strings.TrimSpace(v[:j]), v[j:]
}

// nextComma returns the index of the next comma outside quotes, or -1.
func nextComma(v string) int {
	quoted := false
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '"':
			quoted = !quoted
		case '\\':
			i++
		case ',':
			if !quoted {
				return i
			}
		}
	}
	return -1
}

// Resolve resolves ref against base (RFC 3986 §5); unparsable references are
// returned as given.
func Resolve(base *url.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	u, err := url.Parse(ref)
	if err != nil || base == nil {
		return ref
	}
	return base.ResolveReference(u).String()
}
