package convert

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exampleSite is the bundled demo site the default Caddyfile serves.
const exampleSite = "../../examples/site"

// TestExampleSiteGolden converts every page of the demo site and compares
// it with testdata/golden/examples/<path>.md (-update rewrites them). The
// demo pages are what a first-time user sees converted, so their Markdown
// is pinned like the synthetic pages'.
func TestExampleSiteGolden(t *testing.T) {
	var pages []string
	_ = filepath.WalkDir(exampleSite, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") {
			pages = append(pages, p)
		}
		return nil
	})
	if len(pages) == 0 {
		t.Skip("no demo site pages")
	}
	c := mustNew(t, goldenOptions)
	for _, page := range pages {
		rel, _ := filepath.Rel(exampleSite, page)
		t.Run(rel, func(t *testing.T) {
			in, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			path := "/" + strings.TrimSuffix(strings.TrimSuffix(filepath.ToSlash(rel), ".html"), "index")
			u, _ := url.Parse("https://demo.example" + path)
			var got string
			res, err := c.Convert(in, u, goldenHeader.Clone())
			if err != nil {
				got = "ERROR: " + err.Error() + "\n"
			} else {
				got = string(res.Markdown)
				checkMarkdownInvariants(t, got)
				// The demo site shows how a page should be built: landmarks.
				if !strings.HasPrefix(res.Extraction, "landmark:") {
					t.Errorf("Extraction = %q, want a landmark", res.Extraction)
				}
			}
			compareGolden(t, filepath.Join("testdata/golden/examples", strings.TrimSuffix(rel, ".html")+".md"), got)
		})
	}
}
