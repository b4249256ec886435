package documents

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/manifest"
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
