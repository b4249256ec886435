package score

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestMarkdownText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"front matter removed", "---\ntitle: Pricing\ncanonical: https://x.example/p\n---\n# Pricing\n", "# Pricing\n"},
		{"front matter only at the start", "text\n---\ntitle: x\n---\n", "text\n---\ntitle: x\n---\n"},
		{"link keeps its text", "see [the docs](https://x.example/docs \"Docs\") now", "see [the docs] now"},
		{"link with parentheses in target", "[Go](https://en.wikipedia.org/wiki/Go_(language)) ok", "[Go] ok"},
		{"image dropped", "a ![diagram of flow](/img/a.svg) b", "a  b"},
		{"data image dropped", "x ![badge](data:image/png;base64,iVBORw0KGgo=) y", "x  y"},
		{"reference definition dropped", "[a][1]\n\n[1]: https://x.example/a\n", "[a][1]\n\n\n"},
		{"autolink dropped", "mail <mailto:a@x.example> or <https://x.example>", "mail  or "},
		{"bare url dropped", "visit https://x.example/path?q=1 today", "visit  today"},
		{"fence info dropped", "```go\nfunc main() {}\n```\n", "\nfunc main() {}\n\n"},
		{"raw tags dropped", "a<br/>b <span class=\"x\">c</span>", "a b  c "},
		{"entities decoded", "Kettle &amp; Crumb &lt;3", "Kettle & Crumb <3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MarkdownText([]byte(tt.in)); got != tt.want {
				t.Errorf("MarkdownText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestDropURLs checks that an expected text loses the same URLs the
// Markdown side does, so that a URL both sides show scores as neither kept
// nor missed.
func TestDropURLs(t *testing.T) {
	text := "GET https://x.example/a?b=1 from www.x.example, see RFC 6749"
	md := "GET [https://x.example/a?b=1](https://x.example/a?b=1) from www.x.example, see RFC 6749"
	want := Words("GET  from  see RFC 6749")
	for name, got := range map[string]Bag{"DropURLs": Words(DropURLs(text)), "MarkdownText": Words(MarkdownText([]byte(md)))} {
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: words %v, want %v", name, got, want)
		}
	}
}

// TestMarkdownTextGolden reduces each testdata/*.md to its words, one per
// line, and compares with the .words golden file beside it.
func TestMarkdownTextGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs in testdata: %v", err)
	}
	for _, in := range files {
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got := wordLines(Words(MarkdownText(src)))
			golden := strings.TrimSuffix(in, ".md") + ".words"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("reading golden file (run with -update to create it): %v", err)
			}
			if got != string(want) {
				t.Errorf("words of %s differ from %s:\n got: %s\nwant: %s", in, golden, got, want)
			}
		})
	}
}

// wordLines renders a bag as sorted "word count" lines.
func wordLines(b Bag) string {
	words := make([]string, 0, len(b))
	for w := range b {
		words = append(words, w)
	}
	sort.Strings(words)
	var sb strings.Builder
	for _, w := range words {
		fmt.Fprintf(&sb, "%s %d\n", w, b[w])
	}
	return sb.String()
}

func FuzzMarkdownText(f *testing.F) {
	for _, s := range []string{
		"---\ntitle: x\n---\n# H\n[a](b) ![c](d) <e> https://f.example `g`",
		"[unclosed](http://x.example/(a", "```\n", "<!-- never closed",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, md []byte) {
		out := MarkdownText(md)
		// Removing syntax only shrinks the input; decoding a character
		// reference grows it by a bounded factor.
		if len(out) > 4*len(md)+16 {
			t.Fatalf("output of %d bytes from %d bytes of input", len(out), len(md))
		}
	})
}
