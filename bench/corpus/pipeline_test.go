package main

import (
	"net/url"
	"strings"
	"testing"
)

// corpusForBench loads the real corpus, or skips when the module cache does
// not hold it.
func corpusForBench(b *testing.B) []*page {
	b.Helper()
	dir, err := locateCorpus()
	if err != nil {
		b.Skip(err)
	}
	pages, err := loadCorpus(dir, "", func([]byte) int { return 0 })
	if err != nil {
		b.Skip(err)
	}
	return pages
}

// benchmarkPipeline converts every corpus page per iteration; b.SetBytes
// makes `go test -bench` print MB/s (run with -cpu 1 for the one-core figure).
func benchmarkPipeline(b *testing.B, conv converterFunc) {
	pages := corpusForBench(b)
	u, _ := url.Parse(pageURL)
	var total int64
	for _, p := range pages {
		total += int64(len(p.html))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pages {
			if _, err := conv(p.html, u); err != nil {
				b.Fatalf("%s: %v", p.name, err)
			}
		}
	}
}

func BenchmarkOurs(b *testing.B) {
	conv, err := newOurs("text/html; charset=utf-8", nil)
	if err != nil {
		b.Fatal(err)
	}
	benchmarkPipeline(b, conv)
}

func BenchmarkBaseline(b *testing.B) {
	benchmarkPipeline(b, newBaseline())
}

func TestPipelinesOnSmallPage(t *testing.T) {
	const html = `<!DOCTYPE html><html><head><title>T</title></head><body>
<nav><a href="/">Home</a></nav>
<article><h1>Widgets</h1><p>Widgets are small. They are useful in many ways, and people like them a lot.</p>
<p>Another paragraph with <a href="/more">a link</a> and enough words to count as content for the extractor.</p></article>
</body></html>`
	u, _ := url.Parse(pageURL)
	ours, err := newOurs("text/html; charset=utf-8", nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, conv := range map[string]converterFunc{"ours": ours, "baseline": newBaseline()} {
		t.Run(name, func(t *testing.T) {
			md, err := conv([]byte(html), u)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"Widgets are small", "http://fakehost/more"} {
				if !strings.Contains(string(md.md), want) {
					t.Errorf("output lacks %q:\n%s", want, md)
				}
			}
		})
	}
}
