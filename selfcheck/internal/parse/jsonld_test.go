package parse

import (
	"strings"
	"testing"
)

func TestJSONLD(t *testing.T) {
	d := JSONLD([][]byte{
		[]byte(`{"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"A","url":"https://a.test"},{"@type":["WebPage","ItemPage"],"mainEntity":{"@type":"Product","name":"P"}}]}`),
		[]byte(`[{"@type":"schema:Person","name":"B"}]`),
		[]byte(`{broken`),
		[]byte("   "),
	})
	if d.Blocks != 3 || d.Bad != 1 {
		t.Errorf("blocks %d bad %d, want 3 and 1", d.Blocks, d.Bad)
	}
	var types []string
	for _, n := range d.Nodes {
		types = append(types, strings.Join(n.Types, "+"))
	}
	if got := strings.Join(types, ","); got != "Organization,WebPage+ItemPage,Product,schema:Person" {
		t.Errorf("nodes %s", got)
	}
	if !d.Nodes[3].Is("Person") || !d.Nodes[0].Has("url") || d.Nodes[2].Has("url") {
		t.Error("type or property lookup wrong")
	}
}

func FuzzJSONLD(f *testing.F) {
	f.Add([]byte(`{"@graph":[{"@type":"Organization","name":"a"}]}`))
	f.Add([]byte(`[[[[{"@type":["A","B"]}]]]]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if d := JSONLD([][]byte{b, b}); len(d.Nodes) > jsonldMaxNodes {
			t.Fatalf("%d nodes over the cap", len(d.Nodes))
		}
	})
}
