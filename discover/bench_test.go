package discover

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

// syntheticSite builds an n-page documentation site with no sitemap: a
// tree (each page links to its eight children) plus a navigation bar of
// cross links, every page about 20 KB of HTML.
func syntheticSite(n int) *fakeSite {
	f := newFakeSite()
	para := "<p>" + strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 8) + "</p>\n"
	name := func(i int) string {
		if i == 0 {
			return "/"
		}
		return fmt.Sprintf("/docs/section-%d/page-%d.html", i%17, i)
	}
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "<!doctype html><html><head><title>Page %d</title><meta name=\"description\" content=\"About page %d.\">"+
			"<link rel=\"canonical\" href=\"%s%s\"><link rel=\"stylesheet\" href=\"/static/site.css\"></head><body><nav>", i, i, testPublic, name(i))
		for k := range 12 { // cross links, many of them repeats across pages
			fmt.Fprintf(&b, `<a href="%s">nav %d</a> `, name((i*37+k*101)%n), k)
		}
		b.WriteString(`<a href="/static/manual.pdf">PDF</a></nav><main>`)
		for c := i*8 + 1; c <= i*8+8 && c < n; c++ {
			fmt.Fprintf(&b, `<a href="%s">child %d</a> `, name(c), c)
		}
		for b.Len() < 20_000 {
			b.WriteString(para)
		}
		b.WriteString("</main></body></html>")
		body := b.String()
		f.handle(name(i), func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(body))
		})
	}
	return f
}

// TestSynthetic500: a 500-page site with no sitemap is found whole, with no
// more than four requests in flight. Time and memory are logged (run with
// -v), never asserted.
func TestSynthetic500(t *testing.T) {
	f := syntheticSite(500)
	opts := f.serve(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	res := run(t, opts)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	var held runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&held)
	retained := int64(held.HeapAlloc) - int64(before.HeapAlloc)
	runtime.KeepAlive(res)
	if len(res.Pages) != 500 || res.Source != "crawl" || res.Limited != "" {
		t.Fatalf("pages %d source %s limited %q skipped %v", len(res.Pages), res.Source, res.Limited, res.Skipped)
	}
	if res.Skipped[SkipNotHTML] != 1 || res.SkippedTotal() != 1 {
		t.Errorf("skipped %v, want only the PDF", res.Skipped)
	}
	if f.peak > DefaultConcurrency {
		t.Errorf("peak in flight %d > %d", f.peak, DefaultConcurrency)
	}
	t.Logf("500 pages, %d requests, %.1f MB read in %v; allocated %.1f MB in %d mallocs, result holds %.2f MB; peak in flight %d",
		res.Requests, float64(res.Bytes)/1e6, elapsed, float64(after.TotalAlloc-before.TotalAlloc)/1e6,
		after.Mallocs-before.Mallocs, float64(retained)/1e6, f.peak)
}

// BenchmarkCrawl500 crawls the synthetic 500-page site.
func BenchmarkCrawl500(b *testing.B) {
	f := syntheticSite(500)
	opts := f.serve(b)
	b.ReportAllocs()
	for b.Loop() {
		res, err := Run(context.Background(), opts)
		if err != nil || len(res.Pages) != 500 {
			b.Fatalf("%d pages, %v", len(res.Pages), err)
		}
	}
}
