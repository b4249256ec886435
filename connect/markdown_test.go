package connect

import (
	"reflect"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/frontmatter"
	"github.com/agentready/caddy-agentready/fulltext"
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
		updated: "2026-09-15", language: "en", markdown: pack([]byte("# Body\n")),
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

func TestMarkdownSections(t *testing.T) {
	for name, c := range map[string]struct {
		md   string
		want []fulltext.Section
	}{
		"none":          {"", nil},
		"text only":     {"Just text.\n", []fulltext.Section{{Text: "Just text."}}},
		"lead and two":  {"Lead.\n# One\nA.\n\n## Two ##\nB.\n", []fulltext.Section{{Text: "Lead."}, {Heading: "One", Text: "A."}, {Heading: "Two", Text: "B."}}},
		"not a heading": {"#hashtag and ####### seven\n", []fulltext.Section{{Text: "#hashtag and ####### seven"}}},
		"empty heading": {"#\ntext\n", []fulltext.Section{{Text: "text"}}},
	} {
		t.Run(name, func(t *testing.T) {
			if got := markdownSections([]byte(c.md)); !reflect.DeepEqual(got, c.want) {
				t.Errorf("markdownSections(%q) = %q, want %q", c.md, got, c.want)
			}
		})
	}
}
