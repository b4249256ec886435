package parse

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHTML(t *testing.T) {
	base, _ := url.Parse("https://a.test/p")
	f := HTML([]byte(`<!doctype html><html lang="fr-CA"><head><title>T  x</title>
<link rel="canonical" href="/p"><link rel="alternate" type="text/markdown" href="/p.md">
<script type="application/ld+json">{"@type":"Thing"}</script>
<script>document.modelContext.registerTool({})</script><style>body{}</style></head>
<body><nav hidden>hidden words here</nav><main role="main"><p>one two three</p>
<form id="f" toolname="do_it" tooldescription="Does it well."><label>Name <input name="n" toolparamdescription="d"></label>
<input type="hidden" name="csrf"><select id="s" name="s"></select><label for="s">S</label><textarea name="t"></textarea><button>Go</button></form>
<input type="search" name="q"><a href="mailto:x@a.test">m</a><a href="/contact">c</a></main>
<template><form><input name="x"></form></template>
<form method="POST" action="/order"><input name="qty"></form><h2>Install</h2><h3 hidden>x</h3><pre><code class="language-sh">go get</code></pre></body></html>`), base)
	checks := []struct {
		name string
		ok   bool
	}{
		{"lang", f.Lang == "fr-CA"},
		{"title", f.Title == "T x"},
		{"links", len(f.Links) == 2 && f.Links[0].Target == "https://a.test/p" && f.Links[1].Type == "text/markdown"},
		{"jsonld", len(f.JSONLD) == 1},
		{"register", f.Register && !f.Navigator},
		{"text excludes hidden, script and style", f.TextWords == 11 && f.TextChars == 35},
		{"main", f.HasMain && f.MainChars > 0},
		{"forms", len(f.Forms) == 3 && f.Forms[0].ToolName == "do_it" && !f.Forms[0].Hidden && f.Forms[1].Hidden},
		{"form methods", f.Forms[0].Method == "get" && !f.Forms[0].Writes() && f.Forms[2].Method == "post" && f.Forms[2].Writes() && f.Forms[2].Action == "https://a.test/order"},
		{"anchors", len(f.Anchors) == 2 && f.Anchors[1] == "https://a.test/contact"},
		{"headings outside hidden content", f.Headings == 1},
		{"code language class", f.CodeLang},
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

func TestHTMLHostile(t *testing.T) {
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

func FuzzHTML(f *testing.F) {
	f.Add([]byte(`<html lang="en"><head><link rel="canonical" href="/"></head><body><main><form toolname="a"><label for="i">x</label><input id="i" name="n"></form></main></body></html>`))
	f.Add([]byte(`<template><form><div hidden><input type=search></div></form></template><script>navigator.modelContext</script>`))
	base, _ := url.Parse("https://a.test/")
	f.Fuzz(func(t *testing.T, b []byte) {
		p := HTML(b, base)
		if len(p.Forms) > htmlMaxForms {
			t.Fatalf("%d forms over the cap", len(p.Forms))
		}
	})
}

// BenchmarkHTML reads the facts of a 1 MiB page.
func BenchmarkHTML(b *testing.B) {
	page, err := os.ReadFile(filepath.Join("..", "..", "testdata", "site", "index.html"))
	if err != nil {
		b.Fatal(err)
	}
	for len(page) < 1<<20 {
		page = append(page, []byte(`<div class="card"><p>Some text about widgets and more widgets.</p><a href="/x">x</a></div>`)...)
	}
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		HTML(page, nil)
	}
}

// TestHTMLFormLabels: a form keeps the heading before it (or its
// aria-label) and each field its <label for> text, so a fix snippet can
// describe the form in the page's own words.
func TestHTMLFormLabels(t *testing.T) {
	p := HTML([]byte(`<h2>Old</h2><h2>Ask for a <em>quote</em></h2>
<form action="/q"><label for="m">Model number</label><input id="m" name="model"><input name="x"></form>
<form aria-label="Newsletter sign-up"><label for="e">Email</label><input id="e" name="email"></form>`), nil)
	if len(p.Forms) != 2 {
		t.Fatalf("%d forms", len(p.Forms))
	}
	if h := p.Forms[0].Heading; h != "Ask for a quote" {
		t.Errorf("heading %q", h)
	}
	if l := p.Forms[0].Fields[0].Label; l != "Model number" {
		t.Errorf("label %q", l)
	}
	if l := p.Forms[0].Fields[1].Label; l != "" {
		t.Errorf("unlabelled field got %q", l)
	}
	if h := p.Forms[1].Heading; h != "Newsletter sign-up" {
		t.Errorf("aria-label heading %q", h)
	}
}
