package manifest

import (
	"slices"
	"strings"
	"testing"
)

func TestParseSitemap(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		limit int
		want  []string
		err   string
	}{
		{"urlset", `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://a.example/ </loc></url><url><loc>https://a.example/b?x=1&amp;y=2</loc><lastmod>2026-01-01</lastmod></url></urlset>`,
			10, []string{"https://a.example/", "https://a.example/b?x=1&y=2"}, ""},
		{"capped", `<urlset><url><loc>https://a.example/1</loc></url><url><loc>https://a.example/2</loc></url><url><loc>https://a.example/3</loc></url></urlset>`,
			2, []string{"https://a.example/1", "https://a.example/2"}, ""},
		{"sitemapindex", `<sitemapindex><sitemap><loc>https://a.example/s1.xml</loc></sitemap></sitemapindex>`,
			10, []string{"https://a.example/s1.xml"}, ""},
		{"html", `<html><body>404</body></html>`, 10, nil, "root element is <html>"},
		{"broken", `<urlset><url><loc>https://a.example/</url>`, 10, nil, "parsing sitemap"},
		{"empty", ``, 10, nil, "no root element"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSitemap([]byte(tc.in), tc.limit)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestGeneratedSitemapParses(t *testing.T) {
	for _, fx := range fixtures() {
		b := fx.bundle(t)
		urls, err := ParseSitemap(b.Sitemap.Body, 1000)
		if err != nil || len(urls) == 0 {
			t.Errorf("%s: generated sitemap: %v, %d URLs", fx.name, err, len(urls))
		}
		for _, u := range urls {
			if !strings.HasPrefix(u, b.Inject.Origin+"/") {
				t.Errorf("%s: sitemap loc %s is not on %s", fx.name, u, b.Inject.Origin)
			}
		}
	}
}
