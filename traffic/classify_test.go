package traffic

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/traffic/agents"
)

const (
	uaChrome    = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36"
	uaGPTBot    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	uaUnknownUA = "FooFetcher/0.3 (internal; team@example.com)"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		ua      string
		class   Class
		name    string
		purpose string
		label   string
	}{
		{uaChrome, ClassBrowser, "browser", "browser", "browser"},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", ClassBrowser, "browser", "browser", "browser"},
		{"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", ClassBrowser, "browser", "browser", "browser"},
		{uaGPTBot, ClassAgent, "GPTBot", "training", "GPTBot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot", ClassAgent, "ChatGPT-User", "user", "ChatGPT-User"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)", ClassAgent, "OAI-SearchBot", "search", "OAI-SearchBot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)", ClassAgent, "ClaudeBot", "training", "ClaudeBot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)", ClassAgent, "Claude-User", "user", "Claude-User"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +https://www.anthropic.com)", ClassAgent, "Claude-SearchBot", "search", "Claude-SearchBot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)", ClassAgent, "PerplexityBot", "search", "PerplexityBot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)", ClassAgent, "Perplexity-User", "user", "Perplexity-User"},
		{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", ClassAgent, "Googlebot", "search", "Googlebot"},
		{"Googlebot-Image/1.0", ClassAgent, "Googlebot", "search", "Googlebot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36", ClassAgent, "Bingbot", "search", "Bingbot"},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", ClassAgent, "Applebot", "search", "Applebot"},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_1) AppleWebKit/600.2.5 (KHTML, like Gecko) Version/8.0.2 Safari/600.2.5 (Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)", ClassAgent, "Amazonbot", "training", "Amazonbot"},
		{"Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)", ClassAgent, "Bytespider", "training", "Bytespider"},
		{"CCBot/2.0 (https://commoncrawl.org/faq/)", ClassAgent, "CCBot", "training", "CCBot"},
		{"meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)", ClassAgent, "Meta-ExternalAgent", "training", "Meta-ExternalAgent"},
		{"meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)", ClassAgent, "Meta-ExternalFetcher", "user", "Meta-ExternalFetcher"},
		{"DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)", ClassAgent, "DuckAssistBot", "search", "DuckAssistBot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)", ClassAgent, "MistralAI-User", "user", "MistralAI-User"},
		{"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", ClassAgent, "facebookexternalhit", "user", "facebookexternalhit"},
		// Generic clients.
		{"curl/8.5.0", ClassTool, "curl", "tool", "curl"},
		{"Wget/1.21.4", ClassTool, "Wget", "tool", "Wget"},
		{"python-requests/2.32.3", ClassTool, "python-requests", "tool", "python-requests"},
		{"Python-urllib/3.12", ClassTool, "Python-urllib", "tool", "Python-urllib"},
		{"python-httpx/0.27.0", ClassTool, "python-httpx", "tool", "python-httpx"},
		{"Go-http-client/2.0", ClassTool, "Go-http-client", "tool", "Go-http-client"},
		{"node", ClassTool, "node", "tool", "node"},
		{"axios/1.7.2", ClassTool, "axios", "tool", "axios"},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36", ClassHeadless, "HeadlessChrome", "headless", "HeadlessChrome"},
		// Unknown bots and clients.
		{"Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)", ClassBot, "other", "bot", "other"},
		{"Mozilla/5.0 (compatible; YandexBot/3.0)", ClassBot, "other", "bot", "other"},
		{"Baiduspider", ClassBot, "other", "bot", "other"},
		{"SomeCrawler/1.0", ClassBot, "other", "bot", "other"},
		{uaUnknownUA, ClassUnknown, "other", "unknown", "other"},
		{"", ClassUnknown, "other", "unknown", "other"},
		// Not fooled: tokens must stand on their own.
		{"Mozilla/5.0 NotGPTBot/1.0", ClassBot, "other", "bot", "other"},
		{"Mozilla/5.0 GPTBotty/1.0", ClassBrowser, "browser", "browser", "browser"},
		{"Mozilla/5.0 (X-curl)", ClassBrowser, "browser", "browser", "browser"},
		{"MyApp node-fetch/1.0 (+https://github.com/bitinn/node-fetch)", ClassTool, "node-fetch", "tool", "node-fetch"},
		// An agent wins over a generic client in the same string.
		{"python-requests/2.31 GPTBot/1.0", ClassAgent, "GPTBot", "training", "GPTBot"},
		{"GPTBOT/1.0", ClassAgent, "GPTBot", "training", "GPTBot"},
	} {
		c := Classify(tc.ua)
		if c.Class != tc.class || c.Name() != tc.name || c.Purpose() != tc.purpose || c.Label() != tc.label {
			t.Errorf("Classify(%q) = %s %s %s %s, want %s %s %s %s", tc.ua, c.Class, c.Name(), c.Purpose(), c.Label(),
				tc.class, tc.name, tc.purpose, tc.label)
		}
	}
}

func TestClassifySigned(t *testing.T) {
	c := Default.ClassifySigned(uaChrome, `"https://chatgpt.com"`)
	if c.Class != ClassAgent || c.Name() != "ChatGPT Agent" || c.Purpose() != "agent" {
		t.Errorf("signed ChatGPT agent: %s %s", c.Class, c.Name())
	}
	if c := Default.ClassifySigned(uaChrome, `"https://example.com"`); c.Class != ClassBrowser {
		t.Errorf("unknown signer: %s", c.Class)
	}
}

func TestClassifierExtras(t *testing.T) {
	cl := NewClassifier(agents.FromTokens(agents.Training, "ExampleTrainer", "GPTBot")...)
	c := cl.Classify("ExampleTrainer/2.0 (+https://trainer.example)")
	if c.Class != ClassAgent || c.Name() != "ExampleTrainer" || c.Label() != OtherLabel || c.Purpose() != "training" {
		t.Errorf("extra agent: %s %s %s", c.Class, c.Name(), c.Label())
	}
	if c := cl.Classify(uaGPTBot); !c.Agent.Builtin() {
		t.Error("an extra shadowed the built-in GPTBot")
	}
	if c := Classify("ExampleTrainer/2.0"); c.Class != ClassUnknown {
		t.Errorf("default classifier knows a site's extra: %s", c.Class)
	}
}

func TestLabelsBounded(t *testing.T) {
	labels := Labels()
	for _, ua := range []string{uaChrome, uaGPTBot, uaUnknownUA, "curl/8", "x-bot", "", "ExampleTrainer/1"} {
		if l := Classify(ua).Label(); !slices.Contains(labels, l) {
			t.Errorf("label %q of %q not in Labels()", l, ua)
		}
	}
}

func TestClassifyAllocs(t *testing.T) {
	long := strings.Repeat("Mozilla/5.0 (X11) ", 200)
	for _, ua := range []string{uaChrome, uaGPTBot, uaUnknownUA, long} {
		if n := testing.AllocsPerRun(100, func() { Classify(ua) }); n != 0 {
			t.Errorf("Classify(%.30q) allocates %v times", ua, n)
		}
	}
}

func BenchmarkClassify(b *testing.B) {
	for _, bc := range []struct{ name, ua string }{
		{"browser", uaChrome},
		{"crawler", uaGPTBot},
		{"unknown", uaUnknownUA},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Classify(bc.ua)
			}
		})
		// A User-Agent seen for the first time: the scan alone.
		b.Run(bc.name+" uncached", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Default.classify(bc.ua)
			}
		})
	}
}

// TestClassifyCache: a remembered answer is the scan's answer, for agents
// (built-in and the site's), clients, bots, browsers and unknown clients,
// including a classifier with extra agents.
func TestClassifyCache(t *testing.T) {
	extra := agents.FromTokens(agents.Training, "ExampleTrainer")
	cl := NewClassifier(extra...)
	uas := []string{uaChrome, uaGPTBot, uaUnknownUA, "curl/8.5.0", "HeadlessChrome/120", "x-bot/1", "", "ExampleTrainer/1.0",
		strings.Repeat("Mozilla/5.0 (X11) ", 200)}
	for range 3 {
		for _, ua := range uas {
			if got, want := cl.Classify(ua), cl.classify(ua); got != want {
				t.Errorf("Classify(%.30q) = %+v, the scan says %+v", ua, got, want)
			}
		}
	}
	if c := cl.Classify("ExampleTrainer/1.0"); c.Agent == nil || c.Agent.Name != "ExampleTrainer" {
		t.Errorf("the site's agent, remembered: %+v", c)
	}
}

func FuzzClassify(f *testing.F) {
	for _, s := range []string{uaChrome, uaGPTBot, uaUnknownUA, "", "bot", "http:", "Googlebot-Image/1.0", "\xff\xfe"} {
		f.Add(s)
	}
	labels := Labels()
	f.Fuzz(func(t *testing.T, ua string) {
		c := Classify(ua)
		if again := Classify(ua); again != c || Default.classify(ua) != c {
			t.Fatalf("remembered %+v, first %+v, scan %+v", again, c, Default.classify(ua))
		}
		if !slices.Contains(labels, c.Label()) {
			t.Fatalf("label %q not bounded", c.Label())
		}
		if (c.Class == ClassAgent) != (c.Agent != nil) {
			t.Fatalf("class %s with agent %v", c.Class, c.Agent)
		}
		// Classification looks at the first maxUA bytes only.
		if len(ua) > maxUA && Classify(ua[:maxUA]) != c {
			t.Fatal("looked past maxUA")
		}
	})
}
