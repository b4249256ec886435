package selfcheck

import (
	"net/url"
	"strings"
	"testing"
)

func TestRobotsAllowed(t *testing.T) {
	const robots = `# comment
User-agent: GPTBot
User-agent: CCBot
Disallow: /

User-agent: OAI-SearchBot
Disallow: /private
Allow: /private/open$

user-agent: *
Disallow: /*.pdf$
Disallow: /tmp/
Allow: /tmp/ok
Disallow:

Sitemap: https://a.test/sitemap.xml
Content-Signal: search=yes, ai-train=no
`
	r := Robots([]byte(robots))
	tests := []struct {
		agent, path string
		want        bool
	}{
		{"GPTBot", "/", false},
		{"gptbot", "/x", false},
		{"CCBot", "/x", false},
		{"OAI-SearchBot", "/private/x", false},
		{"OAI-SearchBot", "/private/open", true},
		{"OAI-SearchBot", "/private/open/more", false},
		{"OAI-SearchBot", "/a.pdf", true}, // its own group replaces *
		{"Claude-User", "/a.pdf", false},
		{"Claude-User", "/a.pdf?x=1", true},
		{"Claude-User", "/tmp/x", false},
		{"Claude-User", "/tmp/ok/1", true},
		{"Claude-User", "/", true},
	}
	for _, tc := range tests {
		if got := r.Allowed(tc.agent, tc.path); got != tc.want {
			t.Errorf("allowed(%s, %s) = %v, want %v", tc.agent, tc.path, got, tc.want)
		}
	}
	if len(r.Sitemaps) != 1 || len(r.ContentSignals) != 1 {
		t.Errorf("sitemaps %v signals %v", r.Sitemaps, r.ContentSignals)
	}
	var nilRobots *RobotsTxt
	if !nilRobots.Allowed("x", "/") {
		t.Error("no robots.txt must allow everything")
	}
}

func TestParseLinkHeader(t *testing.T) {
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

func TestParseJSONLD(t *testing.T) {
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

func TestParseHTMLFacts(t *testing.T) {
	base, _ := url.Parse("https://a.test/p")
	f := HTML([]byte(`<!doctype html><html lang="fr-CA"><head><title>T  x</title>
<link rel="canonical" href="/p"><link rel="alternate" type="text/markdown" href="/p.md">
<script type="application/ld+json">{"@type":"Thing"}</script>
<script>document.modelContext.registerTool({})</script><style>body{}</style></head>
<body><nav hidden>hidden words here</nav><main role="main"><p>one two three</p>
<form id="f" toolname="do_it" tooldescription="Does it well."><label>Name <input name="n" toolparamdescription="d"></label>
<input type="hidden" name="csrf"><select id="s" name="s"></select><label for="s">S</label><textarea name="t"></textarea><button>Go</button></form>
<input type="search" name="q"><a href="mailto:x@a.test">m</a><a href="/contact">c</a></main>
<template><form><input name="x"></form></template></body></html>`), base)
	checks := []struct {
		name string
		ok   bool
	}{
		{"lang", f.Lang == "fr-CA"},
		{"title", f.Title == "T x"},
		{"links", len(f.Links) == 2 && f.Links[0].Target == "https://a.test/p" && f.Links[1].Type == "text/markdown"},
		{"jsonld", len(f.JSONLD) == 1},
		{"register", f.Register && !f.Navigator},
		{"text excludes hidden, script and style", f.TextWords == 8 && f.TextChars == 22},
		{"main", f.HasMain && f.MainChars > 0},
		{"forms", len(f.Forms) == 2 && f.Forms[0].ToolName == "do_it" && !f.Forms[0].Hidden && f.Forms[1].Hidden},
		{"fields", len(f.Forms[0].Fields) == 3 && f.Forms[0].Fields[0].Labelled && f.Forms[0].Fields[1].Labelled && !f.Forms[0].Fields[2].Labelled},
		{"param descriptions", f.Forms[0].Fields[0].ParamDesc && !f.Forms[0].Fields[1].ParamDesc},
		{"search surface", len(f.Surfaces) == 1 && !f.Surfaces[0].Annotated},
		{"mailto and contact", len(f.Mailto) == 1 && len(f.Contact) == 1 && f.Contact[0] == "https://a.test/contact"},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: facts %+v", c.name, f)
		}
	}
}

func TestParseHTMLFactsHostile(t *testing.T) {
	for name, in := range map[string]string{
		"deep":      strings.Repeat("<div>", 200000),
		"unclosed":  "<html lang='en'><head><title>x",
		"nul bytes": "<html\x00 lang=\x00>\x00<form toolname=\x00>",
		"binary":    "\xff\xfe\x00\x01<<<>>>",
		"no head":   "<body><main>words</main>",
	} {
		f := HTML([]byte(in), nil)
		if f == nil {
			t.Errorf("%s: nil facts", name)
		}
	}
	if f := HTML([]byte("<head><title>t</title><body><main>visible words</main>"), nil); f.TextWords != 2 {
		t.Errorf("body after an unclosed head: %d words, want 2", f.TextWords)
	}
}
