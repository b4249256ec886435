package ard

import (
	"net/url"
	"regexp"
	"strings"
)

// jsSpace is JavaScript's \s class. Lighthouse's robots.txt pattern runs in
// JavaScript, where \s also matches line breaks, so "Agentmap:" followed by a
// line break still takes the next line's first word.
const jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// agentmapRE is Lighthouse's /^\s*Agentmap:\s*(\S+)/im over text whose line
// terminators were normalised to \n.
var agentmapRE = regexp.MustCompile(`(?im)^[` + jsSpace + `]*Agentmap:[` + jsSpace + `]*([^` + jsSpace + `]+)`)

// lineBreaks normalises JavaScript's line terminators to \n, so that Go's
// multi-line ^ sees the same line starts.
var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n")

// ParseAgentmap returns the absolute URL of the first `Agentmap:` directive in
// robots.txt (case-insensitive, resolved against baseURL), or "" when there is
// none or it does not resolve.
func ParseAgentmap(robotsTxt, baseURL string) string {
	m := agentmapRE.FindStringSubmatch(lineBreaks.Replace(robotsTxt))
	if m == nil {
		return ""
	}
	return resolveURL(m[1], baseURL)
}

// resolveURL resolves href against base as `new URL(href, base).href` would,
// returning "" for an empty or unparseable value or a non-absolute result.
func resolveURL(href, base string) string {
	// WHATWG URL parsing strips leading/trailing C0 controls and spaces and
	// removes tabs and newlines anywhere.
	href = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, strings.TrimFunc(href, func(r rune) bool { return r <= ' ' }))
	if href == "" {
		return ""
	}
	b, err := url.Parse(base)
	if err != nil {
		return ""
	}
	u, err := b.Parse(href)
	if err != nil || !u.IsAbs() {
		return ""
	}
	u.Host = strings.ToLower(u.Host)
	if (u.Scheme == "http" || u.Scheme == "https") && u.Host == "" {
		return ""
	}
	if (u.Scheme == "http" || u.Scheme == "https") && u.Path == "" && u.Opaque == "" {
		u.Path = "/"
	}
	return u.String()
}

// Link relations for ARD entry sources. `ai-catalog` is the predecessor
// relation, which consumers MAY consult (ARD §5.1).
const (
	relARD    = "ard"
	relLegacy = "ai-catalog"
)

// ParseLinkHeader returns the targets of the first `rel="ard"` and the first
// `rel="ai-catalog"` link in the given Link header field values (RFC 8288 §3),
// resolved against baseURL. Relation types compare case-insensitively
// (RFC 8288 §2.1.1) and a rel parameter may carry several space-separated
// types (§3.3). Missing relations are "".
func ParseLinkHeader(values []string, baseURL string) (ard, legacy string) {
	for _, l := range parseLinks(strings.Join(values, ",")) {
		for _, rel := range strings.Fields(strings.ToLower(l.rel)) {
			switch {
			case rel == relARD && ard == "":
				ard = resolveURL(l.target, baseURL)
			case rel == relLegacy && legacy == "":
				legacy = resolveURL(l.target, baseURL)
			}
		}
	}
	return ard, legacy
}

// link is one parsed link-value: its target and its first rel parameter.
type link struct{ target, rel string }

// maxLinks bounds how many link-values of one header are considered.
const maxLinks = 256

// parseLinks parses a Link field value: link-value = "<" URI-Reference ">"
// *( OWS ";" OWS link-param ), values separated by commas (RFC 8288 §3).
// Malformed link-values are skipped up to the next top-level comma.
func parseLinks(s string) []link {
	var out []link
	for i := 0; i < len(s) && len(out) < maxLinks; {
		lt := strings.IndexByte(s[i:], '<')
		if lt < 0 {
			break
		}
		i += lt + 1
		gt := strings.IndexByte(s[i:], '>')
		if gt < 0 {
			break
		}
		l := link{target: s[i : i+gt]}
		i += gt + 1
		relSeen := false
		// Parameters up to the next comma outside a quoted-string.
		for i < len(s) && s[i] != ',' {
			if s[i] != ';' {
				i++
				continue
			}
			i++
			var name, value string
			name, value, i = parseLinkParam(s, i)
			// RFC 8288 §3.3: occurrences after the first rel are ignored.
			if name == "rel" && !relSeen {
				l.rel, relSeen = value, true
			}
		}
		out = append(out, l)
	}
	return out
}

// parseLinkParam reads `token [ "=" ( token / quoted-string ) ]` starting at i
// and returns the lower-cased name, the unquoted value and the new offset.
func parseLinkParam(s string, i int) (name, value string, next int) {
	i = skipOWS(s, i)
	start := i
	for i < len(s) && s[i] != '=' && s[i] != ';' && s[i] != ',' && s[i] != ' ' && s[i] != '\t' {
		i++
	}
	name = strings.ToLower(s[start:i])
	i = skipOWS(s, i)
	if i >= len(s) || s[i] != '=' {
		return name, "", i
	}
	i = skipOWS(s, i+1)
	if i < len(s) && s[i] == '"' {
		var b strings.Builder
		for i++; i < len(s) && s[i] != '"'; i++ {
			if s[i] == '\\' && i+1 < len(s) {
				i++
			}
			b.WriteByte(s[i])
		}
		return name, b.String(), min(i+1, len(s))
	}
	start = i
	for i < len(s) && s[i] != ';' && s[i] != ',' {
		i++
	}
	return name, strings.TrimRight(s[start:i], " \t"), i
}

func skipOWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}
