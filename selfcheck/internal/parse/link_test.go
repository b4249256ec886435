package parse

import (
	"net/url"
	"testing"
)

func TestLinkHeader(t *testing.T) {
	base, _ := url.Parse("https://a.test/docs/page")
	links := LinkHeader([]string{
		`</llms.txt>; rel="describedby"; type="text/plain", <agents.json>; rel=alternate; type="application/json"`,
		`<https://a.test/docs/page.md>; rel="alternate nofollow"; type="text/markdown"; title="a, b; c"`,
		`garbage, <broken`,
		`<https://a.test/c>; rel="canonical"`,
	}, base)
	want := []struct{ target, rel, typ string }{
		{"https://a.test/llms.txt", "describedby", "text/plain"},
		{"https://a.test/docs/agents.json", "alternate", "application/json"},
		{"https://a.test/docs/page.md", "alternate", "text/markdown"},
		{"https://a.test/c", "canonical", ""},
	}
	if len(links) != len(want) {
		t.Fatalf("%d links %+v, want %d", len(links), links, len(want))
	}
	for i, w := range want {
		l := links[i]
		if l.Target != w.target || !l.HasRel(w.rel) || l.Type != w.typ {
			t.Errorf("link %d = %+v, want %+v", i, l, w)
		}
	}
}

func FuzzLinkHeader(f *testing.F) {
	f.Add(`</a>; rel="alternate"; type="text/markdown", <b>; rel=describedby`)
	f.Add(`<x>; title="a\"b,c"; rel="a b c"`)
	base, _ := url.Parse("https://a.test/p/q")
	f.Fuzz(func(t *testing.T, s string) {
		if links := LinkHeader([]string{s}, base); len(links) > linkMaxValues {
			t.Fatalf("%d links over the cap", len(links))
		}
	})
}
