package manifest

import (
	"encoding/json"
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

// TestFoundSitemap: the sitemap the caller found answering (Env.Sitemap) is
// the one llms.txt, agents.json and the robots.txt line name; none when
// none answers; the default /sitemap.xml when the caller did not look or
// names another origin.
func TestFoundSitemap(t *testing.T) {
	const origin = "https://notes.example"
	for _, tc := range []struct {
		name, found, want string
	}{
		{"not looked", "", origin + "/sitemap.xml"},
		{"a path", "/wp-sitemap.xml", origin + "/wp-sitemap.xml"},
		{"an absolute URL on the origin", origin + "/sitemap_index.xml", origin + "/sitemap_index.xml"},
		{"another origin", "https://cdn.example/sitemap.xml", origin + "/sitemap.xml"},
		{"none answers", NoSitemap, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Default().Generate(Env{Origin: origin, Now: testNow, Sitemap: tc.found})
			if err != nil {
				t.Fatal(err)
			}
			llms := string(b.Document(PathLLMsTxt).Body)
			var card struct{ Content struct{ Sitemap string } }
			if err := json.Unmarshal(b.Document(PathAgentsJSON).Body, &card); err != nil {
				t.Fatal(err)
			}
			if b.Robots.Sitemap != tc.want || card.Content.Sitemap != tc.want {
				t.Errorf("robots.txt line %q, agents.json %q; want %q", b.Robots.Sitemap, card.Content.Sitemap, tc.want)
			}
			mention := strings.Contains(llms, "- Find every page in "+tc.want+".\n")
			if (tc.want != "") != mention || (tc.want == "" && strings.Contains(llms, "sitemap")) {
				t.Errorf("llms.txt names the sitemap wrongly (want %q):\n%s", tc.want, llms)
			}
			merged, _, err := b.MergeRobots(nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(string(merged), "Sitemap:"); (tc.want == "" && got != 0) || (tc.want != "" && !strings.Contains(string(merged), "Sitemap: "+tc.want+"\n")) {
				t.Errorf("merged robots.txt:\n%s", merged)
			}
		})
	}
}
