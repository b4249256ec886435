package manifest

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
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

// TestSitemapFromPages: with discovered pages, the sitemap lists exactly
// them, with lastmod only where known; configured pages discovery did not
// confirm are left out.
func TestSitemapFromPages(t *testing.T) {
	s, err := Parse([]byte("site:\n  pages: [/gone]\n"), "site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Generate(Env{Origin: "https://docs.example", Now: testNow, Pages: []PageInfo{
		{URL: "https://docs.example/"},
		{URL: "https://docs.example/guide?a=1&b=2", Lastmod: time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)},
		{URL: "https://docs.example/api", Lastmod: time.Date(2024, 1, 2, 10, 30, 0, 0, time.FixedZone("CET", 3600))},
		{URL: "https://elsewhere.example/x"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://docs.example/</loc></url>
  <url><loc>https://docs.example/guide?a=1&amp;b=2</loc><lastmod>2024-03-05</lastmod></url>
  <url><loc>https://docs.example/api</loc><lastmod>2024-01-02T09:30:00Z</lastmod></url>
</urlset>
`
	if got := string(b.Sitemap.Body); got != want {
		t.Errorf("sitemap:\n%s\nwant:\n%s", got, want)
	}
	if len(b.SitemapParts) != 0 {
		t.Errorf("%d parts for 3 URLs", len(b.SitemapParts))
	}
}

// TestSitemapSplit: past 50,000 URLs (or the byte limit) the sitemap
// becomes an index of parts, each within the limits and each URL in
// exactly one part.
func TestSitemapSplit(t *testing.T) {
	var pages []PageInfo
	for i := range sitemapMaxURLs + 1 {
		pages = append(pages, PageInfo{URL: fmt.Sprintf("https://docs.example/p/%d", i)})
	}
	b, err := Default().Generate(Env{Origin: "https://docs.example", Now: testNow, Pages: pages})
	if err != nil {
		t.Fatal(err)
	}
	index, err := ParseSitemap(b.Sitemap.Body, 10)
	if err != nil || !strings.Contains(string(b.Sitemap.Body), "<sitemapindex") {
		t.Fatalf("not a sitemap index: %v\n%s", err, b.Sitemap.Body)
	}
	if want := []string{"https://docs.example/sitemap-1.xml", "https://docs.example/sitemap-2.xml"}; !slices.Equal(index, want) {
		t.Errorf("index = %q, want %q", index, want)
	}
	total := 0
	for i, p := range b.SitemapParts {
		if p.Path != sitemapPartPath(i) || !p.OriginWins || p.ContentType != b.Sitemap.ContentType {
			t.Errorf("part %d = %s origin-wins %v %s", i, p.Path, p.OriginWins, p.ContentType)
		}
		urls, err := ParseSitemap(p.Body, sitemapMaxURLs+10)
		if err != nil || len(urls) > sitemapMaxURLs {
			t.Errorf("part %d: %d URLs, %v", i, len(urls), err)
		}
		total += len(urls)
	}
	if total != sitemapMaxURLs+1 {
		t.Errorf("%d URLs in the parts, want %d", total, sitemapMaxURLs+1)
	}

	// The byte limit splits too, and no part passes it.
	var entries []sitemapEntry
	for i := range 10 {
		entries = append(entries, sitemapEntry{loc: fmt.Sprintf("https://docs.example/%s/%d", strings.Repeat("x", 100), i)})
	}
	parts := splitSitemap(entries, 1000, 600)
	if len(parts) < 3 {
		t.Errorf("%d parts under a 600-byte limit", len(parts))
	}
	n := 0
	for _, p := range parts {
		urls, err := ParseSitemap(p, 100)
		if err != nil || len(p) > 600 {
			t.Errorf("part of %d bytes: %v", len(p), err)
		}
		n += len(urls)
	}
	if n != 10 {
		t.Errorf("%d URLs in the parts, want 10", n)
	}
	if empty := splitSitemap(nil, 10, 1000); len(empty) != 1 {
		t.Errorf("no entries: %d parts, want one empty urlset", len(empty))
	} else if _, err := ParseSitemap(empty[0], 10); err != nil {
		t.Errorf("empty urlset: %v", err)
	}
}

// TestRobotsNamesOriginSitemaps: the origin's own direct sitemaps replace
// the generated one in the Sitemap lines; one the origin already names is
// not repeated.
func TestRobotsNamesOriginSitemaps(t *testing.T) {
	b, err := Default().Generate(Env{Origin: "https://docs.example", Now: testNow,
		OriginSitemaps: []string{"https://docs.example/wp-sitemap.xml", "https://docs.example/news.xml", "https://cdn.example/s.xml"}})
	if err != nil {
		t.Fatal(err)
	}
	if b.Robots.Sitemap != "" || len(b.Robots.OriginSitemaps) != 2 {
		t.Fatalf("additions = %+v", b.Robots)
	}
	merged, _, err := MergeRobots([]byte("User-agent: *\nDisallow:\nSitemap: https://docs.example/news.xml\n"), *b.Robots)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(merged), "Sitemap: "); got != 2 ||
		!strings.Contains(string(merged), "Sitemap: https://docs.example/wp-sitemap.xml\n") ||
		strings.Contains(string(merged), "/sitemap.xml") {
		t.Errorf("merged robots.txt:\n%s", merged)
	}
}

// TestAutoListFromPages: llms.auto_list lists discovered pages with their
// own titles and descriptions.
func TestAutoListFromPages(t *testing.T) {
	s, err := Parse([]byte("llms:\n  auto_list: {enabled: true, max: 2}\n"), "site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Generate(Env{Origin: "https://docs.example", Now: testNow, Pages: []PageInfo{
		{URL: "https://docs.example/", Title: "Home"},
		{URL: "https://docs.example/install", Title: "Installing", Description: "How to install it."},
		{URL: "https://docs.example/no-title"},
		{URL: "https://docs.example/third", Title: "Third"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	llms := string(b.Document(PathLLMsTxt).Body)
	for _, want := range []string{"- [Installing](https://docs.example/install): How to install it.\n", "- [no title](https://docs.example/no-title)\n"} {
		if !strings.Contains(llms, want) {
			t.Errorf("llms.txt lacks %q:\n%s", want, llms)
		}
	}
	if strings.Contains(llms, "Third") {
		t.Errorf("auto_list.max 2 exceeded:\n%s", llms)
	}
}

// TestFoundSitemap: the origin's sitemap the caller found answering
// (Env.OriginSitemaps) is the one llms.txt, agents.json and the robots.txt
// line name; none when none answers (Env.NoSitemap); the generated
// /sitemap.xml when the caller did not look or names another origin.
func TestFoundSitemap(t *testing.T) {
	const origin = "https://notes.example"
	for _, tc := range []struct {
		name  string
		found []string
		none  bool
		want  string
	}{
		{"not looked", nil, false, origin + "/sitemap.xml"},
		{"the origin's", []string{origin + "/wp-sitemap.xml"}, false, origin + "/wp-sitemap.xml"},
		{"another origin's", []string{"https://cdn.example/sitemap.xml"}, false, origin + "/sitemap.xml"},
		{"none answers", nil, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Default().Generate(Env{Origin: origin, Now: testNow, OriginSitemaps: tc.found, NoSitemap: tc.none})
			if err != nil {
				t.Fatal(err)
			}
			llms := string(b.Document(PathLLMsTxt).Body)
			var card struct{ Content struct{ Sitemap string } }
			if err := json.Unmarshal(b.Document(PathAgentsJSON).Body, &card); err != nil {
				t.Fatal(err)
			}
			if card.Content.Sitemap != tc.want {
				t.Errorf("agents.json names %q, want %q", card.Content.Sitemap, tc.want)
			}
			mention := strings.Contains(llms, "- Find every page in "+tc.want+".\n")
			if (tc.want != "") != mention || (tc.want == "" && strings.Contains(llms, "sitemap")) {
				t.Errorf("llms.txt names the sitemap wrongly (want %q):\n%s", tc.want, llms)
			}
			merged, _, err := b.MergeRobots(nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(string(merged), "Sitemap:"); (tc.want == "" && got != 0) || (tc.want != "" && (got != 1 || !strings.Contains(string(merged), "Sitemap: "+tc.want+"\n"))) {
				t.Errorf("merged robots.txt:\n%s", merged)
			}
		})
	}
}

// TestDefaultPagesFromDiscovery: with no llms sections and no info.pages,
// llms.txt's `## Pages` lists the pages discovery found, shallowest first
// (then in discovery's order), and its Markdown-suffix example is one of
// them; with nothing known it gives no example at all rather than invent
// an address (the old text said /about, which most sites answer 404).
func TestDefaultPagesFromDiscovery(t *testing.T) {
	s, err := Parse([]byte("llms:\n  auto_list: {max: 2}\n"), "site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Generate(Env{Origin: "https://docs.example", Now: testNow, MarkdownSuffix: "/md", Pages: []PageInfo{
		{URL: "https://docs.example/", Title: "Home"},
		{URL: "https://docs.example/library/os/path", Title: "os.path"},
		{URL: "https://docs.example/tutorial/", Title: "Tutorial"},
		{URL: "https://docs.example/library/", Title: "Library"},
		{URL: "https://docs.example/faq", Title: "FAQ"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	llms := string(b.Document(PathLLMsTxt).Body)
	want := "## Pages\n\n- [Home](https://docs.example/)\n- [Tutorial](https://docs.example/tutorial/)\n- [Library](https://docs.example/library/)\n"
	if !strings.HasSuffix(llms, want) {
		t.Errorf("llms.txt lacks %q:\n%s", want, llms)
	}
	if !strings.Contains(llms, "(for example https://docs.example/tutorial/md)") || strings.Contains(llms, "/about") {
		t.Errorf("suffix example is not a discovered page:\n%s", llms)
	}

	bare, err := s.Generate(Env{Origin: "https://docs.example", Now: testNow, MarkdownSuffix: "/md"})
	if err != nil {
		t.Fatal(err)
	}
	llms = string(bare.Document(PathLLMsTxt).Body)
	if strings.Contains(llms, "for example") || strings.Contains(llms, "/about") {
		t.Errorf("no page is known, yet llms.txt gives an example address:\n%s", llms)
	}
	if !strings.Contains(llms, "or append `/md` to its path.") {
		t.Errorf("suffix instruction missing:\n%s", llms)
	}
}
