package manifest

import (
	"bytes"
	"strings"
	"testing"
)

func testAdditions() RobotsAdditions {
	return RobotsAdditions{
		Sitemap:       "https://r.example/sitemap.xml",
		Agentmap:      "https://r.example/.well-known/ard.json",
		ContentSignal: "search=yes, ai-input=yes, ai-train=no",
		Groups: []RobotsGroup{
			{Kind: KindTraining, Agents: []string{"GPTBot", "CCBot"}},
			{Kind: KindSearch, Agents: []string{"OAI-SearchBot"}, Allow: true},
		},
	}
}

func TestMergeRobots(t *testing.T) {
	for _, tc := range []struct {
		name     string
		origin   string
		contains []string // in this order
		absent   []string
		warnings []string
	}{
		{
			name:   "no origin file",
			origin: "",
			contains: []string{"User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n", "User-agent: OAI-SearchBot\nAllow: /\n",
				"User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\n",
				"Sitemap: https://r.example/sitemap.xml\n", "Agentmap: https://r.example/.well-known/ard.json"},
		},
		{
			name:   "origin rules kept and copied to allowed kinds",
			origin: "User-agent: *\nDisallow: /admin/\nAllow: /admin/public\n",
			contains: []string{"User-agent: *\nDisallow: /admin/\nAllow: /admin/public\n\n# Added by agent_ready",
				"User-agent: OAI-SearchBot\nDisallow: /admin/\nAllow: /admin/public\n"},
		},
		{
			name:     "origin group for the same agent wins",
			origin:   "User-agent: gptbot\nAllow: /\n",
			contains: []string{"User-agent: gptbot\nAllow: /\n", "User-agent: CCBot\nDisallow: /\n"},
			absent:   []string{"User-agent: GPTBot"},
			warnings: []string{"robots.txt: the origin has its own group for GPTBot; its rules are kept and the training policy is not applied to it"},
		},
		{
			name:     "origin records kept, not duplicated",
			origin:   "Sitemap: https://r.example/sitemap.xml\nAgentmap: https://r.example/catalog.json\nUser-agent: *\nContent-Signal: search=yes\n",
			absent:   []string{"Agentmap: https://r.example/.well-known/ard.json", "Content-Signal: search=yes, ai-input"},
			contains: []string{"Agentmap: https://r.example/catalog.json"},
			warnings: []string{`robots.txt: the origin states Content-Signal "search=yes"; it is kept instead of "search=yes, ai-input=yes, ai-train=no"`,
				"robots.txt: the origin's Agentmap https://r.example/catalog.json is kept; agents will not find https://r.example/.well-known/ard.json from robots.txt"},
		},
		{
			// WordPress's own robots.txt names its sitemap; /sitemap.xml
			// redirects to it. A second Sitemap: line would send crawlers
			// to the redirect.
			name:     "origin sitemap named: no second one",
			origin:   "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nSitemap: https://r.example/wp-sitemap.xml\n",
			contains: []string{"Sitemap: https://r.example/wp-sitemap.xml\n\n# Added by agent_ready", "Agentmap: https://r.example/.well-known/ard.json"},
			absent:   []string{"Sitemap: https://r.example/sitemap.xml"},
		},
		{
			name:     "origin shuts everyone out",
			origin:   "User-agent: *\nDisallow: /\n",
			contains: []string{"User-agent: OAI-SearchBot\nDisallow: /\n"},
			warnings: []string{"robots.txt: the origin disallows everything for User-agent: *; the search crawlers it allows by policy get the same rules"},
		},
		{
			name:     "no final newline, CRLF and comments",
			origin:   "# ours\r\nUser-agent: *\r\nDisallow: /tmp # temporary\r\nCrawl-delay: 5",
			contains: []string{"Crawl-delay: 5\n\n# Added", "User-agent: OAI-SearchBot\nDisallow: /tmp\n"},
		},
		{
			name:     "BOM and a few odd lines are tolerated",
			origin:   "\xef\xbb\xbfUser-agent: *\nDisallow: /x\nthis line is odd\n",
			contains: []string{"this line is odd\n"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, warnings, err := MergeRobots([]byte(tc.origin), testAdditions())
			if err != nil {
				t.Fatal(err)
			}
			out := string(got)
			// The origin's bytes come first, unchanged.
			if !strings.HasPrefix(out, strings.TrimRight(tc.origin, "\n")) {
				t.Errorf("origin file not kept verbatim at the top:\n%s", out)
			}
			at := 0
			for _, want := range tc.contains {
				i := strings.Index(out[at:], want)
				if i < 0 {
					t.Errorf("missing (or out of order) %q in:\n%s", want, out)
					continue
				}
				at += i
			}
			for _, no := range tc.absent {
				if strings.Contains(out, no) {
					t.Errorf("unexpected %q in:\n%s", no, out)
				}
			}
			if strings.Join(warnings, "\n") != strings.Join(tc.warnings, "\n") {
				t.Errorf("warnings %q, want %q", warnings, tc.warnings)
			}
		})
	}
}

func TestMergeRobotsRefuses(t *testing.T) {
	for name, origin := range map[string][]byte{
		"huge":      bytes.Repeat([]byte("Disallow: /a\n"), MaxRobotsBytes/12),
		"html":      []byte("<!doctype html><html><body>Not found</body></html>"),
		"binary":    {0x1f, 0x8b, 0x08, 0x00, 0x00},
		"not utf-8": []byte("User-agent: *\nDisallow: /\xff\n"),
		"malformed": []byte("hello world\nthis is not robots\nUser-agent: *\n"),
	} {
		t.Run(name, func(t *testing.T) {
			got, _, err := MergeRobots(origin, testAdditions())
			if err == nil {
				t.Errorf("merged a %s file:\n%s", name, got)
			}
		})
	}
}

func TestCrawlerTableIsConsistent(t *testing.T) {
	seen := map[string]CrawlerKind{}
	for kind, agents := range KnownCrawlers {
		if len(agents) < 3 {
			t.Errorf("%s: only %d agents", kind, len(agents))
		}
		for _, a := range agents {
			key := strings.ToLower(a)
			if prev, ok := seen[key]; ok {
				t.Errorf("%s listed under both %s and %s", a, prev, kind)
			}
			seen[key] = kind
			if strings.ContainsAny(a, " :*#") {
				t.Errorf("%q is not a product token", a)
			}
		}
	}
	for _, must := range []string{"GPTBot", "ClaudeBot", "Google-Extended", "CCBot", "Applebot-Extended", "Meta-ExternalAgent", "Bytespider",
		"OAI-SearchBot", "Claude-SearchBot", "PerplexityBot", "ChatGPT-User", "Claude-User", "Perplexity-User"} {
		if _, ok := seen[strings.ToLower(must)]; !ok {
			t.Errorf("%s missing from KnownCrawlers", must)
		}
	}
}

func TestContentSignal(t *testing.T) {
	for yaml, want := range map[string]string{
		"":                             "",
		"policy: {training: disallow}": "ai-train=no",
		"policy: {search: allow, user: allow, training: disallow}":            "search=yes, ai-input=yes, ai-train=no",
		"policy: {search: allow, content_signal: \"search=yes,ai-train=no\"}": "search=yes,ai-train=no",
	} {
		b := generateYAML(t, yaml, "https://cs.example")
		if b.ContentSignal != want || b.Robots.ContentSignal != want {
			t.Errorf("%q: Content-Signal %q, want %q", yaml, b.ContentSignal, want)
		}
	}
}

func BenchmarkMergeRobots(b *testing.B) {
	origin := bytes.Repeat([]byte("User-agent: *\nDisallow: /private/\nAllow: /private/public\n\n"), 200)
	add := testAdditions()
	b.SetBytes(int64(len(origin)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := MergeRobots(origin, add); err != nil {
			b.Fatal(err)
		}
	}
}

func TestPolicyEnforce(t *testing.T) {
	for yaml, want := range map[string]string{
		"policy: {training: disallow}":                    "",
		"policy: {training: disallow, enforce: off}":      "",
		"policy: {training: disallow, enforce: no}":       "",
		"policy: {training: disallow, enforce: claimed}":  `"enforce": "claimed"`,
		"policy: {training: disallow, enforce: Verified}": `"enforce": "verified"`,
	} {
		b := generateYAML(t, yaml, "https://enforce.example")
		card := string(b.Document(PathAgentsJSON).Body)
		if want == "" && strings.Contains(card, `"enforce"`) || want != "" && !strings.Contains(card, want) {
			t.Errorf("%s: agents.json %s", yaml, card)
		}
	}
}
