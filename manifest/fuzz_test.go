package manifest

import (
	"os"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary bytes to Parse: it must never panic, every
// problem must carry a position, and whatever parses must generate.
func FuzzParse(f *testing.F) {
	for _, p := range []string{"../examples/site.yaml", "testdata/full.yaml"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{"", "site: x", "a: &a [*a]", "interfaces:\n  - {id: a, type: mcp, url: /m}\n", "connect: {enabled: true}",
		"llms:\n  sections:\n    - title: T\n      links: [{title: a, url: /a}]\n", "policy: {training: no}", "- 1\n- 2", "{"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, "fuzz.yaml")
		if err != nil {
			es, ok := err.(Errors)
			if !ok || len(es) == 0 {
				t.Fatalf("error is not a non-empty Errors: %T %v", err, err)
			}
			for _, e := range es {
				if e.Line < 1 || !strings.HasPrefix(e.Error(), "fuzz.yaml:") {
					t.Fatalf("problem without position: %q", e.Error())
				}
			}
			return
		}
		// Skill files may exist relative to the test's directory; errors
		// from reading them are fine, panics are not.
		_, _ = s.Generate(Env{Origin: "https://fuzz.example", MarkdownSuffix: "/md", Now: testNow})
	})
}

// FuzzMergeRobots: any origin file merges or is refused, never a panic, and
// a merged file always starts with the origin's bytes.
func FuzzMergeRobots(f *testing.F) {
	for _, s := range []string{"", demoRobots, "User-agent: GPTBot\nAllow: /\n", "Sitemap: x\nAgentmap: y\nContent-Signal: z\n", "<html>", "a\nb\nc"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, origin []byte) {
		merged, _, err := MergeRobots(origin, testAdditions())
		if err != nil {
			return
		}
		if trimmed := strings.TrimRight(string(origin), "\n"); strings.TrimSpace(trimmed) != "" && !strings.HasPrefix(string(merged), trimmed) {
			t.Fatalf("origin not kept verbatim")
		}
	})
}

// FuzzParseSitemap: never a panic, never more URLs than the limit.
func FuzzParseSitemap(f *testing.F) {
	f.Add([]byte(`<urlset><url><loc>https://a.example/</loc></url></urlset>`), 5)
	f.Add([]byte(`<sitemapindex><sitemap><loc>x</loc></sitemap></sitemapindex>`), 1)
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		urls, _ := ParseSitemap(data, limit)
		if limit >= 0 && len(urls) > limit {
			t.Fatalf("%d URLs over the limit %d", len(urls), limit)
		}
	})
}
