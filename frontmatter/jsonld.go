package frontmatter

import (
	"bytes"
	"encoding/json"
	"strings"
)

// maxJSONLDNodes bounds how many JSON-LD objects are examined per page.
const maxJSONLDNodes = 256

// ldNode is one JSON-LD object.
type ldNode map[string]any

// identityTypes are the schema.org types that say who publishes the site,
// not what the page is about (STANDARD.md §5 rule 8): their dates and
// authors are never read as the page's.
var identityTypes = map[string]bool{
	"Organization": true, "Corporation": true, "LocalBusiness": true,
	"NGO": true, "Person": true, "WebSite": true, "BreadcrumbList": true,
	"ImageObject": true, "SiteNavigationElement": true,
}

// cleanJSONLD strips the wrappers pages put around JSON-LD (HTML comments,
// CDATA markers) and returns the JSON text, or nil when it is not valid JSON.
func cleanJSONLD(raw string) []byte {
	b := bytes.TrimSpace([]byte(raw))
	for _, w := range [][2]string{{"<!--", "-->"}, {"<![CDATA[", "]]>"}, {"//<![CDATA[", "//]]>"}} {
		if bytes.HasPrefix(b, []byte(w[0])) && bytes.HasSuffix(b, []byte(w[1])) {
			b = bytes.TrimSpace(b[len(w[0]) : len(b)-len(w[1])])
		}
	}
	if len(b) == 0 || !json.Valid(b) {
		return nil
	}
	return b
}

// parseJSONLD decodes each valid block and flattens arrays and @graph lists
// into one list of objects, in document order.
func parseJSONLD(blocks []string) (nodes []ldNode, valid [][]byte) {
	for _, raw := range blocks {
		b := cleanJSONLD(raw)
		if b == nil {
			continue
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			continue
		}
		valid = append(valid, b)
		nodes = flatten(v, nodes, 0)
	}
	return nodes, valid
}

// maxLDDepth bounds how deep nested JSON-LD lists are followed.
const maxLDDepth = 8

func flatten(v any, out []ldNode, depth int) []ldNode {
	if len(out) >= maxJSONLDNodes || depth > maxLDDepth {
		return out
	}
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			out = flatten(e, out, depth+1)
		}
	case map[string]any:
		out = append(out, ldNode(t))
		if g, ok := t["@graph"]; ok {
			out = flatten(g, out, depth+1)
		}
	}
	return out
}

// types returns the node's @type values.
func (n ldNode) types() []string {
	switch t := n["@type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// is reports whether the node has one of the given types (schema.org URL
// prefixes ignored).
func (n ldNode) is(set map[string]bool) bool {
	for _, t := range n.types() {
		if set[SchemaName(t)] {
			return true
		}
	}
	return false
}

// SchemaName is a schema.org type (a JSON-LD @type, a microdata itemtype)
// less its URL prefix and surrounding spaces: "https://schema.org/Article"
// is "Article".
func SchemaName(t string) string {
	t = strings.TrimSpace(t)
	return strings.TrimPrefix(strings.TrimPrefix(t, "https://schema.org/"), "http://schema.org/")
}

// DeclaresType reports whether one of the JSON-LD blocks (as
// ExtractWithJSONLD returns them) holds an object of one of types
// (schema.org names), at its top level, in a list or in a @graph, as the
// front matter reads them.
func DeclaresType(blocks [][]byte, types map[string]bool) bool {
	for _, b := range blocks {
		var v any
		if json.Unmarshal(b, &v) != nil {
			continue
		}
		for _, n := range flatten(v, nil, 0) {
			if n.is(types) {
				return true
			}
		}
	}
	return false
}

// str returns the node's key as a trimmed string when it is one.
func (n ldNode) str(key string) string {
	s, _ := n[key].(string)
	return clip(collapse(s))
}

// ldFacts are the values front matter takes from JSON-LD.
type ldFacts struct {
	headline, description, modified, published, author, image, siteName string
}

// ldExtract reads the facts from the content nodes (never the identity
// nodes) and the site name from the WebSite node or the publisher.
func ldExtract(nodes []ldNode) ldFacts {
	var f ldFacts
	set := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	for _, n := range nodes {
		if n.is(map[string]bool{"WebSite": true}) {
			set(&f.siteName, n.str("name"))
		}
		if n.is(identityTypes) {
			continue
		}
		set(&f.headline, n.str("headline"))
		set(&f.description, n.str("description"))
		set(&f.modified, n.str("dateModified"))
		set(&f.published, n.str("datePublished"))
		set(&f.author, names(n["author"]))
		set(&f.image, imageURL(n["image"], 0))
		if p, ok := n["publisher"].(map[string]any); ok {
			set(&f.siteName, ldNode(p).str("name"))
		}
	}
	return f
}

// names returns the author names in v (a string, an object with a name, or
// a list of those), joined with ", ".
func names(v any) string {
	var out []string
	var add func(any, int)
	add = func(v any, depth int) {
		if depth > 2 || len(out) >= 10 {
			return
		}
		switch t := v.(type) {
		case string:
			if s := collapse(t); s != "" && !strings.Contains(s, "://") {
				out = append(out, s)
			}
		case map[string]any:
			add(t["name"], depth+1)
		case []any:
			for _, e := range t {
				add(e, depth+1)
			}
		}
	}
	add(v, 0)
	return clip(strings.Join(out, ", "))
}

// imageURL returns the first image URL in v (a string, an ImageObject, or a
// list of those).
func imageURL(v any, depth int) string {
	if depth > maxLDDepth {
		return ""
	}
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case map[string]any:
		if s, ok := t["url"].(string); ok {
			return strings.TrimSpace(s)
		}
		if s, ok := t["contentUrl"].(string); ok {
			return strings.TrimSpace(s)
		}
	case []any:
		for _, e := range t {
			if s := imageURL(e, depth+1); s != "" {
				return s
			}
		}
	}
	return ""
}
