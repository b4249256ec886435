package negotiate

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

func BenchmarkParseAccept(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ParseAccept(acceptChrome)
	}
}

func BenchmarkPrefersMarkdown(b *testing.B) {
	for _, tc := range []struct{ name, accept string }{
		{"chrome", acceptChrome}, {"agent", acceptAgent}, {"curl", acceptCurl},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				PrefersMarkdown(tc.accept)
			}
		})
	}
}

// discardWriter is a ResponseWriter that keeps nothing but its header map.
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardWriter) WriteHeader(int)             {}

// BenchmarkHTMLPassThrough measures what the handler adds to an HTML page a
// browser gets: the decision, Vary and the Link headers (head injection off,
// so the body goes straight through).
func BenchmarkHTMLPassThrough(b *testing.B) {
	h := &Handler{Convert: fixedConvert, Options: Options{HeadLink: Bool(false)}}
	if err := h.Provision(); err != nil {
		b.Fatal(err)
	}
	body := []byte(testPage)
	next := func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, err := w.Write(body)
		return err
	}
	r := httptest.NewRequest(http.MethodGet, "/pricing", nil)
	r.Header.Set("Accept", acceptChrome)
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		clear(w.h)
		if err := h.ServeHTTP(w, r, next); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRewriter(b *testing.B) {
	page := []byte(strings.Repeat("<p>Lorem ipsum dolor sit amet, <a href=\"/x\">consectetur</a> adipiscing.</p>\n", 2000))
	page = append([]byte("<!DOCTYPE html><html><head><title>Bench</title></head><body>"), page...)
	for _, tc := range []struct {
		name string
		inj  *Injection
	}{
		{"head only", &Injection{Lang: "en", Head: []HeadElement{mdLinkHead, canonicalHead}}},
		{"forms (tokenizes every byte)", &Injection{Head: []HeadElement{mdLinkHead}, Forms: []FormAnnotation{contactForm}}},
		{"forms, x/net/html (reference)", nil},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			if tc.inj == nil {
				inj := &Injection{Head: []HeadElement{mdLinkHead}, Forms: []FormAnnotation{contactForm}}
				for b.Loop() {
					libraryRewrite(page, inj)
				}
				return
			}
			for b.Loop() {
				w := NewRewriter(io.Discard, tc.inj)
				for p := page; len(p) > 0; {
					n := min(len(p), 32<<10)
					w.Write(p[:n])
					p = p[n:]
				}
				w.Close()
			}
		})
	}
}

// BenchmarkRewriterDemoPage rewrites the demo's /pricing page (10.6 kB:
// a head with JSON-LD, a header with a search form) with the annotations
// examples/site.yaml asks for, in the 32 KiB writes of reverse_proxy.
func BenchmarkRewriterDemoPage(b *testing.B) {
	page, err := os.ReadFile("../examples/site/pricing.html")
	if err != nil {
		b.Fatal(err)
	}
	inj := &Injection{Lang: "en", Head: []HeadElement{mdLinkHead, canonicalHead, jsonLDHead, alwaysHead}, Forms: []FormAnnotation{contactForm, searchForm}}
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		w := NewRewriter(io.Discard, inj)
		w.Write(page)
		w.Close()
	}
}

// BenchmarkRewritePage is the whole-page path of the same page: rewritten
// by the rewriter (plans off, or a page seen for the first time) and from
// its plan (the page seen before).
func BenchmarkRewritePage(b *testing.B) {
	page, err := os.ReadFile("../examples/site/pricing.html")
	if err != nil {
		b.Fatal(err)
	}
	inj := &Injection{Lang: "en", Head: []HeadElement{mdLinkHead, canonicalHead, jsonLDHead, alwaysHead}, Forms: []FormAnnotation{contactForm, searchForm}, Key: "bench"}
	for _, tc := range []struct {
		name  string
		plans *planCache
	}{
		{"rewritten", nil},
		{"from its plan", newPlanCache(DefaultRewriteCache)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			h := &Handler{plans: tc.plans}
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			for b.Loop() {
				out, _ := h.rewritePage(pageBufPool.Get().(*[]byte), page, inj)
				putPageBuf(out)
			}
		})
	}
}
