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
