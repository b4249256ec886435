package telemetry

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/traffic"
	"github.com/agentready/caddy-agentready/traffic/agents"
)

// TestRegisterTwice: every config registers the same collectors; the
// second time is no error, and the names are Caddy's namespace's.
func TestRegisterTwice(t *testing.T) {
	reg := prometheus.NewRegistry()
	for range 2 {
		if err := Register(reg); err != nil {
			t.Fatal(err)
		}
		if err := RegisterAgents(reg); err != nil {
			t.Fatal(err)
		}
	}
	Converted(time.Millisecond, 100, 40, 10)
	Agents.Count(traffic.Classify("Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"), traffic.FormMarkdown, traffic.Verified, true)
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range families {
		names[f.GetName()] = true
	}
	for _, want := range []string{"caddy_agent_ready_conversions_total", "caddy_agent_ready_markdown_tokens_total",
		"caddy_agent_ready_agent_requests_total", "caddy_agent_ready_agent_requests_blocked_total"} {
		if !names[want] {
			t.Errorf("%s not gathered (have %v)", want, names)
		}
	}
	if err := Register(prometheus.NewRegistry()); err != nil {
		t.Errorf("a fresh registry: %v", err)
	}
}

// TestAgentCount: each request lands in its own series, the cached child
// counting on.
func TestAgentCount(t *testing.T) {
	gpt := traffic.Classify("Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)")
	browser := traffic.Classify("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36")
	for _, tc := range []struct {
		c       traffic.Classification
		form    traffic.Form
		v       traffic.Verification
		blocked bool
		labels  []string
	}{
		{gpt, traffic.FormMarkdown, traffic.Verified, false, []string{"training", "GPTBot", "markdown", "verified"}},
		{gpt, traffic.FormOther, traffic.Failed, true, []string{"training", "GPTBot", "other", "failed"}},
		{browser, traffic.FormHTML, traffic.Unverified, false, []string{"browser", "browser", "html", "unverified"}},
	} {
		child := Agents.Requests.WithLabelValues(tc.labels...)
		blocked := Agents.Blocked.WithLabelValues(tc.labels[0], tc.labels[1])
		before, blockedBefore := value(t, child), value(t, blocked)
		for range 2 {
			Agents.Count(tc.c, tc.form, tc.v, tc.blocked)
		}
		if got := value(t, child) - before; got != 2 {
			t.Errorf("%v: grew by %v, want 2", tc.labels, got)
		}
		want := 0.0
		if tc.blocked {
			want = 2
		}
		if got := value(t, blocked) - blockedBefore; got != want {
			t.Errorf("%v: blocked grew by %v, want %v", tc.labels, got, want)
		}
	}
}

func TestFailOpenMessage(t *testing.T) {
	for reason, want := range map[string]string{
		"budget_time":    "markdown conversion failed",
		"rewrite_larger": "encodes larger",
		"rewrite_size":   "over 256 KiB",
		"rewrite_read":   "html rewrite failed open",
		"plan_mismatch":  "the plan is dropped",
	} {
		if got := FailOpenMessage(reason); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want it to say %q", reason, got, want)
		}
	}
}

type fakeIndex connect.Stats

func (f *fakeIndex) Stats() connect.Stats { return connect.Stats(*f) }

// TestIndexCollector: an index is reported while its site's newest config
// holds it.
func TestIndexCollector(t *testing.T) {
	c := newIndexCollector()
	old, cur := &fakeIndex{Pages: 3}, &fakeIndex{Pages: 7, Refreshes: 2}
	c.Add("https://a.test", old)
	c.Add("https://a.test", cur) // a reload
	c.Remove("https://a.test", old)
	if n := collected(c); n != 5 {
		t.Fatalf("%d metrics, want 5 of one site", n)
	}
	c.Remove("https://a.test", cur)
	if n := collected(c); n != 0 {
		t.Fatalf("%d metrics after the site left", n)
	}
}

// value is a counter's value.
func value(t *testing.T, c prometheus.Counter) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}

// collected is how many metrics c collects.
func collected(c prometheus.Collector) int {
	ch := make(chan prometheus.Metric)
	go func() { c.Collect(ch); close(ch) }()
	n := 0
	for range ch {
		n++
	}
	return n
}

// TestPurposeOf holds purposeOf, which counts a request's purpose without
// comparing strings for a client that is not an agent, to the index of
// the purpose's name, for every class (and one past them) with and
// without an agent.
func TestPurposeOf(t *testing.T) {
	all := agents.All()
	for class := traffic.Class(0); class < 12; class++ {
		for _, a := range []*agents.Agent{nil, all[0], all[len(all)-1]} {
			c := traffic.Classification{Class: class, Agent: a}
			if got, want := purposeOf(c), purposeIdx(c.Purpose()); got != want {
				t.Errorf("class %d, agent %v: purpose %d, want %d", class, a != nil, got, want)
			}
		}
	}
}
