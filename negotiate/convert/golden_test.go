package convert

import (
	"errors"
	"flag"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden .md files from the current output")

// goldenOptions are the options every golden page is converted with.
var goldenOptions = Options{FrontMatter: true, Settings: Settings{DefaultLanguage: "en"}}

// goldenExtraction is how each golden page's content must be chosen.
var goldenExtraction = map[string]string{
	"article-chrome":  "landmark:article",
	"pricing":         "landmark:main",
	"docs":            "landmark:role-main",
	"products":        "body+cleaned",
	"home-cards":      "body+cleaned",
	"no-landmarks":    "readability",
	"jsonld":          "landmark:main",
	"figure":          "landmark:main",
	"data-image":      "landmark:main",
	"relative-links":  "body",
	"article-in-main": "landmark:main+pruned",
	"docs-article":    "landmark:main+pruned",
	// a landing page readability judges an article: only its one-field
	// call-back form goes
	"landing-sections": "landmark:main+pruned",
	// WordPress 6.1 with Twenty Twenty-Three: a post (its meta, comments
	// and reply form go), a category archive (its teasers stay, dated)
	"wordpress-post":    "landmark:main",
	"wordpress-archive": "landmark:main",
	"inline-marks":      "landmark:main",
	"empty":             "body",
	"empty-body":        "body",
	"hidden-only":       "body",
	"docs-blocks":       "landmark:role-main",
	"landmark-nav":      "landmark:main+pruned",
	// a short story (below readability's "readerable" bar) in a <main>
	// full of links; a product grid in a <main>, as link-heavy, stays whole
	"landmark-nav-short": "landmark:main+pruned",
	"main-product-grid":  "landmark:main",
	"home-main-links":    "landmark:main",
	// an aside that holds code is content: a Sphinx sidebar with its title
	"docs-sidebar": "landmark:role-main",
	// a Discourse topic: the body is a script shell, the topic is in a
	// <noscript>, which is then the content
	"discourse-noscript": "landmark:role-main",
	// an AsciiDoc man page with no landmark and no chrome (its "See also"
	// is a paragraph of links): converted whole, where readability would
	// take its option list for the article
	"reference-manpage": "body",
	// a DocBook XSL reference page (the PostgreSQL manual's shape): its
	// Prev / Up / Next tables go by the default prune, its parameter list
	// and the synopsis stay, the synopsis's placeholders as plain text
	"reference-docbook": "body+cleaned",
	// a block theme's post: after the story, the author box (its bio is
	// prose) and the sidebar column readability kept nothing of go
	"article-author-box": "landmark:main+pruned",
	// a MediaWiki article: its skip links, "[edit]" links, hatnotes and
	// navigation box go by the default prune, its infobox stays
	"mediawiki": "landmark:role-main+pruned",
	// a service page without a landmark, not declared an article: a
	// section readability takes for the article and a dozen more; the
	// cleaned body is the page
	"service-sections": "body+cleaned",
	// the same in a <main>: the landmark stays whole
	"service-sections-main": "landmark:main",
}

// goldenHeader is the origin response every golden page is converted with.
var goldenHeader = http.Header{"Last-Modified": {"Tue, 15 Sep 2026 08:00:00 GMT"}}

// TestGolden converts testdata/golden/<name>.html and compares the result
// with <name>.md (go test -run TestGolden -update rewrites them). A page
// that fails to convert has its error as the golden text.
func TestGolden(t *testing.T) {
	c, err := New(goldenOptions)
	if err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob("testdata/golden/*.html")
	if len(pages) < len(goldenExtraction) {
		t.Fatalf("found %d golden pages, want at least %d", len(pages), len(goldenExtraction))
	}
	for _, page := range pages {
		name := strings.TrimSuffix(filepath.Base(page), ".html")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			u, _ := url.Parse("https://example.com/pages/" + name)
			res, err := c.Convert(in, u, goldenHeader.Clone())
			var got string
			switch {
			case err != nil:
				got = "ERROR: " + err.Error() + "\n"
			default:
				got = string(res.Markdown)
				if want, ok := goldenExtraction[name]; ok && res.Extraction != want {
					t.Errorf("Extraction = %q, want %q", res.Extraction, want)
				}
				if res.Tokens <= 0 {
					t.Errorf("Tokens = %d", res.Tokens)
				}
			}
			checkMarkdownInvariants(t, got)
			compareGolden(t, strings.TrimSuffix(page, ".html")+".md", got)
		})
	}
}

// compareGolden compares got with the golden file, or rewrites the file
// under -update.
func compareGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if errors.Is(err, os.ErrNotExist) {
		t.Fatalf("no golden file %s (run go test -update)", golden)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -run TestGolden -update to accept):\n%s", golden, got)
	}
}

// checkMarkdownInvariants checks what every output must satisfy whatever
// the page, outside fenced code blocks (which keep code verbatim): no HTML
// comments, no empty links, no relative links, no data: URLs, no script.
func checkMarkdownInvariants(t *testing.T, md string) {
	t.Helper()
	prose := proseOf(md)
	for _, bad := range []string{"<!--", "](<", "[](", "]()", "data:image", "](/", "](./", "](../", "](#", "<script", "THE END"} {
		if strings.Contains(prose, bad) {
			t.Errorf("output contains %q", bad)
		}
	}
}

// proseOf returns md without its fenced code blocks.
func proseOf(md string) string {
	var b strings.Builder
	var fence []byte
	for line := range strings.Lines(md) {
		trimmed := []byte(strings.TrimRight(line, "\n"))
		switch {
		case fence != nil:
			if t := strings.TrimSpace(line); strings.HasPrefix(t, string(fence)) && strings.Trim(t, string(fence[:1])) == "" {
				fence = nil
			}
		case openingFence(trimmed) != nil:
			fence = openingFence(trimmed)
		default:
			b.WriteString(line)
		}
	}
	return b.String()
}
