package agents

import (
	"slices"
	"strings"
	"testing"
)

func TestDataFile(t *testing.T) {
	if len(all) < 30 {
		t.Fatalf("only %d agents", len(all))
	}
	for _, must := range []string{"GPTBot", "OAI-SearchBot", "ChatGPT-User", "ChatGPT Agent", "ClaudeBot",
		"Claude-SearchBot", "Claude-User", "Google-Extended", "Googlebot", "Google-CloudVertexBot",
		"PerplexityBot", "Perplexity-User", "Applebot", "Applebot-Extended", "Amazonbot", "Bytespider", "CCBot",
		"Meta-ExternalAgent", "Meta-ExternalFetcher", "FacebookBot", "DuckAssistBot", "Bingbot",
		"MistralAI-User", "cohere-ai", "YouBot", "Diffbot"} {
		if ByName(must) == nil {
			t.Errorf("%s missing", must)
		}
	}
	for _, a := range all {
		if a.Docs == "" && a.Unconfirmed == "" {
			t.Errorf("%s: neither docs nor unconfirmed", a.Name)
		}
		if !a.Builtin() {
			t.Errorf("%s: not marked builtin", a.Name)
		}
	}
	// Spot checks of entries the traffic view depends on.
	if g := ByName("Google-Extended"); len(g.UA) != 0 || !slices.Equal(g.Robots, []string{"Google-Extended"}) {
		t.Errorf("Google-Extended is a robots token only: %+v", g)
	}
	if g := ByName("googlebot"); g.Policy || g.Verify.Method() != "ranges+rdns" {
		t.Errorf("Googlebot: policy %v, verify %q", g.Policy, g.Verify.Method())
	}
	if g := ByName("GPTBot"); g.Verify.Method() != "ranges" || g.Purpose != Training {
		t.Errorf("GPTBot: %+v", g)
	}
}

func TestParseRejects(t *testing.T) {
	for name, data := range map[string]string{
		"version":       "version: 2\nagents: []\n",
		"unknown field": "version: 1\nagents: [{name: X, operator: O, product: P, purpose: training, docs: '', unconfirmed: u, colour: red}]\n",
		"purpose":       "version: 1\nagents: [{name: X, operator: O, product: P, purpose: fun, docs: 'https://x'}]\n",
		"no docs":       "version: 1\nagents: [{name: X, operator: O, product: P, purpose: training}]\n",
		"empty docs":    "version: 1\nagents: [{name: X, operator: O, product: P, purpose: training, docs: ''}]\n",
		"http docs":     "version: 1\nagents: [{name: X, operator: O, product: P, purpose: training, docs: 'http://x'}]\n",
		"dup token":     "version: 1\nagents: [{name: X, operator: O, product: P, purpose: training, docs: 'https://x'}, {name: Y, operator: O, product: P, purpose: search, docs: 'https://x', ua: [x]}]\n",
		"bad token":     "version: 1\nagents: [{name: X, operator: O, product: P, purpose: training, docs: 'https://x', ua: ['a/b']}]\n",
		"bad rdns":      "version: 1\nagents: [{name: X, operator: O, product: P, purpose: training, docs: 'https://x', verify: {rdns: [.Example.com]}}]\n",
		"bad client":    "version: 1\nclients: [{name: curl, kind: gadget}]\n",
		"nothing":       "version: 1\nagents: [{name: X, operator: O, product: P, purpose: training, docs: 'https://x', ua: [], robots: []}]\n",
	} {
		if _, _, err := parse([]byte(data)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

func TestRobotsTokens(t *testing.T) {
	training := RobotsTokens(Training)
	// The order the manifest's robots.txt goldens were written with.
	want := []string{"GPTBot", "ClaudeBot", "anthropic-ai", "Google-Extended", "Applebot-Extended", "CCBot",
		"Meta-ExternalAgent", "Bytespider", "cohere-training-data-crawler", "AI2Bot", "Amazonbot", "Diffbot",
		"PanguBot", "Timpibot", "omgili"}
	if !slices.Equal(training[:len(want)], want) {
		t.Errorf("training tokens %v", training)
	}
	user := RobotsTokens(User, Autonomous)
	for _, no := range []string{"facebookexternalhit", "ChatGPT Agent"} {
		if slices.Contains(user, no) {
			t.Errorf("%s in the user group", no)
		}
	}
	for _, no := range []string{"Googlebot", "bingbot", "Applebot"} {
		if slices.Contains(RobotsTokens(Search), no) {
			t.Errorf("%s governed by the AI search policy", no)
		}
	}
}

func TestIsTokenAndNamed(t *testing.T) {
	for s, want := range map[string]bool{"GPTBot": true, "ChatGPT Agent": true, "a b": true, "": false, " a": false,
		"a  b": false, "a/b": false, "a:b": false, strings.Repeat("a", 65): false, "Go-http-client": true} {
		if IsToken(s) != want {
			t.Errorf("IsToken(%q) = %v", s, !want)
		}
	}
	a := ByName("Meta-ExternalAgent")
	if !a.Named("meta-externalagent") || a.Named("meta") {
		t.Error("Named")
	}
	ex := FromTokens(Training, "ExampleBot", "bad/token")
	if len(ex) != 1 || ex[0].Builtin() || !ex[0].Policy {
		t.Errorf("FromTokens: %+v", ex)
	}
}
