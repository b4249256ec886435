package parse

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// JSON-LD limits: nodes collected per page and nesting depth walked.
const (
	jsonldMaxNodes = 1000
	jsonldMaxDepth = 32
)

// LDNode is one JSON-LD node with its types and properties.
type LDNode struct {
	Types []string
	Props map[string]any
}

// Has reports whether the node has a non-empty property.
func (n LDNode) Has(prop string) bool {
	v, ok := n.Props[prop]
	if !ok || v == nil {
		return false
	}
	if s, ok := v.(string); ok {
		return strings.TrimSpace(s) != ""
	}
	return true
}

// Is reports whether the node has one of the given types (with or without a
// schema.org prefix).
func (n LDNode) Is(types ...string) bool {
	for _, t := range n.Types {
		t = strings.TrimPrefix(strings.TrimPrefix(t, "https://schema.org/"), "http://schema.org/")
		t = strings.TrimPrefix(t, "schema:")
		for _, want := range types {
			if strings.EqualFold(t, want) {
				return true
			}
		}
	}
	return false
}

// LD is the JSON-LD of a page: its nodes and the blocks that failed to
// parse.
type LD struct {
	Blocks int
	Bad    int
	Nodes  []LDNode
}

// JSONLD parses every ld+json block; nodes nested in properties,
// arrays and @graph are flattened. A block that fails to parse is counted,
// not fatal. encoding/json bounds its own nesting depth.
func JSONLD(blocks [][]byte) LD {
	var d LD
	for _, b := range blocks {
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		d.Blocks++
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			d.Bad++
			continue
		}
		d.walk(v, 0)
	}
	return d
}

// walk collects nodes from v.
func (d *LD) walk(v any, depth int) {
	if depth > jsonldMaxDepth || len(d.Nodes) >= jsonldMaxNodes {
		return
	}
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			d.walk(e, depth+1)
		}
	case map[string]any:
		if types := ldTypes(t["@type"]); len(types) > 0 {
			d.Nodes = append(d.Nodes, LDNode{Types: types, Props: t})
		}
		// Walk properties in key order so reports are deterministic.
		for _, k := range slices.Sorted(maps.Keys(t)) {
			if k != "@context" {
				d.walk(t[k], depth+1)
			}
		}
	}
}

// ldTypes reads @type as a string or an array of strings.
func ldTypes(v any) []string {
	switch t := v.(type) {
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
