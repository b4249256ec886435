package convert

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzConvert feeds arbitrary bytes through the whole pipeline: it must not
// panic (a panic recovered inside Convert fails the test too), and what it
// returns must be valid UTF-8 Markdown with front matter and no comments.
func FuzzConvert(f *testing.F) {
	pages, _ := filepath.Glob("testdata/golden/*.html")
	for _, p := range pages {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("<dl><div><dt>a<dd><dl><dt>b</dl></div></dl>"))
	f.Add([]byte("<figure><figcaption><p>x</figcaption><img></figure>"))
	f.Add([]byte("<pre class='highlight-'><code class='language-'>```</code></pre>"))
	f.Add([]byte("<table><tr><td colspan=1000 rowspan=1000>x</table>"))
	f.Add([]byte("<table><caption><table><caption>x</caption></table></caption></table>"))
	f.Add([]byte("<main><form><p>" + strings.Repeat("Prose that readability likes, long enough. ", 20) + "</p><blockquote><footer>y</footer></blockquote></form></main>"))
	c, err := New(Options{FrontMatter: true, Settings: Settings{Keep: []string{"footer p"}, ContentSelectors: []string{".c"}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, page []byte) {
		res, err := c.Convert(page, testURL, nil)
		if err != nil {
			if strings.Contains(err.Error(), "panic") {
				t.Fatalf("Convert panicked: %v", err)
			}
			return
		}
		md := string(res.Markdown)
		if !utf8.ValidString(md) {
			t.Fatalf("invalid UTF-8 output %q", md)
		}
		if !strings.HasPrefix(md, "---\n") || !strings.HasSuffix(md, "\n") {
			t.Fatalf("malformed output %q", md)
		}
	})
}
