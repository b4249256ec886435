package negotiate

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentready/caddy-agentready/negotiate/htmlrewrite"
)

// namedOrigin serves one page with a strong entity tag and its length;
// the page's bytes are *page, which a test may change without changing the
// tag (an origin that breaks its promise).
func namedOrigin(page *atomic.Pointer[string], etag string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body := *page.Load()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Etag", etag)
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		if r.Method != http.MethodHead {
			fmt.Fprint(w, body)
		}
	}
}

// namedPage is a page of n bytes or a little more, with a form and a head.
func namedPage(n int, marker string) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><title>" + marker + "</title></head><body><main>")
	for b.Len() < n {
		b.WriteString("<p>Plans and prices for every team, billed monthly or yearly.</p>\n")
	}
	b.WriteString(`<form id="contact"><input name="email"></form></main></body></html>`)
	return b.String()
}

var namedInjection = func(*http.Request) *Injection {
	inj := *fullInjection
	inj.Key = "site"
	return &inj
}

// A page its origin names with a strong entity tag and its length is
// read once; from its second copy it streams through the plan, byte for
// byte as the first, with its exact Content-Length, small or large (a large
// page's first copy streams and has none). A HEAD gets the same length.
func TestHandlerNamedPagesStreamThroughTheirPlan(t *testing.T) {
	for _, size := range []int{1 << 10, 2 * maxPlannedPage} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			var page atomic.Pointer[string]
			body := namedPage(size, "A")
			page.Store(&body)
			s := newStack(t, stackConfig{opts: Options{HeadLink: Bool(false)}, origin: namedOrigin(&page, `"v1"`), inject: namedInjection})
			first := s.do(http.MethodGet, "/pricing", hdr("Accept", browserAccept))
			second := s.do(http.MethodGet, "/pricing", hdr("Accept", browserAccept))
			want := rewriteWhole([]byte(body), namedInjection(nil))
			if !bytes.Equal(first.body, want) || !bytes.Equal(second.body, want) {
				t.Fatalf("first %d bytes, second %d, want %d", len(first.body), len(second.body), len(want))
			}
			if wantFirst := int64(len(want)); size > maxPlannedPage {
				if first.length != -1 {
					t.Errorf("the first copy of a large page: length %d, want it streamed", first.length)
				}
			} else if first.length != wantFirst {
				t.Errorf("the first copy: length %d, want %d", first.length, wantFirst)
			}
			second.wantHeader(t, "Content-Length", fmt.Sprint(len(want)))
			second.wantHeader(t, "Etag", `W/"v1"`)
			ev := s.obs.list()
			slices.Sort(ev)
			if want := []string{"rewrote:plan=false", "rewrote:plan=true", "served:html", "served:html"}; !slices.Equal(ev, want) {
				t.Errorf("events %q, want %q", ev, want)
			}
			head := s.do(http.MethodHead, "/pricing", hdr("Accept", browserAccept))
			head.wantHeader(t, "Content-Length", fmt.Sprint(len(want)))
			if len(head.body) != 0 {
				t.Errorf("HEAD body: %d bytes", len(head.body))
			}
		})
	}
}

// An origin that changes a page's bytes but not its tag or length: the
// page goes out whole, the promised length made up with spaces at its end,
// the mismatch is reported and the plan dropped; the next copy is read
// again and annotated right.
func TestHandlerNamedPageChangedUnderItsName(t *testing.T) {
	for _, size := range []int{1 << 10, 2 * maxPlannedPage} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			var page atomic.Pointer[string]
			a := namedPage(size, "AAAA")
			page.Store(&a)
			s := newStack(t, stackConfig{opts: Options{HeadLink: Bool(false)}, origin: namedOrigin(&page, `"v1"`), inject: namedInjection})
			s.do(http.MethodGet, "/pricing", hdr("Accept", browserAccept))
			// The same length, the head's end two bytes later.
			b := strings.Replace(a, "<title>AAAA</title>", "<title>BBBBBB</title>", 1)
			b = strings.Replace(b, "<p>Plans and prices for every team, billed monthly or yearly.</p>\n", "<p>Plans and prices for every team, billed monthly or year.</p>\n", 1)
			if len(a) != len(b) {
				t.Fatalf("pages of %d and %d bytes", len(a), len(b))
			}
			page.Store(&b)
			got := s.do(http.MethodGet, "/pricing", hdr("Accept", browserAccept))
			planned := int64(len(rewriteWhole([]byte(a), namedInjection(nil))))
			if got.length != planned || int64(len(got.body)) != planned || got.bodyErr != nil {
				t.Fatalf("length %d, %d bytes (%v); the plan promised %d", got.length, len(got.body), got.bodyErr, planned)
			}
			trimmed := bytes.TrimRight(got.body, " ")
			if !bytes.Contains(trimmed, []byte("<title>BBBBBB</title>")) || !bytes.HasSuffix(trimmed, []byte(b[len(b)-200:])) {
				t.Fatalf("the changed page did not pass whole: %.300q … %.300q", got.body, got.body[max(0, len(got.body)-300):])
			}
			if ev := s.obs.list(); !slices.Contains(ev, "failopen:plan_mismatch") {
				t.Errorf("events %q: the mismatch is not reported", ev)
			}
			again := s.do(http.MethodGet, "/pricing", hdr("Accept", browserAccept))
			if want := rewriteWhole([]byte(b), namedInjection(nil)); !bytes.Equal(again.body, want) {
				t.Fatalf("the next copy: %.300q\nwant %.300q", again.body, want)
			}
		})
	}
}

// Pages their origin does not name (a weak tag, none) never stream
// through a plan: a large one is read every time.
func TestHandlerUnnamedPagesAreRead(t *testing.T) {
	body := namedPage(2*maxPlannedPage, "A")
	for name, origin := range map[string]http.HandlerFunc{
		"weak tag": htmlOrigin(body, "Etag", `W/"v1"`),
		"no tag":   htmlOrigin(body),
	} {
		t.Run(name, func(t *testing.T) {
			s := newStack(t, stackConfig{opts: Options{HeadLink: Bool(false)}, origin: origin, inject: namedInjection})
			want := rewriteWhole([]byte(body), namedInjection(nil))
			for range 2 {
				if res := s.do(http.MethodGet, "/pricing", hdr("Accept", browserAccept)); !bytes.Equal(res.body, want) {
					t.Fatalf("%d bytes, want %d", len(res.body), len(want))
				}
			}
			if ev := s.obs.list(); slices.Contains(ev, "rewrote:plan=true") {
				t.Errorf("events %q: an unnamed large page streamed through a plan", ev)
			}
		})
	}
}

// pageID names only an identity page with a strong tag and a length, and
// only when plans are kept.
func TestPageID(t *testing.T) {
	h := &Handler{Convert: fixedConvert}
	if err := h.Provision(); err != nil {
		t.Fatal(err)
	}
	off := &Handler{Convert: fixedConvert, Options: Options{RewriteCache: -1}}
	if err := off.Provision(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		h      *Handler
		etag   string
		coding string
		length int64
		want   bool
	}{
		{"strong tag, length", h, `"v1"`, "", 10, true},
		{"empty page", h, `"v1"`, "", 0, true},
		{"weak tag", h, `W/"v1"`, "", 10, false},
		{"no tag", h, "", "", 10, false},
		{"unquoted tag", h, "v1", "", 10, false},
		{"no length", h, `"v1"`, "", -1, false},
		{"gzip", h, `"v1"`, "gzip", 10, false},
		{"plans off", off, `"v1"`, "", 10, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			if tc.etag != "" {
				rec.Header().Set("Etag", tc.etag)
			}
			r := httptest.NewRequest(http.MethodGet, "http://example.com/a?b=c", nil)
			rw := tc.h.newResponseWriter(rec, r)
			id, ok := rw.pageID(tc.coding, tc.length)
			if ok != tc.want {
				t.Fatalf("named %v, want %v", ok, tc.want)
			}
			if want := (htmlrewrite.PageID{Host: "example.com", Path: "/a", Query: "b=c", ETag: tc.etag, Length: tc.length}); ok && id != want {
				t.Errorf("id %+v, want %+v", id, want)
			}
		})
	}
}

// dropHeaders deletes keys as written: they must be canonical, or a key
// the origin sent would stay.
func TestDroppedHeadersAreCanonical(t *testing.T) {
	for _, k := range notFoundDrops { // representationHeaders among them
		if c := http.CanonicalHeaderKey(k); c != k {
			t.Errorf("%q is not canonical (%q)", k, c)
		}
	}
}
