package sites

import (
	"io"
	"net/http"
	"strconv"

	"github.com/agentready/caddy-agentready/internal/telemetry"
	"github.com/agentready/caddy-agentready/manifest"
	"github.com/agentready/caddy-agentready/traffic"
	"github.com/agentready/caddy-agentready/traffic/agents"
)

// Use is one config's use of a site's traffic state: what it classifies
// with, what it enforces, and whether it counts.
type Use struct {
	// Site is the state counted into.
	Site *Site
	// Counting is whether the requests are counted (traffic not off).
	Counting bool
	// AskPath is the path of /ask (a request to it is counted as form ask).
	AskPath string

	classifier *traffic.Classifier
	policy     traffic.Policy
	signal     string // Content-Signal of a 403, "" for none
	contact    string
	policyURL  string // the robots.txt of site.origin, "" to use the request's host
}

// UseConfig is what a Use takes of the config.
type UseConfig struct {
	// Site is the YAML: its policy and extra_agents, contacts and origin.
	Site *manifest.Site
	// ContentSignal is the handler's content_signal ("-": none).
	ContentSignal string
	// AskPath is the path of /ask.
	AskPath string
	// Counting is whether requests are counted.
	Counting bool
}

// NewUse is cfg's use of site.
func NewUse(site *Site, cfg UseConfig) *Use {
	m := cfg.Site
	p := m.Policy.ExtraAgents
	extra := append(append(agents.FromTokens(agents.Training, p.Training...),
		agents.FromTokens(agents.Search, p.Search...)...), agents.FromTokens(agents.User, p.User...)...)
	u := &Use{Site: site, classifier: traffic.NewClassifier(extra...), policy: Policy(m.Policy), Counting: cfg.Counting,
		AskPath: cfg.AskPath, contact: m.Contacts.Email, signal: cfg.ContentSignal}
	if u.signal == "-" {
		u.signal = ""
	}
	if u.contact != "" {
		u.contact = "mailto:" + u.contact
	} else if m.Contacts.Page != "" {
		u.contact = m.Contacts.Page
	}
	if o := m.Info.Origin; o != "" {
		u.policyURL = o + "/robots.txt"
	}
	return u
}

// Policy is what traffic.Decide needs of the YAML's crawler policy.
func Policy(p manifest.Policy) traffic.Policy {
	e, _ := traffic.ParseEnforce(string(p.Enforce)) // validated by manifest
	var named []string
	named = append(named, p.ExtraAgents.Training...)
	named = append(named, p.ExtraAgents.Search...)
	named = append(named, p.ExtraAgents.User...)
	return traffic.Policy{Enforce: e, Training: p.Training == manifest.Disallow, Search: p.Search == manifest.Disallow,
		User: p.User == manifest.Disallow, Named: named}
}

// Classify reads the client of a request from its headers: User-Agent
// and Signature-Agent. It allocates nothing for a browser.
func (u *Use) Classify(h http.Header) traffic.Classification {
	// The header map is read directly: the keys are canonical already, and
	// Header.Get would canonicalize them again (450 instructions).
	var ua, sig string
	if v := h["User-Agent"]; len(v) > 0 {
		ua = v[0]
	}
	if v := h["Signature-Agent"]; len(v) > 0 {
		sig = v[0]
	}
	return u.classifier.ClassifySigned(ua, sig)
}

// Refuse is the crawler policy's decision on a client for path; block
// says whether to answer 403 (robots.txt is always readable: it is where
// the refusal is declared).
func (u *Use) Refuse(c traffic.Classification, v traffic.Verification, path string) (d traffic.Decision, block bool) {
	if u.policy.Enforce == traffic.EnforceOff {
		return d, false
	}
	d = traffic.Decide(u.policy, c, v)
	return d, d.Block && path != "/robots.txt"
}

// Record counts one answered request, when counting: in the site's store
// (no address, no query) and in agent_requests_total (a refused one also
// in agent_requests_blocked_total).
func (u *Use) Record(e traffic.Event) {
	if !u.Counting {
		return
	}
	u.Site.store.Record(e)
	telemetry.Agents.Count(e.Client, e.Form, e.Verification, e.Blocked)
}

// Block answers 403 to a request the crawler policy refuses: the
// Content-Signal of the policy and a short plain-text body saying why,
// where the policy is and whom to contact. It returns the body's size.
func (u *Use) Block(w http.ResponseWriter, r *http.Request, c traffic.Classification, d traffic.Decision) int64 {
	policy := u.policyURL
	if policy == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		policy = scheme + "://" + r.Host + "/robots.txt"
	}
	body := traffic.BlockBody(c, d, policy, u.contact)
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "no-store")
	if u.signal != "" {
		h.Set("Content-Signal", u.signal)
	}
	w.WriteHeader(http.StatusForbidden)
	if r.Method == http.MethodHead {
		return 0
	}
	n, _ := io.WriteString(w, body)
	return int64(n)
}
