package connect

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentready/caddy-agentready/frontmatter"
	"gopkg.in/yaml.v3"
)

// TestBodyOffset pins where the index's body starts; the block rules
// themselves are frontmatter.Split's (see its tests).
func TestBodyOffset(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"---\ntitle: A\n---\n# A", len("---\ntitle: A\n---\n")},
		{"---\r\ntitle: A\r\n---\r\nbody", len("---\r\ntitle: A\r\n---\r\n")},
		{"---\ntitle: A\n---", len("---\ntitle: A\n---")},
		{"---\ntitle: A\n...\nbody", len("---\ntitle: A\n...\n")},
		{"---\ntitle: A\n", 0},
		{"# A\n---\n", 0},
		{"----\n---\n", 0},
		{"", 0},
	}
	for _, tt := range tests {
		if got := bodyOffset([]byte(tt.in)); got != tt.want {
			t.Errorf("bodyOffset(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestPageMarkdownFrontMatterRoundTrips(t *testing.T) {
	d := &doc{
		url: testOrigin + "/q", title: `Colon: "quoted" # not a comment`, description: "- starts like a list\nsecond line",
		updated: "2026-09-15", language: "en", markdown: []byte("# Body\n"),
	}
	md := string(pageMarkdown(d))
	block, body, ok := frontmatter.Split([]byte(md))
	if !ok || string(body) != "# Body\n" {
		t.Fatalf("bad layout:\n%s", md)
	}
	var fm map[string]string
	if err := yaml.Unmarshal(block, &fm); err != nil {
		t.Fatalf("front matter does not parse: %v\n%s", err, md)
	}
	want := map[string]string{"title": d.title, "description": d.description, "canonical": d.url, "updated": d.updated, "language": d.language}
	for k, v := range want {
		if fm[k] != v {
			t.Errorf("%s = %q, want %q", k, fm[k], v)
		}
	}
	if keys := []string{"title:", "description:", "canonical:", "updated:", "language:"}; !inOrder(md, keys) {
		t.Errorf("keys out of order:\n%s", md)
	}
}

func inOrder(s string, subs []string) bool {
	at := 0
	for _, sub := range subs {
		i := strings.Index(s[at:], sub)
		if i < 0 {
			return false
		}
		at += i + len(sub)
	}
	return true
}

func TestSnippet(t *testing.T) {
	body := []byte("# Title\n\n" + strings.Repeat("filler words here. ", 40) + "The **kiln** reaches 1280 °C.\n\n" + strings.Repeat("more text. ", 40))
	got := snippet(body, "kiln", 120)
	if !strings.Contains(got, "kiln reaches 1280 °C") || !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") {
		t.Errorf("snippet = %q", got)
	}
	if got := snippet([]byte("# Short page"), "absent", 120); got != "Short page" {
		t.Errorf("snippet without a match = %q", got)
	}
}

func FuzzSnippet(f *testing.F) {
	f.Add([]byte("# A\n\nsome **text** é"), "text", 40)
	f.Add([]byte("---\na: b\n---\n"), "é", 3)
	f.Fuzz(func(t *testing.T, body []byte, q string, n int) {
		n = n%500 + 1
		if n < 1 {
			n = -n + 1
		}
		got := snippet(body, q, n)
		if utf8.Valid(body) && !utf8.ValidString(got) {
			t.Fatalf("snippet cut a rune: %q", got)
		}
		if len(got) > n+2*len("…")+utf8.UTFMax {
			t.Fatalf("snippet of %d bytes for n=%d", len(got), n)
		}
		bodyOffset(body)
	})
}
