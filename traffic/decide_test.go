package traffic

import (
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/traffic/agents"
)

func TestDecide(t *testing.T) {
	gpt := agentClass("GPTBot")           // training, governed
	search := agentClass("OAI-SearchBot") // search, governed
	user := agentClass("ChatGPT-User")    // user-triggered, governed
	agent := agentClass("ChatGPT Agent")  // autonomous, governed
	googlebot := agentClass("Googlebot")  // search, not governed
	extra := NewClassifier(agents.FromTokens(agents.Training, "ExampleTrainer")...).Classify("ExampleTrainer/1")
	browser, curl := Classify(uaChrome), Classify("curl/8")

	noTraining := Policy{Enforce: EnforceClaimed, Training: true}
	noTrainingV := Policy{Enforce: EnforceVerified, Training: true}
	noUser := Policy{Enforce: EnforceClaimed, User: true}
	noUserNamed := Policy{Enforce: EnforceClaimed, User: true, Named: []string{"chatgpt-user"}}
	noSearch := Policy{Enforce: EnforceClaimed, Search: true}
	noSearchNamedGoogle := Policy{Enforce: EnforceClaimed, Search: true, Named: []string{"Googlebot"}}
	noTrainingExtra := Policy{Enforce: EnforceClaimed, Training: true, Named: []string{"ExampleTrainer"}}

	for _, tc := range []struct {
		name   string
		p      Policy
		c      Classification
		v      Verification
		block  bool
		reason Reason
	}{
		{"off never blocks", Policy{Training: true, Search: true, User: true}, gpt, Verified, false, ReasonOff},
		{"off ignores spoofers", Policy{Training: true}, gpt, Failed, false, ReasonOff},
		{"browser", noTraining, browser, Unverified, false, ReasonNotAgent},
		{"generic client", noTraining, curl, Unverified, false, ReasonNotAgent},
		{"claimed blocks a claim", noTraining, gpt, Unverified, true, ReasonDisallowed},
		{"claimed blocks verified", noTraining, gpt, Verified, true, ReasonDisallowed},
		{"claimed blocks a spoofer of a disallowed purpose", noTraining, gpt, Failed, true, ReasonDisallowed},
		{"claimed lets a spoofer of an allowed purpose pass", noTraining, search, Failed, false, ReasonAllowed},
		{"allowed purpose", noTraining, search, Verified, false, ReasonAllowed},
		{"verified blocks verified", noTrainingV, gpt, Verified, true, ReasonDisallowed},
		{"verified lets unverified pass", noTrainingV, gpt, Unverified, false, ReasonUnverified},
		{"verified blocks spoofers", noTrainingV, gpt, Failed, true, ReasonSpoofed},
		{"verified blocks spoofers of allowed purposes", noTrainingV, search, Failed, true, ReasonSpoofed},
		{"verified blocks fake googlebot", noTrainingV, googlebot, Failed, true, ReasonSpoofed},
		{"verified lets real googlebot pass", noTrainingV, googlebot, Verified, false, ReasonNotGoverned},
		{"user-triggered never blocked unless named", noUser, user, Verified, false, ReasonUserTriggered},
		{"autonomous agents count as user-triggered", noUser, agent, Unverified, false, ReasonUserTriggered},
		{"user-triggered named is blocked", noUserNamed, user, Unverified, true, ReasonDisallowed},
		{"naming one fetcher does not name another", noUserNamed, agentClass("Claude-User"), Unverified, false, ReasonUserTriggered},
		{"user named but user allowed", Policy{Enforce: EnforceClaimed, Named: []string{"ChatGPT-User"}}, user, Verified, false, ReasonAllowed},
		{"search engine not governed", noSearch, googlebot, Verified, false, ReasonNotGoverned},
		{"search engine named is governed", noSearchNamedGoogle, googlebot, Verified, true, ReasonDisallowed},
		{"AI search disallowed", noSearch, search, Unverified, true, ReasonDisallowed},
		{"site extra agent", noTrainingExtra, extra, Unverified, true, ReasonDisallowed},
		{"verified mode with a named user fetcher", Policy{Enforce: EnforceVerified, User: true, Named: []string{"ChatGPT-User"}}, user, Unverified, false, ReasonUnverified},
	} {
		d := Decide(tc.p, tc.c, tc.v)
		if d.Block != tc.block || d.Reason != tc.reason {
			t.Errorf("%s: %v %s, want %v %s", tc.name, d.Block, d.Reason, tc.block, tc.reason)
		}
	}
	p := Policy{Enforce: EnforceVerified, Training: true, Named: []string{"X"}}
	if n := testing.AllocsPerRun(100, func() { Decide(p, gpt, Verified) }); n != 0 {
		t.Errorf("Decide allocates %v times", n)
	}
}

func TestParseEnforce(t *testing.T) {
	for in, want := range map[string]Enforce{"": EnforceOff, "off": EnforceOff, "claimed": EnforceClaimed, "Verified": EnforceVerified} {
		if got, err := ParseEnforce(in); err != nil || got != want {
			t.Errorf("ParseEnforce(%q) = %s, %v", in, got, err)
		}
		if got, _ := ParseEnforce(want.String()); got != want {
			t.Errorf("%s does not round-trip", want)
		}
	}
	if _, err := ParseEnforce("strict"); err == nil {
		t.Error("accepted strict")
	}
	if Enforce(9).String() != "off" || Reason(99).String() != "unknown" {
		t.Error("out-of-range names")
	}
}

func TestBlockBody(t *testing.T) {
	gpt := agentClass("GPTBot")
	body := BlockBody(gpt, Decision{Block: true, Reason: ReasonDisallowed}, "https://site.example/agents.json", "mailto:web@site.example")
	for _, want := range []string{"train AI models", "GPTBot", "Policy: https://site.example/agents.json", "Contact: mailto:web@site.example"} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
	spoof := BlockBody(gpt, Decision{Block: true, Reason: ReasonSpoofed}, "", "")
	if !strings.Contains(spoof, "OpenAI") || strings.Contains(spoof, "Policy:") || len(spoof) > 200 {
		t.Errorf("spoof body:\n%s", spoof)
	}
}
