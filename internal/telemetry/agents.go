package telemetry

import (
	"slices"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/agentready/caddy-agentready/traffic"
	"github.com/agentready/caddy-agentready/traffic/agents"
)

// AgentSet is caddy_agent_ready_agent_requests_total{purpose, agent, form,
// verification}: every label has a fixed set of values (agent: the data
// file's agents and clients, "browser" or "other"; purpose: the four
// purposes or the client class), so the series are bounded whatever the
// traffic. Its children are looked up once each and kept in an array, so a
// request costs an index computation and an atomic add, not a label hash.
//
// caddy_agent_ready_agent_requests_blocked_total{purpose, agent} counts
// the requests the crawler policy refused (403), among those above: the
// same labels, the same cached children.
type AgentSet struct {
	Requests *prometheus.CounterVec
	Blocked  *prometheus.CounterVec

	labels   []string                // agent label values by index
	agentIdx map[*agents.Agent]int   // built-in agents
	client   map[*agents.Client]int  // generic clients
	children []atomic.Pointer[boxed] // [label][purpose][form][verification]
	refused  []atomic.Pointer[boxed] // [label][purpose]
}

// Agents is the process's agent request counts.
var Agents = newAgentSet()

// boxed holds a prometheus.Counter for an atomic.Pointer.
type boxed struct{ prometheus.Counter }

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

func newAgentSet() *AgentSet {
	m := &AgentSet{
		Requests: counterVec("agent_requests_total",
			"Requests by client purpose (training, search, user, agent; else the client class), agent (the known agents and clients, browser, other), form served (html, markdown, discovery, mcp, ask, other) and verification (verified, unverified, failed).",
			"purpose", "agent", "form", "verification"),
		Blocked: counterVec("agent_requests_blocked_total",
			"Requests the crawler policy refused with 403, by client purpose and agent (labels as agent_requests_total; each is also counted there).",
			"purpose", "agent"),
		labels:   traffic.Labels(),
		agentIdx: map[*agents.Agent]int{},
		client:   map[*agents.Client]int{},
	}
	for _, a := range agents.All() {
		m.agentIdx[a] = indexOf(m.labels, a.Name)
	}
	for _, c := range agents.Clients() {
		m.client[c] = indexOf(m.labels, c.Name)
	}
	m.children = make([]atomic.Pointer[boxed], len(m.labels)*len(metricPurposes)*len(metricForms)*len(metricVerifications))
	m.refused = make([]atomic.Pointer[boxed], len(m.labels)*len(metricPurposes))
	return m
}

// indexOf is the index of s in list, labelOther when absent.
func indexOf(list []string, s string) int {
	if i := slices.Index(list, s); i >= 0 {
		return i
	}
	return labelOther
}

// Count adds one to agent_requests_total for a request, and to
// agent_requests_blocked_total when the policy refused it.
func (m *AgentSet) Count(c traffic.Classification, form traffic.Form, v traffic.Verification, blocked bool) {
	label := labelOther
	switch {
	case c.Agent != nil && c.Agent.Builtin():
		label = m.agentIdx[c.Agent]
	case c.Client != nil:
		label = m.client[c.Client]
	case c.Class == traffic.ClassBrowser:
		label = labelBrowser
	}
	purpose := purposeOf(c)
	if blocked {
		incCached(&m.refused[label*len(metricPurposes)+purpose], func() prometheus.Counter {
			return m.Blocked.WithLabelValues(metricPurposes[purpose], m.labels[label])
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
		return m.Requests.WithLabelValues(metricPurposes[purpose], m.labels[label], form.String(), v.String())
	})
}

// incCached adds one to the counter in slot, looked up by lookup the first
// time (a label hash and a lock) and kept there for the next requests.
func incCached(slot *atomic.Pointer[boxed], lookup func() prometheus.Counter) {
	p := slot.Load()
	if p == nil {
		p = &boxed{lookup()}
		slot.Store(p)
	}
	p.Inc()
}

// purposeOf is purposeIdx(c.Purpose()): an agent's purpose looked up,
// any other client's class read from a table (no string comparisons for
// a browser).
func purposeOf(c traffic.Classification) int {
	if c.Agent != nil {
		return purposeIdx(string(c.Agent.Purpose))
	}
	if int(c.Class) < len(classPurposes) {
		return classPurposes[c.Class]
	}
	return len(metricPurposes) - 1
}

// classPurposes is purposeIdx of each class's name, by class.
var classPurposes = func() []int {
	var out []int
	for c := traffic.Class(0); c.String() != "unknown" || c == 0; c++ {
		out = append(out, purposeIdx(c.String()))
	}
	return out
}()

// purposeIdx is the index of p in metricPurposes, "unknown" when absent.
func purposeIdx(p string) int {
	if i := slices.Index(metricPurposes, p); i >= 0 {
		return i
	}
	return len(metricPurposes) - 1
}
