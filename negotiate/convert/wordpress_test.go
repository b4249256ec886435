package convert

import (
	"net/url"
	"os"
	"strings"
	"testing"
)

// TestWordPressChrome: on WordPress's own markup (6.1, Twenty Twenty-Three,
// testdata/golden/wordpress-*.html), the post keeps its content and loses
// the theme's post meta, the comments and the reply form; the archive keeps
// its teasers with their dates.
func TestWordPressChrome(t *testing.T) {
	c, err := New(Options{FrontMatter: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		page       string
		want, gone []string
	}{
		{"wordpress-post", []string{
			"# Configuring the reverse proxy\n", "## Before you start\n", "- php-fpm listening on a socket\n",
			"```\nphp_fastcgi unix//run/php/php8.2-fpm.sock\n```\n", "| encode | Compression |\n",
			"![Request flow from Caddy to php-fpm](", "published: 2024-05-14\n", "updated: 2024-05-14\n",
		}, []string{
			"Posted", "\nin\n", "\nby\n", "admin", "Tags:", "[Guides]", "[caddy]",
			"Comments", "Ada", "Worked the first time", "Reply", "Leave a Reply", "Email", "Save my name",
		}},
		{"wordpress-archive", []string{
			"# Category: Guides\n", "## [Configuring the reverse proxy](", "## [Caching pages at the edge](",
			"[May 14, 2024](", "[April 2, 2024](", "updated: 2024-05-14\n",
		}, []string{"published:"}},
	} {
		t.Run(tc.page, func(t *testing.T) {
			html, err := os.ReadFile("testdata/golden/" + tc.page + ".html")
			if err != nil {
				t.Fatal(err)
			}
			u, _ := url.Parse("https://notes.example/" + tc.page + "/")
			res, err := c.Convert(html, u, nil)
			if err != nil {
				t.Fatal(err)
			}
			md := string(res.Markdown)
			for _, w := range tc.want {
				if !strings.Contains(md, w) {
					t.Errorf("lost %q", w)
				}
			}
			for _, g := range tc.gone {
				if strings.Contains(md, g) {
					t.Errorf("chrome %q kept", g)
				}
			}
			if t.Failed() {
				t.Logf("Markdown:\n%s", md)
			}
		})
	}
}
