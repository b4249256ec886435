// Package agents is the table of known AI crawlers, fetchers and agents,
// and of the generic clients (HTTP libraries, headless browsers) the
// traffic counters tell apart. The table is the embedded agents.yaml, one
// entry per agent with its operator, product, purpose, robots.txt tokens,
// User-Agent tokens, how the operator lets a site verify it (published
// IP-range lists or forward-confirmed reverse-DNS host suffixes) and the
// URL of the operator's documentation it came from.
//
// It is a leaf package, imported by both manifest (the robots.txt groups
// of the site policy) and traffic (classification, verification and
// enforcement), so that what robots.txt says and what enforcement does come
// from one list. It imports nothing of this module.
//
// The file is parsed once, at init; a malformed file panics there, and the
// package test checks every entry.
package agents

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

//go:embed agents.yaml
var agentsYAML []byte

// Purpose is what an agent fetches pages for.
type Purpose string

// The purposes. The site policy (manifest) has three kinds of crawler;
// Autonomous is governed by the user kind, as a person asked for the fetch.
const (
	// Training collects pages to train models (Content-Signal ai-train).
	Training Purpose = "training"
	// Search indexes pages for AI search and citation (Content-Signal search).
	Search Purpose = "search"
	// User fetches a page a person asked an assistant to open
	// (Content-Signal ai-input).
	User Purpose = "user"
	// Autonomous is an autonomous or browser agent acting for a person.
	Autonomous Purpose = "agent"
)

// Purposes lists the purposes in their display order.
var Purposes = []Purpose{Training, Search, User, Autonomous}

// UserTriggered reports whether a person asked for the fetch (User or
// Autonomous).
func (p Purpose) UserTriggered() bool { return p == User || p == Autonomous }

// Verify says how an operator lets a site check that a client claiming to
// be its agent is.
type Verify struct {
	// Ranges are the URLs of the operator's published IP-range lists.
	Ranges []string `yaml:"ranges"`
	// RDNS are host suffixes for forward-confirmed reverse DNS: the
	// address's PTR name must end in one (on a label boundary) and resolve
	// back to the address.
	RDNS []string `yaml:"rdns"`
}

// Method is "ranges", "rdns", "ranges+rdns" or "" for none.
func (v Verify) Method() string {
	var m []string
	if len(v.Ranges) > 0 {
		m = append(m, "ranges")
	}
	if len(v.RDNS) > 0 {
		m = append(m, "rdns")
	}
	return strings.Join(m, "+")
}

// An Agent is one known crawler, fetcher or agent. Agents from the data
// file are shared, read-only values; compare them by pointer.
type Agent struct {
	// Name is the unique display name and the metrics label value.
	Name string
	// Operator is the company or project that runs it.
	Operator string
	// Product is the product it serves.
	Product string
	// Purpose is what it fetches pages for.
	Purpose Purpose
	// Policy is true when the site policy of its purpose governs it
	// (robots.txt groups, enforcement); false for general search engines
	// and fetchers the AI policy does not speak for.
	Policy bool
	// Robots are its robots.txt product tokens.
	Robots []string
	// UA are the product tokens that identify it in a User-Agent header,
	// matched without regard to ASCII case on token boundaries.
	UA []string
	// SignatureAgent is the Signature-Agent header value of an agent that
	// signs its requests (RFC 9421), "" for none.
	SignatureAgent string
	// Verify is how the operator lets a site verify it.
	Verify Verify
	// Docs is the operator's documentation of the agent.
	Docs string
	// Unconfirmed says what the operator's documentation did not confirm.
	Unconfirmed string

	builtin bool
}

// Builtin reports whether the agent comes from the embedded data file (as
// opposed to a site's own extra_agents).
func (a *Agent) Builtin() bool { return a != nil && a.builtin }

// Named reports whether token is one of the agent's names (its Name, a
// robots token or a User-Agent token), without regard to ASCII case.
func (a *Agent) Named(token string) bool {
	if strings.EqualFold(a.Name, token) {
		return true
	}
	for _, list := range [][]string{a.Robots, a.UA} {
		for _, t := range list {
			if strings.EqualFold(t, token) {
				return true
			}
		}
	}
	return false
}

// ClientKind is the kind of a generic client.
type ClientKind string

// The client kinds.
const (
	// Tool is an HTTP library or command-line tool (curl, python-requests).
	Tool ClientKind = "tool"
	// Headless is an automated browser (HeadlessChrome).
	Headless ClientKind = "headless"
)

// A Client is a generic client recognised by a User-Agent token.
type Client struct {
	// Name is its display name, the metrics label value and the
	// User-Agent token matched (without regard to ASCII case).
	Name string
	// Kind is tool or headless.
	Kind ClientKind
}

// file is the shape of agents.yaml.
type file struct {
	Version int         `yaml:"version"`
	Agents  []fileAgent `yaml:"agents"`
	Clients []Client    `yaml:"clients"`
}

type fileAgent struct {
	Name           string    `yaml:"name"`
	Operator       string    `yaml:"operator"`
	Product        string    `yaml:"product"`
	Purpose        Purpose   `yaml:"purpose"`
	Policy         *bool     `yaml:"policy"`
	Robots         *[]string `yaml:"robots"`
	UA             *[]string `yaml:"ua"`
	SignatureAgent string    `yaml:"signature_agent"`
	Verify         Verify    `yaml:"verify"`
	Docs           *string   `yaml:"docs"`
	Unconfirmed    string    `yaml:"unconfirmed"`
}

var (
	all     []*Agent
	clients []*Client
)

func init() {
	var err error
	all, clients, err = parse(agentsYAML)
	if err != nil {
		panic("traffic/agents: embedded agents.yaml: " + err.Error())
	}
}

// parse reads and checks a data file.
func parse(data []byte) ([]*Agent, []*Client, error) {
	var f file
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, nil, err
	}
	if f.Version != 1 {
		return nil, nil, fmt.Errorf("version %d, want 1", f.Version)
	}
	var errs []error
	seen := map[string]string{}
	claim := func(owner, token string) {
		k := strings.ToLower(token)
		if prev, ok := seen[k]; ok && prev != owner {
			errs = append(errs, fmt.Errorf("%s: token %q also belongs to %s", owner, token, prev))
		}
		seen[k] = owner
	}
	var out []*Agent
	for i, fa := range f.Agents {
		a := &Agent{Name: fa.Name, Operator: fa.Operator, Product: fa.Product, Purpose: fa.Purpose,
			Policy: fa.Policy == nil || *fa.Policy, Robots: []string{fa.Name}, UA: []string{fa.Name},
			SignatureAgent: fa.SignatureAgent, Verify: fa.Verify, Unconfirmed: fa.Unconfirmed, builtin: true}
		if fa.Robots != nil {
			a.Robots = *fa.Robots
		}
		if fa.UA != nil {
			a.UA = *fa.UA
		}
		where := fmt.Sprintf("agents[%d] %s", i, a.Name)
		switch {
		case a.Name == "" || a.Operator == "" || a.Product == "":
			errs = append(errs, fmt.Errorf("%s: name, operator and product are required", where))
		case !slices.Contains(Purposes, a.Purpose):
			errs = append(errs, fmt.Errorf("%s: purpose %q is not one of %v", where, a.Purpose, Purposes))
		case fa.Docs == nil:
			errs = append(errs, fmt.Errorf("%s: docs is required (\"\" with unconfirmed when none exists)", where))
		case *fa.Docs == "" && a.Unconfirmed == "":
			errs = append(errs, fmt.Errorf("%s: no docs URL and no unconfirmed note", where))
		case *fa.Docs != "" && !strings.HasPrefix(*fa.Docs, "https://"):
			errs = append(errs, fmt.Errorf("%s: docs %q is not an https URL", where, *fa.Docs))
		}
		if fa.Docs != nil {
			a.Docs = *fa.Docs
		}
		if len(a.UA) == 0 && len(a.Robots) == 0 && a.SignatureAgent == "" {
			errs = append(errs, fmt.Errorf("%s: neither a robots, a User-Agent token nor a Signature-Agent", where))
		}
		for _, t := range append(slices.Clone(a.Robots), a.UA...) {
			if !IsToken(t) {
				errs = append(errs, fmt.Errorf("%s: %q is not a product token", where, t))
			}
			claim(a.Name, t)
		}
		for _, u := range a.Verify.Ranges {
			if !strings.HasPrefix(u, "https://") {
				errs = append(errs, fmt.Errorf("%s: range list %q is not an https URL", where, u))
			}
		}
		for _, s := range a.Verify.RDNS {
			if s == "" || strings.HasPrefix(s, ".") || strings.ContainsAny(s, " /*") || s != strings.ToLower(s) {
				errs = append(errs, fmt.Errorf("%s: rdns suffix %q is not a lower-case domain", where, s))
			}
		}
		claim(a.Name, a.Name)
		out = append(out, a)
	}
	var cl []*Client
	for i := range f.Clients {
		c := f.Clients[i]
		if !IsToken(c.Name) || (c.Kind != Tool && c.Kind != Headless) {
			errs = append(errs, fmt.Errorf("clients[%d] %s: bad name or kind %q", i, c.Name, c.Kind))
		}
		claim(c.Name, c.Name)
		cl = append(cl, &c)
	}
	return out, cl, errors.Join(errs...)
}

// IsToken reports whether s is a user-agent product token: 1 to 64 visible
// ASCII characters, none of which is a separator of RFC 9110 §5.6.2 other
// than "-", "." and "_" (and, for "ChatGPT Agent"-style display names, no
// leading or trailing space).
func IsToken(s string) bool {
	if s == "" || len(s) > 64 || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '.', c == '_':
		case c == ' ' && s[i-1] != ' ':
		default:
			return false
		}
	}
	return true
}

// All returns the agents of the data file in file order. The slice is a
// copy; the agents are shared and must not be modified.
func All() []*Agent { return slices.Clone(all) }

// Clients returns the generic clients of the data file in file order.
func Clients() []*Client { return slices.Clone(clients) }

// ByName returns the agent of that name (ASCII case ignored), or nil.
func ByName(name string) *Agent {
	for _, a := range all {
		if strings.EqualFold(a.Name, name) {
			return a
		}
	}
	return nil
}

// ByRobotsToken returns the policy-governed agent that answers to token in
// robots.txt (ASCII case ignored), or nil.
func ByRobotsToken(token string) *Agent {
	for _, a := range all {
		if a.Policy && slices.ContainsFunc(a.Robots, func(t string) bool { return strings.EqualFold(t, token) }) {
			return a
		}
	}
	return nil
}

// Kind is the site policy's kind of crawler that governs p: training,
// search, or user (for User and Autonomous, which a person asked for).
func (p Purpose) Kind() string {
	if p.UserTriggered() {
		return string(User)
	}
	return string(p)
}

// RobotsTokens returns the robots.txt tokens of the policy-governed agents
// of the given purposes, in file order, without duplicates. This is what
// the site policy names in robots.txt (manifest.KnownCrawlers).
func RobotsTokens(purposes ...Purpose) []string {
	var out []string
	for _, a := range all {
		if !a.Policy || !slices.Contains(purposes, a.Purpose) {
			continue
		}
		for _, t := range a.Robots {
			if !slices.ContainsFunc(out, func(s string) bool { return strings.EqualFold(s, t) }) {
				out = append(out, t)
			}
		}
	}
	return out
}

// SiteConfigured is the Operator of the agents FromTokens makes: a site's
// own, made again on every configuration load.
const SiteConfigured = "site configuration"

// FromTokens makes site-defined agents (policy.extra_agents) for tokens the
// data file does not know: each is governed by the policy of purpose and
// is matched by its token in robots.txt and User-Agent. Tokens that are not
// product tokens are skipped.
func FromTokens(purpose Purpose, tokens ...string) []*Agent {
	var out []*Agent
	for _, t := range tokens {
		if !IsToken(t) || strings.Contains(t, " ") {
			continue
		}
		out = append(out, &Agent{Name: t, Operator: SiteConfigured, Product: t, Purpose: purpose,
			Policy: true, Robots: []string{t}, UA: []string{t}})
	}
	return out
}
