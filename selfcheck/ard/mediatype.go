package ard

import (
	"regexp"
	"slices"
	"strings"
)

// Media type grammar of the conformance test: RFC 6838 §4.2 restricted-name
// for type and subtype, RFC 9110 §5.6.6 parameters (token or quoted-string
// values, optional whitespace around ";" and "="). RE2 matches in linear
// time, so hostile input cannot make it backtrack.
const (
	restrictedName = `[0-9A-Za-z][0-9A-Za-z!#$&^_.+\-]{0,126}`
	tokenRE        = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+"
	quotedString   = `"(?:[\t !#-\[\]-~]|\\[\t !-~])*"`
)

var (
	mediaTypeRE = regexp.MustCompile(`^(` + restrictedName + `)/(` + restrictedName + `)` +
		`((?:[ \t]*;[ \t]*` + tokenRE + `[ \t]*=[ \t]*(?:` + tokenRE + `|` + quotedString + `))*)$`)
	mediaTypeParamRE = regexp.MustCompile(`[ \t]*;[ \t]*(` + tokenRE + `)[ \t]*=[ \t]*(` + tokenRE + `|` + quotedString + `)`)
)

// StandardMediaTypes are the ARD v0.91 discovery media types, in the order
// the upstream messages list them.
var StandardMediaTypes = []string{
	"application/ai-catalog+json",
	"application/agent-card+json",
	"application/a2a-agent-card+json",
	"application/mcp-server-card+json",
	"application/agent-skills+zip",
	"application/agent-skills+gzip",
	`text/markdown; profile="urn:air:agent-skills"`,
	"application/ai-registry",
	"application/ai-registry+json",
}

// deprecatedMediaTypes maps a renamed media type to its replacement (ADR-0008).
var deprecatedMediaTypes = map[string]string{
	"application/mcp-server+json": "application/mcp-server-card+json",
}

// param is one media type parameter: lower-cased name, raw value.
type param struct{ name, value string }

// parsedMediaType is a media type reduced to a comparable form.
type parsedMediaType struct {
	base   string
	params []param
}

func (p parsedMediaType) key() string {
	var b strings.Builder
	b.WriteString(p.base)
	for _, q := range p.params {
		b.WriteString("\x00" + q.name + "\x00" + q.value)
	}
	return b.String()
}

// parseMediaType parses a media type, returning ok=false when it is not
// well-formed or repeats a parameter name.
func parseMediaType(s string) (parsedMediaType, bool) {
	m := mediaTypeRE.FindStringSubmatch(s)
	if m == nil {
		return parsedMediaType{}, false
	}
	p := parsedMediaType{base: strings.ToLower(m[1]) + "/" + strings.ToLower(m[2])}
	for _, pm := range mediaTypeParamRE.FindAllStringSubmatch(m[3], -1) {
		p.params = append(p.params, param{strings.ToLower(pm[1]), pm[2]})
	}
	// Python sorts (name, value) tuples by code point.
	slices.SortFunc(p.params, func(a, b param) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return strings.Compare(a.value, b.value)
	})
	for i := 1; i < len(p.params); i++ {
		if p.params[i].name == p.params[i-1].name {
			return parsedMediaType{}, false
		}
	}
	return p, true
}

// standardTypes indexes StandardMediaTypes by key and by base type.
var standardTypes = func() (s struct {
	keys   map[string]bool
	params map[string][]param
}) {
	s.keys = map[string]bool{}
	s.params = map[string][]param{}
	for _, t := range StandardMediaTypes {
		p, _ := parseMediaType(t)
		s.keys[p.key()] = true
		s.params[p.base] = p.params
	}
	return s
}()

// standardMediaTypesRepr is Python's repr() of the standard list, kept so
// messages stay identical to upstream.
var standardMediaTypesRepr = func() string {
	q := make([]string, len(StandardMediaTypes))
	for i, t := range StandardMediaTypes {
		q[i] = "'" + t + "'"
	}
	return "[" + strings.Join(q, ", ") + "]"
}()

// severity of a media type diagnostic.
type severity int

const (
	sevNone severity = iota
	sevInfo
	sevWarning
)

// classifyMediaType returns the diagnostic for an entry's `type`, as the
// conformance test's classify_media_type does.
func classifyMediaType(v any) (severity, string) {
	s, ok := v.(string)
	if !ok {
		return sevWarning, "Media type must be a string; got " + pythonTypeName(v) + "."
	}
	p, ok := parseMediaType(s)
	if !ok {
		return sevWarning, "Media type '" + s + "' is not a valid IANA media type. " +
			"Expected 'type/subtype' with optional parameters."
	}
	if standardTypes.keys[p.key()] {
		return sevNone, ""
	}
	if repl, ok := deprecatedMediaTypes[p.base]; ok {
		return sevWarning, "Media type '" + s + "' was renamed by ADR-0008. Use '" + repl + "'."
	}
	if expected, ok := standardTypes.params[p.base]; ok {
		return sevWarning, "Media type '" + s + "' is based on standard discovery type '" +
			p.base + "' but has " + paramDifferences(expected, p.params) + "."
	}
	if strings.HasPrefix(p.base, "application/") {
		return sevInfo, "Media type '" + s + "' is a valid application extension media type. " +
			"ARD permits extension types without core registration."
	}
	return sevWarning, "Media type '" + s + "' is not one of standard discovery types: " +
		standardMediaTypesRepr + "."
}

// paramDifferences describes how actual parameters differ from the expected ones.
func paramDifferences(expected, actual []param) string {
	lookup := func(ps []param, name string) (string, bool) {
		for _, p := range ps {
			if p.name == name {
				return p.value, true
			}
		}
		return "", false
	}
	var missing, unrecognized []string
	for _, e := range expected {
		if v, ok := lookup(actual, e.name); !ok || v != e.value {
			missing = append(missing, e.name+"="+e.value)
		}
	}
	for _, a := range actual {
		if v, ok := lookup(expected, a.name); !ok || v != a.value {
			unrecognized = append(unrecognized, a.name)
		}
	}
	var diffs []string
	if len(missing) > 0 {
		diffs = append(diffs, "missing required parameters: "+strings.Join(missing, ", "))
	}
	if len(unrecognized) > 0 {
		diffs = append(diffs, "unrecognized parameters: "+strings.Join(unrecognized, ", "))
	}
	return strings.Join(diffs, "; ")
}
