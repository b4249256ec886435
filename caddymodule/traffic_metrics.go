package caddymodule

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/agentready/caddy-agentready/traffic"
	"github.com/agentready/caddy-agentready/traffic/agents"
)

// trafficMetrics is caddy_agent_ready_agent_requests_total{purpose, agent,
// form, verification}: every label has a fixed set of values (agent: the
// data file's agents and clients, "browser" or "other"; purpose: the four
// purposes or the client class), so the series are bounded whatever the
// traffic. Its children are looked up once each and kept in an array, so a
// request costs an index computation and an atomic add, not a label hash.
//
// caddy_agent_ready_agent_requests_blocked_total{purpose, agent} counts
// the requests the crawler policy refused (403), among those above: the
// same labels, the same cached children.
var trafficMetrics = struct {
	once     sync.Once
	requests *prometheus.CounterVec
	blocked  *prometheus.CounterVec
	labels   []string                  // agent label values by index
	agentIdx map[*agents.Agent]int     // built-in agents
	client   map[*agents.Client]int    // generic clients
	children []atomic.Pointer[counter] // [label][purpose][form][verification]
	refused  []atomic.Pointer[counter] // [label][purpose]
}{}

// counter boxes a prometheus.Counter for an atomic.Pointer.
type counter struct{ prometheus.Counter }

// The label dimensions of agent_requests_total.
var (
	metricPurposes      = []string{"training", "search", "user", "agent", "bot", "tool", "headless", "browser", "unknown"}
	metricForms         = []traffic.Form{traffic.FormOther, traffic.FormHTML, traffic.FormMarkdown, traffic.FormDiscovery, traffic.FormMCP, traffic.FormAsk}
	metricVerifications = []traffic.Verification{traffic.Unverified, traffic.Verified, traffic.Failed}
)

// Label indexes 0 and 1 are "browser" and "other" (traffic.Labels).
const (
	labelBrowser = 0
	labelOther   = 1
)

func initTrafficMetrics(registry *prometheus.Registry) error {
	m := &trafficMetrics
	m.once.Do(func() {
		m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "caddy", Subsystem: "agent_ready", Name: "agent_requests_total",
			Help: "Requests by client purpose (training, search, user, agent; else the client class), agent (the known agents and clients, browser, other), form served (html, markdown, discovery, mcp, ask, other) and verification (verified, unverified, failed).",
		}, []string{"purpose", "agent", "form", "verification"})
		m.blocked = prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "caddy", Subsystem: "agent_ready", Name: "agent_requests_blocked_total",
			Help: "Requests the crawler policy refused with 403, by client purpose and agent (labels as agent_requests_total; each is also counted there).",
		}, []string{"purpose", "agent"})
		m.labels = traffic.Labels()
		m.agentIdx, m.client = map[*agents.Agent]int{}, map[*agents.Client]int{}
		for _, a := range agents.All() {
			m.agentIdx[a] = indexOf(m.labels, a.Name)
		}
		for _, c := range agents.Clients() {
			m.client[c] = indexOf(m.labels, c.Name)
		}
		m.children = make([]atomic.Pointer[counter], len(m.labels)*len(metricPurposes)*len(metricForms)*len(metricVerifications))
		m.refused = make([]atomic.Pointer[counter], len(m.labels)*len(metricPurposes))
	})
	if registry == nil {
		return nil
	}
	for _, c := range []prometheus.Collector{m.requests, m.blocked} {
		if err := registry.Register(c); err != nil {
			var are prometheus.AlreadyRegisteredError
			if !errors.As(err, &are) {
				return err
			}
		}
	}
	return nil
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return labelOther
}

// countAgentRequest adds one to agent_requests_total for a request, and
// to agent_requests_blocked_total when the policy refused it.
func countAgentRequest(c traffic.Classification, form traffic.Form, v traffic.Verification, blocked bool) {
	m := &trafficMetrics
	if m.requests == nil {
		return
	}
	label := labelOther
	switch {
	case c.Agent != nil && c.Agent.Builtin():
		label = m.agentIdx[c.Agent]
	case c.Client != nil:
		label = m.client[c.Client]
	case c.Class == traffic.ClassBrowser:
		label = labelBrowser
	}
	purpose := purposeIdx(c.Purpose())
	if blocked {
		incCached(&m.refused[label*len(metricPurposes)+purpose], func() prometheus.Counter {
			return m.blocked.WithLabelValues(metricPurposes[purpose], m.labels[label])
		})
	}
	f, vi := int(form), int(v)
	if f >= len(metricForms) {
		f = 0
	}
	if vi >= len(metricVerifications) {
		vi = 0
	}
	i := ((label*len(metricPurposes)+purpose)*len(metricForms)+f)*len(metricVerifications) + vi
	incCached(&m.children[i], func() prometheus.Counter {
		return m.requests.WithLabelValues(metricPurposes[purpose], m.labels[label], form.String(), v.String())
	})
}

// incCached adds one to the counter in slot, looked up by lookup the first
// time (a label hash and a lock) and kept there for the next requests.
func incCached(slot *atomic.Pointer[counter], lookup func() prometheus.Counter) {
	p := slot.Load()
	if p == nil {
		p = &counter{lookup()}
		slot.Store(p)
	}
	p.Inc()
}

func purposeIdx(p string) int {
	for i, s := range metricPurposes {
		if s == p {
			return i
		}
	}
	return len(metricPurposes) - 1
}
