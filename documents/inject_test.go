package documents

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/manifest"
	"github.com/agentready/caddy-agentready/negotiate"
)

// TestInjection: a page gains the site's annotations and its canonical
// link, the path the client asked for on the canonical origin; each
// canonical gives its own plan key.
func TestInjection(t *testing.T) {
	site, err := manifest.Parse([]byte("site:\n  name: Acme\n  origin: https://acme.example\n  language: en\n"), "site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	asked := map[*http.Request]*url.URL{}
	s, err := New(site, Options{ClientURL: func(r *http.Request) *url.URL { return asked[r] }})
	if err != nil {
		t.Fatal(err)
	}
	rewritten := httptest.NewRequest("GET", "http://acme.example/index.php?p=1", nil)
	asked[rewritten], _ = url.Parse("/a%20page")
	inj := s.Injection(rewritten)
	if inj == nil || inj.Lang != "en" || len(inj.Head) == 0 {
		t.Fatalf("injection = %+v", inj)
	}
	if got := inj.Head[0].HTML; got != `<link rel="canonical" href="https://acme.example/a%20page">` {
		t.Errorf("canonical = %s", got)
	}
	other := httptest.NewRequest("GET", "http://acme.example/b", nil)
	asked[other], _ = url.Parse("/b")
	if o := s.Injection(other); o.Key == inj.Key || !strings.Contains(o.Head[0].HTML, `href="https://acme.example/b"`) {
		t.Errorf("two pages share a plan key or a canonical: %q %q", o.Key, o.Head[0].HTML)
	}
	// Where the client's URL is not known, or has a query, no canonical is
	// guessed.
	query := httptest.NewRequest("GET", "http://acme.example/search?q=x", nil)
	asked[query] = query.URL
	for _, r := range []*http.Request{httptest.NewRequest("GET", "http://acme.example/c", nil), query} {
		if o := s.Injection(r); strings.Contains(o.Head[0].HTML, "canonical") {
			t.Errorf("%s: a canonical where the public URL is not known: %s", r.URL, o.Head[0].HTML)
		}
	}
}

// TestTemplateKeyStable: a bundle generated again with the same
// annotations keeps its Key (so the rewrite plans still apply), and a
// change in what is injected changes it.
func TestTemplateKeyStable(t *testing.T) {
	mi := manifest.Injection{Lang: "en", JSONLD: `<script type="application/ld+json">{}</script>`,
		Forms: []manifest.FormAnnotation{{Selector: "form#q", ToolName: "search", Params: map[string]string{"q": "query", "n": "count"}}}}
	a, b := injectionTemplate(mi), injectionTemplate(mi)
	if a.Key == "" || a.Key != b.Key {
		t.Fatalf("keys of the same template: %q, %q", a.Key, b.Key)
	}
	mi.Forms[0].Params["n"] = "how many"
	if c := injectionTemplate(mi); c.Key == a.Key {
		t.Errorf("a changed form annotation kept the key %q", c.Key)
	}
	mi.Lang = "fr"
	if c := injectionTemplate(mi); c.Key == a.Key {
		t.Errorf("a changed lang kept the key %q", c.Key)
	}
}

// TestInjectionKeptPerPage: each page gets the injection built for it,
// whatever was built and kept for the pages before it. Requests that
// differ in one thing the injection is built from (the origin they were
// addressed to, its scheme, the path, its escaped form, a query, a client
// URL that is not known) are asked of one set in one order and the other,
// twice each, and get what a set that has kept nothing gives them.
func TestInjectionKeptPerPage(t *testing.T) {
	site, err := manifest.Parse([]byte("site:\n  name: Acme\n  language: en\n"), "site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	type request struct{ target, client string }
	cases := []request{
		{"http://a.example/p", "/p"},
		{"http://b.example/p", "/p"},
		{"https://a.example/p", "/p"},
		{"http://a.example:8080/p", "/p"},
		{"http://a.example/x", "/q"},
		{"http://a.example/x", "/a%2Fb"},
		{"http://a.example/x", "/a/b"},
		{"http://a.example/x", "/%61/b"},
		{"http://a.example/x", "/a%20page"},
		{"http://a.example/x", "/%22%3E%3Cx"},
		{"http://a.example/x", "/p?x=1"},
		{"http://a.example/x", "/p?"},
		{"http://a.example/x", ""},
	}
	newSet := func() *Set {
		s, err := New(site, Options{ClientURL: func(r *http.Request) *url.URL {
			if c := r.Header.Get("X-Client"); c != "" {
				u, _ := url.Parse(c)
				return u
			}
			return nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ask := func(s *Set, c request) *negotiate.Injection {
		r := httptest.NewRequest("GET", c.target, nil)
		r.Header.Set("X-Client", c.client)
		return s.Injection(r)
	}
	want := make([]*negotiate.Injection, len(cases))
	for i, c := range cases {
		want[i] = ask(newSet(), c)
	}
	if reflect.DeepEqual(want[0], want[1]) || reflect.DeepEqual(want[5], want[6]) {
		t.Fatal("the cases do not differ in what they get: the test cannot fail")
	}
	kept := newSet()
	var order []int
	for i := range cases {
		order = append(order, i)
	}
	for i := range cases {
		order = append(order, len(cases)-1-i, i)
	}
	for _, i := range order {
		if got := ask(kept, cases[i]); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("%s as %q: got %+v, want %+v", cases[i].target, cases[i].client, got, want[i])
		}
	}
	n := 0
	for _, b := range kept.bundles {
		n += b.pages.Len()
	}
	if n != 10 { // the four origins' /p, and six other paths of http://a.example
		t.Errorf("%d injections kept, want 10", n)
	}
}

// A bundle keeps the injections of its pages within maxPageInjections,
// dropping the least recently used.
func TestInjectionKeptWithinBound(t *testing.T) {
	site, err := manifest.Parse([]byte("site:\n  name: Acme\n  origin: https://acme.example\n"), "site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(site, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const pages = maxPageInjections / pageInjectionCost // more than fit
	for i := range pages {
		s.Injection(httptest.NewRequest("GET", "http://acme.example/page/"+strconv.Itoa(i), nil))
	}
	b := s.bundleFor(httptest.NewRequest("GET", "http://acme.example/", nil))
	if n := b.pages.Len(); n == 0 || n >= pages || b.pages.Cost() > maxPageInjections {
		t.Errorf("%d injections kept at a cost of %d, want fewer than %d within %d", n, b.pages.Cost(), pages, maxPageInjections)
	}
}
