package selfcheck

import (
	"context"
	"testing"
	"time"
)

// BenchmarkScan scans the agent-ready test site end to end (35 checks, two
// routes, the MCP probe) over loopback.
func BenchmarkScan(b *testing.B) {
	srv := agentReadySite(b).serve(b)
	opts := Options{Now: func() time.Time { return fixedNow }}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Scan(context.Background(), srv.URL, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRender renders one report three ways.
func BenchmarkRender(b *testing.B) {
	srv := agentReadySite(b).serve(b)
	r, err := Scan(context.Background(), srv.URL, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.JSON(); err != nil {
			b.Fatal(err)
		}
		r.Markdown()
		r.HTML()
	}
}

// BenchmarkParseHTMLFacts reads the facts of a 1 MiB page.
func BenchmarkParseHTMLFacts(b *testing.B) {
	page := []byte(fixture(b, "index.html"))
	for len(page) < 1<<20 {
		page = append(page, []byte(`<div class="card"><p>Some text about widgets and more widgets.</p><a href="/x">x</a></div>`)...)
	}
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		HTML(page, nil)
	}
}
