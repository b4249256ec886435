package sites

import (
	"bufio"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/manifest"
	"github.com/agentready/caddy-agentready/traffic"
	"github.com/agentready/caddy-agentready/traffic/agents"
)

// robotsRules reads a generated robots.txt: for each user-agent token
// (lower-cased) named in a group, whether that group disallows everything.
func robotsRules(text string) map[string]bool {
	out := map[string]bool{}
	var group []string
	inRules := false
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		switch k {
		case "user-agent":
			if inRules {
				group, inRules = nil, false
			}
			group = append(group, strings.ToLower(v))
			if _, seen := out[strings.ToLower(v)]; !seen {
				out[strings.ToLower(v)] = false
			}
		case "disallow", "allow":
			inRules = true
			if k == "disallow" && v == "/" {
				for _, a := range group {
					out[a] = true
				}
			}
		}
	}
	return out
}

// kindOf is the policy kind that governs a purpose (autonomous agents are
// governed by the user kind).
func kindOf(p agents.Purpose) string {
	switch p {
	case agents.Training:
		return "training"
	case agents.Search:
		return "search"
	}
	return "user"
}

// signalOf is the Content-Signal key of a policy kind.
var signalOf = map[string]string{"training": "ai-train", "search": "search", "user": "ai-input"}

// TestTrafficPolicyAgrees: what robots.txt, agents.json and the
// Content-Signal declare is what enforcement does, for every known agent,
// every combination of the three kinds (allow, disallow, unset), both
// enforcement modes, with and without agents named in extra_agents. The
// one intended difference: a user-triggered fetcher or autonomous agent is
// declared disallowed but only refused when the site names it.
func TestTrafficPolicyAgrees(t *testing.T) {
	perms := []string{"", "allow", "disallow"}
	named := []map[string][]string{nil, {"user": {"ChatGPT-User"}, "search": {"Googlebot"}}}
	checked := 0
	for _, tr := range perms {
		for _, se := range perms {
			for _, us := range perms {
				for _, mode := range []string{"claimed", "verified"} {
					for _, extra := range named {
						yaml := "site:\n  name: Acme\n  origin: https://acme.example\npolicy:\n  enforce: " + mode + "\n"
						for k, v := range map[string]string{"training": tr, "search": se, "user": us} {
							if v != "" {
								yaml += fmt.Sprintf("  %s: %s\n", k, v)
							}
						}
						if extra != nil {
							yaml += "  extra_agents:\n"
							for k, v := range extra {
								yaml += fmt.Sprintf("    %s: [%s]\n", k, strings.Join(v, ", "))
							}
						}
						name := fmt.Sprintf("training=%s,search=%s,user=%s,%s,named=%v", tr, se, us, mode, extra != nil)
						checked += checkPolicyAgrees(t, name, yaml, extra)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no agent checked")
	}
}

// declaredPolicy is what a site's generated documents declare: its
// robots.txt rules, the kinds agents.json allows or disallows, and the
// Content-Signal; with the enforcement the YAML's policy makes.
type declaredPolicy struct {
	rules    map[string]bool
	declared map[string]string
	signal   string
	pol      traffic.Policy
}

func checkPolicyAgrees(t *testing.T, name, yaml string, extra map[string][]string) int {
	t.Helper()
	d := declare(t, name, yaml)
	isNamed := func(a *agents.Agent) bool {
		for _, list := range extra {
			for _, tok := range list {
				if a.Named(tok) {
					return true
				}
			}
		}
		return false
	}
	n := 0
	for _, a := range agents.All() {
		checkAgentAgrees(t, name, d, a, a.Policy || isNamed(a), isNamed(a))
		n++
	}
	// No client that claims no agent is ever refused.
	for _, c := range []traffic.Classification{traffic.Classify("Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0"), traffic.Classify("curl/8.5.0")} {
		if traffic.Decide(d.pol, c, traffic.Unverified).Block {
			t.Errorf("%s: %s blocked", name, c.Name())
		}
	}
	if !slices.Contains([]string{"claimed", "verified"}, d.pol.Enforce.String()) {
		t.Errorf("%s: enforce %s", name, d.pol.Enforce)
	}
	return n
}

// declare generates the documents of the site yaml and reads its policy
// back out of them.
func declare(t *testing.T, name, yaml string) declaredPolicy {
	t.Helper()
	site, err := manifest.Parse([]byte(yaml), "site.yaml")
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, err := site.Generate(manifest.Env{Origin: "https://acme.example"})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	robots, _, err := b.MergeRobots(nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	rules := robotsRules(string(robots))
	var card struct {
		Policy *struct {
			Training      string `json:"training"`
			Search        string `json:"search"`
			UserInitiated string `json:"userInitiated"`
			ContentSignal string `json:"contentSignal"`
			Enforce       string `json:"enforce"`
		} `json:"policy"`
	}
	if doc := b.Document(manifest.PathAgentsJSON); doc != nil {
		if err := json.Unmarshal(doc.Body, &card); err != nil {
			t.Fatalf("%s: agents.json: %v", name, err)
		}
	}
	if card.Policy == nil {
		t.Fatalf("%s: agents.json states no policy", name)
	}
	declared := map[string]string{"training": card.Policy.Training, "search": card.Policy.Search, "user": card.Policy.UserInitiated}
	pol := Policy(site.Policy)
	if card.Policy.Enforce != pol.Enforce.String() {
		t.Errorf("%s: agents.json enforce %q, enforcement %q", name, card.Policy.Enforce, pol.Enforce)
	}
	return declaredPolicy{rules: rules, declared: declared, signal: b.ContentSignal, pol: pol}
}

// checkAgentAgrees checks that robots.txt, the Content-Signal and the
// enforcement agree on agent a; governed: the policy covers it, named:
// the site names it in extra_agents.
func checkAgentAgrees(t *testing.T, name string, d declaredPolicy, a *agents.Agent, governed, named bool) {
	t.Helper()
	rules, declared, pol := d.rules, d.declared, d.pol
	c := traffic.Classification{Class: traffic.ClassAgent, Agent: a}
	kind := kindOf(a.Purpose)
	disallowed := governed && declared[kind] == "disallow"
	// robots.txt: a governed agent's tokens sit in its kind's group,
	// disallowed exactly when the policy disallows the kind.
	for _, tok := range a.Robots {
		got, listed := rules[strings.ToLower(tok)]
		switch {
		case governed && declared[kind] != "" && !listed:
			t.Errorf("%s: robots.txt does not name %s (%s)", name, tok, a.Name)
		case listed && got != disallowed:
			t.Errorf("%s: robots.txt disallows %s: %v, policy: %v", name, tok, got, disallowed)
		case !governed && listed:
			t.Errorf("%s: robots.txt names %s, which the policy does not govern", name, tok)
		}
	}
	// The Content-Signal says no to the kind exactly when it is disallowed.
	if governed && declared[kind] != "" {
		no := strings.Contains(d.signal, signalOf[kind]+"=no")
		if no != disallowed {
			t.Errorf("%s: Content-Signal %q for %s, disallowed: %v", name, d.signal, a.Name, disallowed)
		}
	}
	// Enforcement refuses what is declared disallowed, but a
	// user-triggered fetch only when the site names the agent.
	want := disallowed && (!a.Purpose.UserTriggered() || named)
	if v := traffic.Decide(pol, c, traffic.Verified); v.Block != want {
		t.Errorf("%s: %s (verified) blocked: %v (%s), declared: %v", name, a.Name, v.Block, v.Reason, want)
	}
	unverified := traffic.Decide(pol, c, traffic.Unverified)
	if wantU := want && pol.Enforce == traffic.EnforceClaimed; unverified.Block != wantU {
		t.Errorf("%s: %s (unverified) blocked: %v (%s), want %v", name, a.Name, unverified.Block, unverified.Reason, wantU)
	}
}
