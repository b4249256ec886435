package traffic

import (
	"fmt"
	"strings"

	"github.com/agentready/caddy-agentready/traffic/agents"
)

// Enforce is how the crawler policy is enforced (site.yaml policy.enforce).
type Enforce uint8

// The enforcement modes.
const (
	// EnforceOff only declares the policy (robots.txt, Content-Signal,
	// agents.json); nothing is blocked. The default.
	EnforceOff Enforce = iota
	// EnforceClaimed blocks clients that claim (by User-Agent or
	// Signature-Agent) to be an agent of a disallowed purpose.
	EnforceClaimed
	// EnforceVerified blocks only verified agents of a disallowed purpose,
	// plus clients that failed verification (spoofers).
	EnforceVerified
)

var enforceNames = [...]string{"off", "claimed", "verified"}

// String is "off", "claimed" or "verified".
func (e Enforce) String() string {
	if int(e) < len(enforceNames) {
		return enforceNames[e]
	}
	return "off"
}

// ParseEnforce reads "off" (or ""), "claimed" or "verified".
func ParseEnforce(s string) (Enforce, error) {
	if s == "" {
		return EnforceOff, nil
	}
	for i, n := range enforceNames {
		if strings.EqualFold(n, s) {
			return Enforce(i), nil
		}
	}
	return EnforceOff, fmt.Errorf("enforce: want off, claimed or verified, got %q", s)
}

// Policy is what Decide needs of the site's crawler policy (manifest.Policy):
// which kinds are disallowed, the enforcement mode, and the tokens the site
// names itself.
type Policy struct {
	// Enforce is the enforcement mode.
	Enforce Enforce
	// Training, Search and User are true when the policy disallows that
	// kind ("disallow"); unset or "allow" is false. Autonomous agents fall
	// under User.
	Training, Search, User bool
	// Named are the user-agent tokens the site names explicitly
	// (policy.extra_agents of every kind). A user-triggered fetcher or
	// agent is blocked only when named here; an agent the data file does
	// not govern (a general search engine) is governed once named.
	Named []string
}

// Reason says why Decide decided as it did.
type Reason uint8

// The reasons.
const (
	// ReasonOff: enforcement is off.
	ReasonOff Reason = iota
	// ReasonNotAgent: the client claims no known agent.
	ReasonNotAgent
	// ReasonNotGoverned: the agent is not governed by the AI policy and the
	// site does not name it.
	ReasonNotGoverned
	// ReasonAllowed: the policy does not disallow the agent's purpose.
	ReasonAllowed
	// ReasonUserTriggered: a person asked for the fetch, and the site does
	// not name the agent.
	ReasonUserTriggered
	// ReasonUnverified: enforce is verified and the claim is not verified.
	ReasonUnverified
	// ReasonDisallowed: blocked, the policy disallows the agent's purpose.
	ReasonDisallowed
	// ReasonSpoofed: blocked, the client failed verification.
	ReasonSpoofed
)

var reasonNames = [...]string{"off", "not-agent", "not-governed", "allowed", "user-triggered", "unverified", "disallowed", "spoofed"}

// String is the reason's short name ("disallowed", "spoofed", …), fit for
// a log field or a metrics label.
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "unknown"
}

// A Decision is whether to answer a request with 403, and why.
type Decision struct {
	// Block is true to answer 403 (counted as blocked).
	Block bool
	// Reason says why.
	Reason Reason
}

// Decide applies the crawler policy to a classified, verified request. It
// is pure and allocation-free. The rules, in order:
//
//   - enforce off, or a client that claims no agent: allowed;
//   - enforce verified and a client that failed verification (a spoofer
//     of any agent): blocked;
//   - an agent the AI policy does not govern (Googlebot, Bingbot…) and the
//     site does not name: allowed;
//   - a purpose the policy does not disallow: allowed;
//   - a user-triggered fetcher or autonomous agent the site does not name:
//     allowed (a person asked for the page);
//   - enforce claimed: blocked; enforce verified: blocked only when verified.
//
// Robots.txt names the same governed agents (agents.RobotsTokens), so what
// it declares and what is enforced agree, except that user-triggered
// fetchers are declared but only enforced when named.
func Decide(p Policy, c Classification, v Verification) Decision {
	a := c.Agent
	switch {
	case p.Enforce == EnforceOff:
		return Decision{Reason: ReasonOff}
	case a == nil:
		return Decision{Reason: ReasonNotAgent}
	case p.Enforce == EnforceVerified && v == Failed:
		return Decision{Block: true, Reason: ReasonSpoofed}
	}
	named := false
	for _, t := range p.Named {
		if a.Named(t) {
			named = true
			break
		}
	}
	if !a.Policy && !named {
		return Decision{Reason: ReasonNotGoverned}
	}
	disallowed := false
	switch a.Purpose {
	case agents.Training:
		disallowed = p.Training
	case agents.Search:
		disallowed = p.Search
	case agents.User, agents.Autonomous:
		disallowed = p.User
	}
	switch {
	case !disallowed:
		return Decision{Reason: ReasonAllowed}
	case a.Purpose.UserTriggered() && !named:
		return Decision{Reason: ReasonUserTriggered}
	case p.Enforce == EnforceVerified && v != Verified:
		return Decision{Reason: ReasonUnverified}
	}
	return Decision{Block: true, Reason: ReasonDisallowed}
}

// purposeText describes a purpose for the block message.
var purposeText = map[agents.Purpose]string{
	agents.Training:   "collecting pages to train AI models",
	agents.Search:     "indexing pages for AI search",
	agents.User:       "fetching pages for AI assistants",
	agents.Autonomous: "AI agents browsing for a person",
}

// BlockBody is the short plain-text body of a 403 from Decide: what was
// refused and why, where the policy is, and whom to contact. policyURL and
// contact may be "" to leave their line out.
func BlockBody(c Classification, d Decision, policyURL, contact string) string {
	var b strings.Builder
	name := c.Name()
	switch {
	case d.Reason == ReasonSpoofed && c.Agent != nil:
		fmt.Fprintf(&b, "Forbidden: this request says it is %s, but it does not come from an address %s publishes for it.\n", name, c.Agent.Operator)
	case c.Agent != nil:
		fmt.Fprintf(&b, "Forbidden: this site's policy does not allow %s (%s).\n", purposeText[c.Agent.Purpose], name)
	default:
		b.WriteString("Forbidden by this site's crawler policy.\n")
	}
	if policyURL != "" {
		fmt.Fprintf(&b, "Policy: %s\n", policyURL)
	}
	if contact != "" {
		fmt.Fprintf(&b, "Contact: %s\n", contact)
	}
	return b.String()
}
