package discover

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMeasureSitemapHeap logs what a sitemaps-only run holds after it ends
// (heap after GC, the Result kept alive) and how long it took, for two
// hostile origins: four gzip sitemaps of 50,000 entries with 1,000-byte
// locs (about 0.6 MB each on the wire), and four gzip bombs of 49 MB each
// under max_bytes 64 MiB. It asserts nothing; run it with
// DISCOVER_MEASURE=1 go test -run TestMeasureSitemapHeap -v ./discover
func TestMeasureSitemapHeap(t *testing.T) {
	if os.Getenv("DISCOVER_MEASURE") == "" {
		t.Skip("a measurement: set DISCOVER_MEASURE=1")
	}
	long := newFakeSite()
	var robots strings.Builder
	pad := strings.Repeat("section/", 120)
	for s := range 4 {
		var b bytes.Buffer
		b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for i := range MaxSitemapURLs {
			fmt.Fprintf(&b, "<url><loc>%s/%s%d-%d</loc><lastmod>2024-01-02</lastmod></url>", testPublic, pad, s, i)
		}
		b.WriteString("</urlset>")
		gz := gzipped(b.Bytes())
		t.Logf("sitemap %d: %d bytes, %d on the wire", s, b.Len(), len(gz))
		long.file(fmt.Sprintf("/s%d.xml.gz", s), "application/gzip", gz)
		fmt.Fprintf(&robots, "Sitemap: /s%d.xml.gz\n", s)
	}
	long.file("/robots.txt", "text/plain", []byte(robots.String()))
	measure(t, "4 gzip sitemaps of 50,000 long entries", long.serve(t), 0)

	bomb := newFakeSite()
	robots.Reset()
	gz := gzipped(append([]byte("<urlset><!--"), bytes.Repeat([]byte("x"), 49<<20)...))
	for s := range 4 {
		bomb.file(fmt.Sprintf("/b%d.xml.gz", s), "application/gzip", gz)
		fmt.Fprintf(&robots, "Sitemap: /b%d.xml.gz\n", s)
	}
	bomb.file("/robots.txt", "text/plain", []byte(robots.String()))
	measure(t, fmt.Sprintf("4 gzip bombs of 49 MB (%d bytes each on the wire), max_bytes 64 MiB", len(gz)), bomb.serve(t), 64<<20)
}

func measure(t *testing.T, name string, opts Options, maxBytes int64) {
	opts.MaxBytes = maxBytes
	var before, held runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	res, err := Sitemaps(context.Background(), opts)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&held)
	runtime.KeepAlive(res)
	t.Logf("%s: %d pages, %d bytes counted, held %.1f MB after GC, allocated %.1f MB, %v",
		name, len(res.Pages), res.Bytes, float64(int64(held.HeapAlloc)-int64(before.HeapAlloc))/1e6,
		float64(held.TotalAlloc-before.TotalAlloc)/1e6, elapsed.Round(10*time.Millisecond))
}
