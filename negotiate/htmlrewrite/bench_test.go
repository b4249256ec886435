package htmlrewrite

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/internal/benchpage"
)

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
				w := New(io.Discard, tc.inj)
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
	page, err := os.ReadFile("../../examples/site/pricing.html")
	if err != nil {
		b.Fatal(err)
	}
	inj := &Injection{Lang: "en", Head: []HeadElement{mdLinkHead, canonicalHead, jsonLDHead, alwaysHead}, Forms: []FormAnnotation{contactForm, searchForm}}
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		w := New(io.Discard, inj)
		w.Write(page)
		w.Close()
	}
}

// BenchmarkRewritePage is the whole-page path of the same page: rewritten
// by the rewriter (plans off, or a page seen for the first time) and from
// its plan (the page seen before).
func BenchmarkRewritePage(b *testing.B) {
	page, err := os.ReadFile("../../examples/site/pricing.html")
	if err != nil {
		b.Fatal(err)
	}
	inj := &Injection{Lang: "en", Head: []HeadElement{mdLinkHead, canonicalHead, jsonLDHead, alwaysHead}, Forms: []FormAnnotation{contactForm, searchForm}, Key: "bench"}
	for _, tc := range []struct {
		name  string
		plans *PlanCache
	}{
		{"rewritten", nil},
		{"from its plan", NewPlanCache(testPlanCache)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			buf := make([]byte, 0, 32<<10)
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			for b.Loop() {
				buf, _ = RewritePage(buf[:0], page, inj, tc.plans)
			}
		})
	}
}

// BenchmarkRewriterLargePage rewrites a 1 MiB article page without a form
// with the demo's annotations: streamed in the 32 KiB writes of
// reverse_proxy, as the handler does with a page over its planning bound
// (the form rules keep the rewriter scanning, in quiet mode, to the end),
// and from its plan, as it would were such a page planned.
func BenchmarkRewriterLargePage(b *testing.B) {
	page := benchpage.Article(1 << 20)
	inj := &Injection{Lang: "en", Head: []HeadElement{mdLinkHead, canonicalHead, jsonLDHead, alwaysHead}, Forms: []FormAnnotation{contactForm, searchForm}, Key: "bench"}
	b.Run("streamed", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		b.ReportAllocs()
		for b.Loop() {
			w := New(io.Discard, inj)
			for p := page; len(p) > 0; {
				n := min(len(p), 32<<10)
				w.Write(p[:n])
				p = p[n:]
			}
			w.Close()
		}
	})
	b.Run("from its plan", func(b *testing.B) {
		plans := NewPlanCache(testPlanCache)
		buf, _ := RewritePage(nil, page, inj, plans)
		b.SetBytes(int64(len(page)))
		b.ReportAllocs()
		for b.Loop() {
			buf, _ = RewritePage(buf[:0], page, inj, plans)
		}
	})
}
