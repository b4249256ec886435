package discover

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSitemapSources: where the sitemap is found and what is made of it.
func TestSitemapSources(t *testing.T) {
	tests := []struct {
		name   string
		site   func() *fakeSite
		source string
		pages  []string
		direct []string          // Result.DirectSitemaps, path form
		tried  map[string]string // sitemap path -> Error ("" when used)
	}{
		{
			name: "urlset at /sitemap.xml",
			site: func() *fakeSite {
				return newFakeSite().page("/", "<title>Home</title>", "").page("/a", "", "").page("/b", "", "").
					file("/sitemap.xml", "application/xml", urlset(testPublic+"/a", testPublic+"/b"))
			},
			source: "sitemap",
			pages:  []string{"/", "/a", "/b"},
			direct: []string{"/sitemap.xml"},
		},
		{
			name: "robots.txt names an index with gzip children",
			site: func() *fakeSite {
				return newFakeSite().page("/", "", "").page("/a", "", "").page("/b", "", "").page("/c", "", "").
					file("/robots.txt", "text/plain", []byte("User-agent: *\nDisallow:\n\nSitemap: "+testPublic+"/maps/index.xml\n")).
					file("/maps/index.xml", "application/xml", sitemapIndex(testPublic+"/maps/one.xml.gz", "/maps/two.xml")).
					file("/maps/one.xml.gz", "application/gzip", gzipped(urlset(testPublic+"/a", testPublic+"/b"))).
					file("/maps/two.xml", "application/xml", urlset(testPublic+"/c"))
			},
			source: "sitemap",
			pages:  []string{"/", "/a", "/b", "/c"},
			direct: []string{"/maps/index.xml"},
			tried:  map[string]string{"/maps/index.xml": "", "/maps/one.xml.gz": "", "/maps/two.xml": ""},
		},
		{
			name: "a sitemap line that redirects is not advertised, its target is",
			site: func() *fakeSite {
				return newFakeSite().page("/", "", "").page("/a", "", "").
					file("/robots.txt", "text/plain", []byte("Sitemap: "+testPublic+"/sitemap.xml\n")).
					redirect("/sitemap.xml", "/wp-sitemap.xml").
					file("/wp-sitemap.xml", "application/xml", urlset(testPublic+"/a"))
			},
			source: "sitemap",
			pages:  []string{"/", "/a"},
			direct: []string{"/wp-sitemap.xml"},
			tried:  map[string]string{"/sitemap.xml": "redirects", "/wp-sitemap.xml": ""},
		},
		{
			name: "well-known locations probed in order",
			site: func() *fakeSite {
				return newFakeSite().page("/", "", "").page("/a", "", "").
					file("/sitemap_index.xml", "application/xml", sitemapIndex(testPublic+"/page-sitemap.xml")).
					file("/page-sitemap.xml", "application/xml", urlset(testPublic+"/a"))
			},
			source: "sitemap",
			pages:  []string{"/", "/a"},
			direct: []string{"/sitemap_index.xml"},
			tried:  map[string]string{"/sitemap.xml": "status 404", "/sitemap_index.xml": ""},
		},
		{
			name: "listed pages that fail, redirect or say noindex are not listed",
			site: func() *fakeSite {
				return newFakeSite().page("/", "", "").page("/ok", "", "").
					page("/hidden", `<meta name="robots" content="noindex">`, "").
					redirect("/moved", "/ok").
					file("/sitemap.xml", "application/xml",
						urlset(testPublic+"/ok", testPublic+"/gone", testPublic+"/hidden", testPublic+"/moved", "https://elsewhere.example/x"))
			},
			source: "sitemap",
			pages:  []string{"/", "/ok"},
			direct: []string{"/sitemap.xml"},
		},
		{
			name: "a sitemap that is not XML falls back to the crawl",
			site: func() *fakeSite {
				return newFakeSite().page("/", "", links("/a")).page("/a", "", "").
					file("/sitemap.xml", "text/html", []byte("<html>not found page</html>"))
			},
			source: "crawl",
			pages:  []string{"/", "/a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, tt.site().serve(t))
			if res.Source != tt.source {
				t.Errorf("Source = %q, want %q", res.Source, tt.source)
			}
			if got := paths(res); !slices.Equal(got, tt.pages) {
				t.Errorf("pages = %q, want %q", got, tt.pages)
			}
			var direct []string
			for _, u := range res.DirectSitemaps() {
				direct = append(direct, strings.TrimPrefix(u, testPublic))
			}
			if !slices.Equal(direct, tt.direct) {
				t.Errorf("DirectSitemaps = %q, want %q (tried %+v)", direct, tt.direct, res.Sitemaps)
			}
			for path, wantErr := range tt.tried {
				i := slices.IndexFunc(res.Sitemaps, func(s Sitemap) bool { return s.URL == testPublic+path })
				if i < 0 {
					t.Errorf("sitemap %s not tried: %+v", path, res.Sitemaps)
					continue
				}
				if s := res.Sitemaps[i]; s.Error != wantErr || s.Direct != (wantErr == "") {
					t.Errorf("sitemap %s: Error %q Direct %v, want Error %q", path, s.Error, s.Direct, wantErr)
				}
			}
			for _, s := range res.Sitemaps {
				if !strings.HasPrefix(s.URL, testPublic) && s.Error != "on another origin" {
					t.Errorf("sitemap URL %q not on the public origin", s.URL)
				}
				if s.Location != "" && !strings.HasPrefix(s.Location, testPublic) {
					t.Errorf("sitemap Location %q not on the public origin", s.Location)
				}
			}
		})
	}
}

// TestSitemapSkips: why sitemap entries were left out is counted.
func TestSitemapSkips(t *testing.T) {
	site := newFakeSite().page("/", "", "").page("/ok", "", "").page("/hidden", `<meta name="robots" content="noindex">`, "").
		redirect("/moved", "/ok").
		file("/sitemap.xml", "application/xml",
			urlset(testPublic+"/ok", testPublic+"/gone", testPublic+"/hidden", testPublic+"/moved", "https://elsewhere.example/x", "mailto:x@example.com"))
	res := run(t, site.serve(t))
	want := map[SkipReason]int{SkipStatus: 1, SkipNoindex: 1, SkipRedirect: 1, SkipOffSite: 1, SkipInvalid: 1}
	for r, n := range want {
		if res.Skipped[r] != n {
			t.Errorf("Skipped[%s] = %d, want %d (all: %v)", r, res.Skipped[r], n, res.Skipped)
		}
	}
}

// TestSitemapLastmod: lastmod comes from the sitemap, else Last-Modified,
// else stays unknown.
func TestSitemapLastmod(t *testing.T) {
	set := []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
		`<url><loc>` + testPublic + `/a</loc><lastmod>2024-03-05</lastmod></url>` +
		`<url><loc>` + testPublic + `/b</loc></url>` +
		`<url><loc>` + testPublic + `/c</loc><lastmod>yesterday</lastmod></url></urlset>`)
	site := newFakeSite().page("/", "", "").page("/a", "", "").page("/c", "", "").
		handle("/b", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Last-Modified", "Tue, 02 Jan 2024 10:00:00 GMT")
			w.Write([]byte("<title>B</title>"))
		}).
		file("/sitemap.xml", "application/xml", set)
	res := run(t, site.serve(t))
	want := map[string]time.Time{
		"/":  {},
		"/a": time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC),
		"/b": time.Date(2024, 1, 2, 10, 0, 0, 0, time.UTC),
		"/c": {},
	}
	for _, p := range res.Pages {
		path := strings.TrimPrefix(p.URL, testPublic)
		if !p.Lastmod.Equal(want[path]) {
			t.Errorf("%s: Lastmod %v, want %v", path, p.Lastmod, want[path])
		}
	}
	if len(res.Pages) != 4 {
		t.Errorf("pages = %q", paths(res))
	}
}

// TestParseSitemap: the parser on its own.
func TestParseSitemap(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		kind    string
		locs    []string
		wantErr string
	}{
		{"urlset", urlset("https://a.example/1", " https://a.example/2 "), "urlset", []string{"https://a.example/1", "https://a.example/2"}, ""},
		{"index", sitemapIndex("https://a.example/s1.xml"), "sitemapindex", []string{"https://a.example/s1.xml"}, ""},
		{"gzip", gzipped(urlset("https://a.example/1")), "urlset", []string{"https://a.example/1"}, ""},
		{"no namespace", []byte("<urlset><url><loc>/x</loc></url></urlset>"), "urlset", []string{"/x"}, ""},
		{"image loc ignored", []byte(`<urlset><url><loc>/x</loc><image:image xmlns:image="i"><image:loc>/i.png</image:loc></image:image></url></urlset>`), "urlset", []string{"/x"}, ""},
		{"empty", nil, "", nil, "no root element"},
		{"html", []byte("<html><body>hi</body></html>"), "", nil, "root element is <html>"},
		{"truncated xml", []byte("<urlset><url><loc>/x"), "", nil, "unexpected EOF"},
		{"entity", []byte(`<!DOCTYPE x [<!ENTITY a "aaaa">]><urlset><url><loc>&a;</loc></url></urlset>`), "", nil, "invalid character entity"},
		{"bad gzip", []byte{0x1f, 0x8b, 0, 0}, "", nil, "gzip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, _, err := parseSitemap(bytes.NewReader(tt.in), maxSitemapBytes, keepAll)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var locs []string
			for _, e := range doc.entries {
				locs = append(locs, e.loc)
			}
			if doc.kind != tt.kind || !slices.Equal(locs, tt.locs) {
				t.Errorf("got %s %q, want %s %q", doc.kind, locs, tt.kind, tt.locs)
			}
		})
	}
}

// TestParseSitemapCaps: 50,000 entries per file, and the byte cap after
// inflation.
func TestParseSitemapCaps(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("<urlset>")
	for i := range MaxSitemapURLs + 10 {
		fmt.Fprintf(&b, "<url><loc>/p%d</loc></url>", i)
	}
	b.WriteString("</urlset>")
	doc, _, err := parseSitemap(bytes.NewReader(gzipped(b.Bytes())), maxSitemapBytes, keepAll)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.entries) != MaxSitemapURLs || !doc.truncated {
		t.Errorf("entries = %d truncated %v, want %d true", len(doc.entries), doc.truncated, MaxSitemapURLs)
	}
	const limit = 1 << 20
	bomb := gzipped(append([]byte("<urlset><!--"), bytes.Repeat([]byte("x"), limit+10)...))
	if _, _, err := parseSitemap(bytes.NewReader(bomb), limit, keepAll); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("gzip bomb: err = %v", err)
	}
}

// TestSitemapsOnly: Sitemaps finds where the site's sitemaps answer, as a
// WordPress site, a CMS and a site without any serve them, and fetches no
// page. A sitemap that redirects, or 404s, is never a direct one.
func TestSitemapsOnly(t *testing.T) {
	wpIndex := sitemapIndex(testPublic + "/wp-sitemap-posts-post-1.xml")
	robots := func(line string) []byte {
		b := "User-agent: *\nDisallow: /wp-admin/\n"
		if line != "" {
			b += "\nSitemap: " + testPublic + line + "\n"
		}
		return []byte(b)
	}
	tests := []struct {
		name       string
		site       *fakeSite
		direct     []string // DirectSitemaps, path form
		statusRoot int      // SitemapStatus("/sitemap.xml")
		pages      []string
	}{
		{"wordpress: robots names wp-sitemap.xml, /sitemap.xml redirects",
			newFakeSite().file("/robots.txt", "text/plain", robots("/wp-sitemap.xml")).
				redirect("/sitemap.xml", "/wp-sitemap.xml").file("/wp-sitemap.xml", "application/xml", wpIndex),
			[]string{"/wp-sitemap.xml"}, http.StatusMovedPermanently, nil},
		{"a cms location, robots silent",
			newFakeSite().file("/robots.txt", "text/plain", robots("")).
				redirect("/sitemap.xml", "/sitemap_index.xml").file("/sitemap_index.xml", "application/xml", wpIndex),
			[]string{"/sitemap_index.xml"}, http.StatusMovedPermanently, nil},
		{"wordpress core, robots silent",
			newFakeSite().file("/robots.txt", "text/plain", robots("")).
				redirect("/sitemap.xml", "/wp-sitemap.xml").file("/wp-sitemap.xml", "application/xml", wpIndex),
			[]string{"/wp-sitemap.xml"}, http.StatusMovedPermanently, nil},
		{"astro's index",
			newFakeSite().file("/sitemap-index.xml", "application/xml", sitemapIndex(testPublic+"/sitemap-0.xml")).
				file("/sitemap-0.xml", "application/xml", urlset(testPublic+"/a", testPublic+"/b")),
			[]string{"/sitemap-index.xml"}, http.StatusNotFound, []string{"/a", "/b"}},
		{"none",
			newFakeSite().file("/robots.txt", "text/plain", robots("")),
			nil, http.StatusNotFound, nil},
		{"only a redirect off the site",
			newFakeSite().redirect("/sitemap.xml", "https://elsewhere.example/sitemap.xml"),
			nil, http.StatusMovedPermanently, nil},
		{"robots names one that 404s",
			newFakeSite().file("/robots.txt", "text/plain", robots("/gone.xml")),
			nil, http.StatusNotFound, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.site.page("/", "<title>Home</title>", links("/a")).page("/a", "", "").page("/b", "", "")
			res, err := Sitemaps(context.Background(), tt.site.serve(t))
			if err != nil {
				t.Fatalf("Sitemaps: %v", err)
			}
			var direct []string
			for _, u := range res.DirectSitemaps() {
				direct = append(direct, strings.TrimPrefix(u, testPublic))
			}
			if !slices.Equal(direct, tt.direct) {
				t.Errorf("DirectSitemaps = %q, want %q (tried %+v)", direct, tt.direct, res.Sitemaps)
			}
			if got := res.SitemapStatus("/sitemap.xml"); got != tt.statusRoot {
				t.Errorf("SitemapStatus(/sitemap.xml) = %d, want %d", got, tt.statusRoot)
			}
			if got := paths(res); !slices.Equal(got, tt.pages) {
				t.Errorf("pages = %q, want %q", got, tt.pages)
			}
			for _, p := range []string{"/", "/a", "/b"} {
				if tt.site.requested(p) {
					t.Errorf("page %s fetched", p)
				}
			}
		})
	}
}

// TestSitemapsOnlyMaxPages: the entries listed stop at max_pages, and the
// result says so.
func TestSitemapsOnlyMaxPages(t *testing.T) {
	opts := newFakeSite().file("/sitemap.xml", "application/xml", urlset(testPublic+"/a", testPublic+"/b", testPublic+"/c")).serve(t)
	opts.MaxPages = 2
	res, err := Sitemaps(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(res); !slices.Equal(got, []string{"/a", "/b"}) || res.Limited != "max_pages" || res.Skipped[SkipMaxPages] != 1 {
		t.Errorf("pages %q, Limited %q, skipped %v", got, res.Limited, res.Skipped)
	}
}
