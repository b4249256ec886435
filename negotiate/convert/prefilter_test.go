package convert

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

func TestNeeds(t *testing.T) {
	for _, c := range []struct {
		sel  string
		want requirement
	}{
		{"nav", requirement{tag: "nav"}},
		{"NAV", requirement{tag: "nav"}},
		{"footer:not(blockquote footer)", requirement{tag: "footer"}},
		{"aside:not([role=note]):not([class*=footnote]):not(.admonition):not(:has(pre))", requirement{tag: "aside"}},
		{"[role=navigation]", requirement{attr: "role", val: "navigation"}},
		{"[aria-hidden=true]", requirement{attr: "aria-hidden", val: "true"}},
		{"[hidden]", requirement{attr: "hidden"}},
		{`[style*="display:none"]`, requirement{attr: "style", val: "display:none"}},
		{`[style*='display: none' ]`, requirement{attr: "style", val: "display: none"}},
		{"[ID ^= div-gpt-ad]", requirement{attr: "id", val: "div-gpt-ad"}},
		{"[class~=x]", requirement{attr: "class", val: "x"}},
		{"[class$=end]", requirement{attr: "class", val: "end"}},
		{"[title=x i]", requirement{attr: "title"}},
		{`[title="X" i]`, requirement{attr: "title"}},
		{`[title=""]`, requirement{attr: "title"}},
		{"#comments", requirement{attr: "id", val: "comments"}},
		{".cc-window", requirement{attr: "class", val: "cc-window"}},
		{".café", requirement{attr: "class", val: "caf"}},
		{"a.skip-link", requirement{tag: "a", attr: "class", val: "skip-link"}},
		{`a[href="#main"]`, requirement{tag: "a", attr: "href", val: "#main"}},
		{"div > p.x", requirement{tag: "p", attr: "class", val: "x"}},
		{"div .x", requirement{attr: "class", val: "x"}},
		{"ul ~ li", requirement{tag: "li"}},
		{"h1 + [data-x]", requirement{attr: "data-x"}},
		{wpPostMeta(".wp-block-group"), requirement{attr: "class", val: "wp-block-group"}},
		{"p:nth-child(2n+1)", requirement{tag: "p"}},
		// nothing stated: always asked
		{"*", requirement{}},
		{":not(.a)", requirement{}},
		{":has(.a)", requirement{}},
		{"[title!=x]", requirement{}},
		{`[title!="a.b"]`, requirement{}},
		{`:contains("a.b")`, requirement{}},
		{"nav, .menu", requirement{}},
		{`.a\:b`, requirement{}},
		{"svg|a", requirement{}},
		{"[lang|=en]", requirement{}}, // any | reads as a namespace
		{"[title#=(a|b)]", requirement{}},
		{"navé", requirement{}},
	} {
		if got := needs(c.sel); got != c.want {
			t.Errorf("needs(%q) = %+v, want %+v", c.sel, got, c.want)
		}
	}
}

// prefilterSelectors are the default prune list and selectors that try
// the reader's edges.
func prefilterSelectors() []string {
	return append(DefaultPrune(),
		"*", "div", "p", "a", "span.pre", "[class]", "[class~=highlight]", "[id]", "[href^=http]",
		"[title!=x]", ":not(.a)", "li:has(a)", "div > p", "ul li", "h1 ~ p", "h2 + p", ".section",
		"[lang|=en]", `[class*="a.b"]`, "td:first-child", "*:not(div)", "svg", "path", "[viewbox]",
		"[class=pre]", "[class=PRE i]", "[class~=reference]", "[class$=internal]", "[class^=ref]", "[title#=(a|b)]",
		`[href=""]`, ".highlight", "#module-os", "[lang|=en-GB]", "[role=note i]",
		":contains(\"Python\")", "body", ":root")
}

// TestSelectorSetMatchesGroup holds the pre-filtered set to the cascadia
// group it replaces, selector by selector and as a whole, on every element
// of every HTML file under testdata.
func TestSelectorSetMatchesGroup(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.html"))
	if len(files) == 0 {
		t.Fatal("no HTML under testdata")
	}
	var sels []namedSel
	for _, s := range prefilterSelectors() {
		sel, err := cascadia.Parse(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		sels = append(sels, namedSel{s, sel})
	}
	whole, g := newSelectorSet(sels), group(sels)
	elements, matched := 0, 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := html.Parse(strings.NewReader(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range cascadia.QueryAll(doc, cascadia.MustCompile("*")) {
			elements++
			if got, want := whole.Match(n), g.Match(n); got != want {
				t.Errorf("%s <%s %v>: set %v, group %v", f, n.Data, n.Attr, got, want)
			}
			for i, s := range sels {
				one := newSelectorSet(sels[i : i+1])
				got, want := one.Match(n), s.sel.Match(n)
				if got != want {
					t.Errorf("%s <%s %v>: %q: set %v, selector %v", f, n.Data, n.Attr, s.text, got, want)
				}
				if want {
					matched++
				}
			}
		}
	}
	if matched == 0 {
		t.Fatal("no selector matched anything: the test proves nothing")
	}
	t.Logf("%d elements, %d matches", elements, matched)
}

// FuzzSelectorSet holds a pre-filtered selector to cascadia's own match on
// a page that has the attributes and structures the reader looks at.
func FuzzSelectorSet(f *testing.F) {
	for _, s := range prefilterSelectors() {
		f.Add(s)
	}
	doc, err := html.Parse(strings.NewReader(`<html><body><nav class="a b" id=n><ul><li><a href="#main" class="skip-link">x</a></ul></nav>
<main role=main><article><p style="display:none" title="a.b">t</p><div data-x="1" aria-hidden=true hidden><pre>c</pre></div>
<aside role=note class="footnote x">n</aside><footer>f</footer><blockquote><footer>q</footer></blockquote>
<svg viewBox="0 0 1 1"><path d="M0"/></svg><span class=pre lang=en-GB>s</span></article></main></body></html>`))
	if err != nil {
		f.Fatal(err)
	}
	all := cascadia.QueryAll(doc, cascadia.MustCompile("*"))
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := cascadia.Parse(s)
		if err != nil {
			return
		}
		set := newSelectorSet([]namedSel{{s, sel}})
		for _, n := range all {
			if got, want := set.Match(n), sel.Match(n); got != want {
				t.Fatalf("%q on <%s %v>: set %v, selector %v (needs %+v)", s, n.Data, n.Attr, got, want, needs(s))
			}
		}
	})
}

// countingSel counts the elements a selector is asked about.
type countingSel struct {
	cascadia.Sel
	asked *int
}

func (c countingSel) Match(n *html.Node) bool { *c.asked++; return c.Sel.Match(n) }

// TestSelectorSetAsksFew holds the work the pre-filter saves: on the docs
// golden page, with the default prune list, cascadia is asked about a
// small share of the element × selector pairs a group would ask about.
func TestSelectorSetAsksFew(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "golden", "docs-blocks.html"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	var sels []namedSel
	for _, s := range DefaultPrune() {
		sel, err := cascadia.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		sels = append(sels, namedSel{s, countingSel{sel, &asked}})
	}
	set := newSelectorSet(sels)
	elements := cascadia.QueryAll(doc, cascadia.MustCompile("*"))
	for _, n := range elements {
		set.Match(n)
	}
	pairs := len(elements) * len(sels)
	t.Logf("%d elements × %d selectors = %d pairs, %d asked", len(elements), len(sels), pairs, asked)
	if asked*10 > pairs {
		t.Errorf("cascadia asked about %d of %d element × selector pairs, want under a tenth", asked, pairs)
	}
}
