package negotiate

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// injectionCases are requests that differ from one another in one thing
// an injection with the head link is built from: the Inject hook's answer
// (by its Key, nil, or without a Key), the path, its escaped form, the
// query, a client URL other than the request's, the page that is a
// directory's index or the root (the suffix's place in the link).
var injectionCases = []struct {
	name, target, hook, client string
}{
	{"hook a", "/p", "a", ""},
	{"hook b", "/p", "b", ""},
	{"hook nil", "/p", "nil", ""},
	{"hook without a key", "/p", "unkeyed", ""},
	{"hook without a key, other content", "/p", "unkeyed2", ""},
	{"hook a, same content as b, other key", "/p", "a2", ""},
	{"other path", "/q", "a", ""},
	{"directory", "/p/", "a", ""},
	{"root", "/", "a", ""},
	{"escaped slash", "/a%2Fb", "a", ""},
	{"plain slash", "/a/b", "a", ""},
	{"escaped letter", "/%61/b", "a", ""},
	{"markup in the path", "/%22%3E%3Cx", "a", ""},
	{"query", "/p?x=1", "a", ""},
	{"other query", "/p?x=2", "a", ""},
	{"empty query", "/p?", "a", ""},
	{"client URL", "/index.php", "a", "/p?x=1"},
	{"other client URL", "/index.php", "a", "/q"},
	{"client URL escaped", "/index.php", "a", "/a%2Fb"},
}

// injectionHook answers by the request's X-Hook header, as documents'
// hook answers by the request's origin and address: each answer with a
// Key is the only one with it.
func injectionHook(r *http.Request) *Injection {
	head := func(s string) []HeadElement { return []HeadElement{{HTML: `<meta name="` + s + `">`}} }
	switch v := r.Header.Get("X-Hook"); v {
	case "a", "b":
		return &Injection{Lang: "en", Head: head(v), Key: v}
	case "a2":
		return &Injection{Lang: "en", Head: head("b"), Key: "a2"}
	case "unkeyed", "unkeyed2":
		return &Injection{Head: head(v)}
	}
	return nil
}

// injectionClientURL is the X-Client header's URL when there is one.
func injectionClientURL(r *http.Request) *url.URL {
	if c := r.Header.Get("X-Client"); c != "" {
		u, _ := url.Parse(c)
		return u
	}
	return nil
}

// serveInjected serves the case's request through h from an origin that
// names the page (a strong ETag, a length), and returns what the client
// got.
func serveInjected(t *testing.T, h *Handler, target, hook, client string) string {
	t.Helper()
	page := "<!DOCTYPE html><html><head><title>t</title></head><body><p>x</p></body></html>"
	next := func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(page)))
		w.Header().Set("Etag", `"v1"`)
		_, err := w.Write([]byte(page))
		return err
	}
	r := httptest.NewRequest(http.MethodGet, target, nil)
	r.Header.Set("Accept", acceptChrome)
	r.Header.Set("X-Hook", hook)
	if client != "" {
		r.Header.Set("X-Client", client)
	}
	w := httptest.NewRecorder()
	if err := h.ServeHTTP(w, r, next); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d %v %v\n%s", w.Code, w.Header()["Etag"], w.Header()["Content-Length"], w.Body.String())
}

// Each page gets the injection built for it, whatever was built and kept
// for the pages before it: through a handler that keeps injections (and
// plans), every case answers as it does through one that keeps nothing,
// first and again, in one order and the other. A key that left out
// something the injection is built from would give one of these cases the
// injection of another.
func TestInjectionCacheKey(t *testing.T) {
	handler := func(rewriteCache int64) *Handler {
		h := &Handler{Convert: fixedConvert, Inject: injectionHook, ClientURL: injectionClientURL}
		h.Options.RewriteCache = rewriteCache
		if err := h.Provision(); err != nil {
			t.Fatal(err)
		}
		return h
	}
	fresh := handler(-1)
	if fresh.injections != nil {
		t.Fatal("a handler without rewrite plans keeps injections")
	}
	want := map[string]string{}
	for _, tc := range injectionCases {
		want[tc.name] = serveInjected(t, fresh, tc.target, tc.hook, tc.client)
	}
	if want["hook a"] == want["hook b"] || want["query"] == want["other query"] || want["escaped slash"] == want["plain slash"] {
		t.Fatal("the cases do not differ in what they get: the test cannot fail")
	}
	kept := handler(DefaultRewriteCache)
	order := append(append(injectionCases[:0:0], injectionCases...), injectionCases...)
	for i := len(injectionCases) - 1; i >= 0; i-- {
		order = append(order, injectionCases[i])
	}
	for i, tc := range order {
		if got := serveInjected(t, kept, tc.target, tc.hook, tc.client); got != want[tc.name] {
			t.Errorf("request %d, %s: got\n%s\nwant\n%s", i, tc.name, got, want[tc.name])
		}
	}
	// Every keyed page is kept once, the unkeyed answers never: of the 19
	// cases, the two without a Key, the empty query (the page without
	// one) and the three client URLs that are other cases' addresses are
	// not kept again.
	if n, want := kept.injections.Len(), len(injectionCases)-6; n != want {
		t.Errorf("%d injections kept, want %d", n, want)
	}
}

// The kept injections stay within their bound, dropping the least
// recently used.
func TestInjectionCacheBound(t *testing.T) {
	h := &Handler{Convert: fixedConvert, Inject: injectionHook}
	h.Options.RewriteCache = 8 * injectionCost * 10 // an eighth: ten entries at most
	if err := h.Provision(); err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		serveInjected(t, h, "/p"+strconv.Itoa(i), "a", "")
	}
	if n := h.injections.Len(); n == 0 || n >= 10 {
		t.Errorf("%d injections kept, want 1 to 9", n)
	}
}

// TestInjectionCacheCountsHookStrings: a kept injection holds the Inject
// hook's strings (documents' template of an origin, its JSON-LD), and
// keeps them alive after the hook has dropped them: they count towards
// the cache's bound. Counted as the page's own link only, 5,000 origins
// with a 4 KiB template each kept about ten times the bound.
func TestInjectionCacheCountsHookStrings(t *testing.T) {
	const jsonld = 4 << 10
	hook := func(r *http.Request) *Injection { // a template per origin, as documents' bundles
		return &Injection{Head: []HeadElement{{HTML: "<script>" + r.Host + strings.Repeat("x", jsonld) + "</script>"}}, Key: "t" + r.Host}
	}
	h := &Handler{Convert: fixedConvert, Inject: hook}
	if err := h.Provision(); err != nil {
		t.Fatal(err)
	}
	h.plans, h.encoded = nil, nil // only the injection cache keeps anything
	next := func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, err := w.Write([]byte("<!DOCTYPE html><html><head><title>t</title></head><body><p>x</p></body></html>"))
		return err
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	for i := range 5000 {
		_ = h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "http://a.example:"+strconv.Itoa(1000+i)+"/p", nil), next)
	}
	if held, bound := heap()-before, uint64(h.injections.MaxCost()); held > 2*bound {
		t.Errorf("the injection cache holds %d KiB, over twice its bound of %d KiB", held>>10, bound>>10)
	}
	runtime.KeepAlive(h)
}
