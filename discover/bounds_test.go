package discover

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// bigUrlset is a urlset of n same-site pages /p<from>… with long locs.
func bigUrlset(from, n int) []byte {
	var b bytes.Buffer
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	pad := strings.Repeat("x", 20)
	for i := from; i < from+n; i++ {
		fmt.Fprintf(&b, "<url><loc>%s/p%d-%s</loc><lastmod>2024-01-02</lastmod></url>", testPublic, i, pad)
	}
	b.WriteString("</urlset>")
	return b.Bytes()
}

// TestBoundsGzipBomb: a sitemap.xml.gz that inflates a thousandfold is
// counted by its inflated bytes against max_bytes: the run reads no more
// than max_bytes of XML, however little came over the wire, and says so.
func TestBoundsGzipBomb(t *testing.T) {
	const maxBytes = 4 << 20
	bomb := gzipped(append([]byte("<urlset><!--"), bytes.Repeat([]byte("x"), 40<<20)...))
	f := newFakeSite().file("/robots.txt", "text/plain", []byte("Sitemap: /a.xml.gz\nSitemap: /b.xml.gz\n"))
	f.file("/a.xml.gz", "application/gzip", bomb).file("/b.xml.gz", "application/gzip", bomb)
	opts := f.serve(t)
	opts.MaxBytes = maxBytes
	res, err := Sitemaps(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Bytes > maxBytes {
		t.Errorf("read %d decoded bytes under max_bytes %d (the wire held %d per file)", res.Bytes, maxBytes, len(bomb))
	}
	for _, sm := range res.Sitemaps {
		if sm.Error != "over max_bytes" {
			t.Errorf("%s: %q, want over max_bytes", sm.URL, sm.Error)
		}
	}
	if f.requested("/b.xml.gz") || res.Limited != "max_bytes" {
		t.Errorf("the second bomb was read after max_bytes was spent; limited %q", res.Limited)
	}
}

// TestBoundsMillionEntries: twenty sitemaps of 50,000 entries each (a
// million pages) behind one index keep no more than max_pages entries: the
// rest of the file is counted, the files after it are not read.
func TestBoundsMillionEntries(t *testing.T) {
	const files, per, maxPages = 20, MaxSitemapURLs, 1000
	f := newFakeSite()
	bodies := [2][]byte{bigUrlset(0, per), bigUrlset(per, per)}
	var children []string
	for i := range files {
		p := fmt.Sprintf("/s%d.xml", i)
		children = append(children, testPublic+p)
		f.file(p, "application/xml", bodies[i%2])
	}
	f.file("/sitemap.xml", "application/xml", sitemapIndex(children...))
	opts := f.serve(t)
	opts.MaxPages = maxPages
	res, err := Sitemaps(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != maxPages || len(res.start.entries) != maxPages || len(res.start.lastmods) > maxPages {
		t.Errorf("pages %d, entries kept %d, lastmods %d; want %d", len(res.Pages), len(res.start.entries), len(res.start.lastmods), maxPages)
	}
	if res.Skipped[SkipMaxPages] != per-maxPages || res.Limited != "max_pages" {
		t.Errorf("skipped %v limited %q, want the %d dropped entries of the first file counted", res.Skipped, res.Limited, per-maxPages)
	}
	if f.requested("/s1.xml") || !strings.Contains(res.Sitemaps[len(res.Sitemaps)-1].Error, "max_pages") {
		t.Errorf("a file after max_pages was reached was read: %+v", res.Sitemaps[len(res.Sitemaps)-1])
	}
}

// TestBoundsNestedIndexes: an index of 50,000 indexes, each of 50,000
// more, keeps no more children than max_sitemaps allows: the files on
// record stay within max_sitemaps and a few refused ones, not 50,000.
func TestBoundsNestedIndexes(t *testing.T) {
	f := newFakeSite()
	var kids []string
	for i := range MaxSitemapURLs {
		kids = append(kids, fmt.Sprintf("%s/idx-%d.xml", testPublic, i))
	}
	f.file("/sitemap.xml", "application/xml", sitemapIndex(kids...))
	for i := range 20 {
		f.file(fmt.Sprintf("/idx-%d.xml", i), "application/xml", sitemapIndex(kids...))
	}
	opts := f.serve(t)
	opts.MaxSitemaps = 10
	res, err := Sitemaps(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	// The files on record: max_sitemaps read, one refused, and the
	// well-known locations probed when no page was found.
	if len(res.Sitemaps) > opts.MaxSitemaps+1+len(wellKnownSitemaps) {
		t.Errorf("%d sitemaps on record under max_sitemaps %d", len(res.Sitemaps), opts.MaxSitemaps)
	}
	if !strings.Contains(res.Sitemaps[0].Error, "past max_sitemaps") || res.Sitemaps[0].Entries != MaxSitemapURLs {
		t.Errorf("the index: %+v", res.Sitemaps[0])
	}
}

// TestBoundsLinkDensePages: pages of 1,000 distinct links each keep no
// more URLs than knownCap and no more links than heldLinksCap; what is
// dropped is counted, and a page that kept no links is fetched whole on
// the next run rather than trusted on a 304.
func TestBoundsLinkDensePages(t *testing.T) {
	const maxPages = 20
	f := newFakeSite()
	for i := range maxPages * 2 {
		p := fmt.Sprintf("/d%d", i)
		if i == 0 {
			p = "/"
		}
		var b strings.Builder
		fmt.Fprintf(&b, `<a href="/d%d">next</a>`, i+1)
		for k := range 1000 {
			fmt.Fprintf(&b, `<a href="/d%d/l%d">l</a>`, i+1, k)
		}
		body := b.String()
		f.handle(p, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("ETag", `"same"`)
			if r.Header.Get("If-None-Match") == `"same"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			fmt.Fprintf(w, "<html><body>%s</body></html>", body)
		})
	}
	opts := f.serve(t)
	opts.MaxPages, opts.Mode = maxPages, ModeCrawl
	res := run(t, opts)
	held, cut := 0, 0
	for _, p := range res.Pages {
		held += len(p.links)
		if p.linksCut {
			cut++
		}
	}
	if held > heldLinksCap(maxPages) || cut == 0 {
		t.Errorf("%d links held (bound %d), %d pages cut", held, heldLinksCap(maxPages), cut)
	}
	if res.Skipped[SkipMaxPages] < 1000 {
		t.Errorf("skipped %v: the URLs past knownCap are not counted", res.Skipped)
	}
	opts.Previous = res
	again := run(t, opts)
	if again.NotModified != len(res.Pages)-cut {
		t.Errorf("304s %d, want %d: a page without its links must be fetched whole", again.NotModified, len(res.Pages)-cut)
	}
}

// keepAll keeps every entry parseSitemap is allowed to.
var keepAll = sitemapKeep{urls: MaxSitemapURLs, sitemaps: MaxSitemapURLs}
