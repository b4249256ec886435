package negotiate

import (
	"reflect"
	"testing"

	"github.com/agentready/caddy-agentready/internal/agentshapes"
)

// Accept headers as real clients send them.
const (
	acceptChrome  = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"
	acceptFirefox = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	acceptSafari  = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	acceptCurl    = "*/*"
	acceptAgent   = "text/markdown, text/html;q=0.9"
)

func TestPrefersMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name   string
		accept string
		want   bool
	}{
		{"absent header", "", false},
		{"chrome", acceptChrome, false},
		{"firefox", acceptFirefox, false},
		{"safari", acceptSafari, false},
		{"curl", acceptCurl, false},
		{"claude code / cursor style", acceptAgent, true},
		{"markdown alone", "text/markdown", true},
		{"x-markdown alone", "text/x-markdown", true},
		{"markdown refused", "text/markdown;q=0", false},
		{"markdown refused, html absent", "text/markdown;q=0, */*", false},
		{"text wildcard", "text/*", false},
		{"text wildcard preferred", "text/*;q=1, text/html;q=0.5", false},
		{"tie goes to markdown (cloudflare's example)", "text/markdown, text/html", true},
		{"tie, html listed first", "text/html, text/markdown", true},
		{"tie with weights", "text/html;q=0.8, text/markdown;q=0.8", true},
		{"claude code", "text/markdown, text/html, */*", true},
		{"cursor", "text/markdown, text/plain;q=0.9, */*;q=0.8", true},
		{"codex cli", "text/html, */*", false},
		{"markdown below html", "text/html, text/markdown;q=0.999", false},
		{"tie, both refused", "text/markdown;q=0, text/html;q=0", false},
		{"tie with xhtml", "application/xhtml+xml;q=0.5, text/markdown;q=0.5", true},
		{"html preferred", "text/html, text/markdown;q=0.9", false},
		{"markdown over wildcard, html absent", "text/markdown, */*;q=0.8", true},
		{"low markdown, html absent counts as 0", "application/json, text/markdown;q=0.1", true},
		{"upper case", "TEXT/MARKDOWN, TEXT/HTML;Q=0.5", true},
		{"whitespace", " text/markdown ;  q=1.0 ,\ttext/html ; q=0.2 ", true},
		{"charset utf-8 param", "text/markdown; charset=utf-8, text/html;q=0.9", true},
		{"charset quoted", `text/markdown; charset="UTF-8", text/html;q=0.9`, true},
		{"charset other", "text/markdown; charset=iso-8859-1, text/html;q=0.9", false},
		{"variant param ignored", "text/markdown;variant=GFM, text/html;q=0.5", true},
		{"xhtml counts as html", "application/xhtml+xml, text/markdown;q=0.9", false},
		{"malformed q skips member", "text/markdown;q=2, text/html;q=0.5", false},
		{"malformed q letters", "text/markdown;q=abc", false},
		{"too many decimals", "text/markdown;q=0.1234", false},
		{"malformed member ignored", "text/markdown;;q, text/markdown;q=0.7, text/html;q=0.5", true},
		{"garbage", ",,,;;;///", false},
		{"quoted comma in param", `text/html;foo="a,text/markdown", text/markdown;q=0.5`, false},
		{"wildcard type with subtype rejected", "*/markdown", false},
		{"highest markdown range counts", "text/markdown;q=0.2, text/x-markdown;q=0.9, text/html;q=0.5", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PrefersMarkdown(tc.accept); got != tc.want {
				t.Errorf("PrefersMarkdown(%q) = %v, want %v", tc.accept, got, tc.want)
			}
		})
	}
}

func TestParseAccept(t *testing.T) {
	for _, tc := range []struct {
		name   string
		header string
		want   []MediaRange
	}{
		{"empty", "", nil},
		{"one", "text/html", []MediaRange{{Type: "text", Subtype: "html", Q: 1}}},
		{"params and q", `Text/HTML; Level="1"; q=0.5; ext=x`, []MediaRange{
			{Type: "text", Subtype: "html", Params: map[string]string{"level": "1"}, Q: 0.5},
		}},
		{"escaped quote", `text/plain;a="x\"y"`, []MediaRange{
			{Type: "text", Subtype: "plain", Params: map[string]string{"a": `x"y`}, Q: 1},
		}},
		{"malformed skipped", "text, /html, text/, */x, text/html;q=1.5, a/b;=c, a/b;c, ok/fine;q=0.", []MediaRange{
			{Type: "ok", Subtype: "fine", Q: 0},
		}},
		{"unterminated quote", `text/html;a="b, text/plain`, nil},
		{"empty members", " , text/plain ,, ", []MediaRange{{Type: "text", Subtype: "plain", Q: 1}}},
		{"q one with zeros", "a/b;q=1.000", []MediaRange{{Type: "a", Subtype: "b", Q: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ParseAccept(tc.header)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseAccept(%q) = %+v, want %+v", tc.header, got, tc.want)
			}
		})
	}
}

func TestQuality(t *testing.T) {
	// The example of RFC 9110 §12.5.1.
	rfc := ParseAccept("text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed, text/plain;format=fixed;q=0.4, */*;q=0.5")
	for _, tc := range []struct {
		ranges    []MediaRange
		mediaType string
		want      float64
	}{
		{rfc, "text/plain;format=flowed", 1},
		{rfc, "text/plain", 0.7},
		{rfc, "text/html", 0.3},
		{rfc, "image/jpeg", 0.5},
		{rfc, "text/plain;format=fixed", 0.4},
		{rfc, "text/html;level=3", 0.3},
		{ParseAccept("text/html"), "text/markdown", 0},
		{ParseAccept("TEXT/*"), "Text/Markdown", 1},
		{ParseAccept("text/html"), "not a type", 0},
		{nil, "text/html", 0},
	} {
		if got := Quality(tc.ranges, tc.mediaType); got != tc.want {
			t.Errorf("Quality(%q) = %v, want %v", tc.mediaType, got, tc.want)
		}
	}
}

func TestPrefersMarkdownDoesNotAllocate(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		PrefersMarkdown(acceptChrome)
		PrefersMarkdown(acceptAgent)
	})
	if allocs != 0 {
		t.Errorf("PrefersMarkdown allocates %v times per call pair, want 0", allocs)
	}
}

// TestAgentRequestShapes plays the Accept of every agent in
// internal/agentshapes: an agent that reads Markdown by negotiation gets
// it, one that follows the head's alternate, a browser and a wildcard get
// HTML (caddymodule's TestIntegrationAgentRequestShapes plays the same
// rows through a real Caddy).
func TestAgentRequestShapes(t *testing.T) {
	shapes, err := agentshapes.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range shapes {
		t.Run(s.Name, func(t *testing.T) {
			want := s.WantsMarkdown() && !s.FollowsAlternate
			if got := PrefersMarkdown(s.Accept); got != want {
				t.Errorf("PrefersMarkdown(%q) = %v, want %v (%s)", s.Accept, got, want, s.Source)
			}
		})
	}
}
