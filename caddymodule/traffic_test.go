package caddymodule

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/agentready/caddy-agentready/caddymodule/internal/caddytest"
	"github.com/agentready/caddy-agentready/traffic"
)

// TestMain keeps every test's saved traffic counts out of the user's data
// directory: Caddy's AppDataDir follows XDG_DATA_HOME.
func TestMain(m *testing.M) { caddytest.Main(m) }

// User-Agents of the tests.
const (
	uaBrowser    = caddytest.UABrowser
	uaGPTBot     = caddytest.UAGPTBot
	uaChatGPT    = caddytest.UAChatGPT
	uaClaudeBot  = caddytest.UAClaudeBot
	uaAmazonbot  = caddytest.UAAmazonbot
	uaSearchBot  = caddytest.UASearchBot
	uaPerplexity = caddytest.UAPerplexity
)

// fakeResolver answers reverse and forward lookups from maps.
type fakeResolver struct {
	ptr map[string][]string
	ip  map[string][]string
}

func (f fakeResolver) LookupAddr(_ context.Context, addr string) ([]string, error) {
	if names, ok := f.ptr[addr]; ok {
		return names, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: addr, IsNotFound: true}
}

func (f fakeResolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	var out []net.IPAddr
	for _, s := range f.ip[strings.TrimSuffix(host, ".")] {
		out = append(out, net.IPAddr{IP: net.ParseIP(s)})
	}
	if out == nil {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return out, nil
}

// trafficCaddyfile is caddytest.TrafficCaddyfile.
func trafficCaddyfile(t *testing.T, originURL, yaml, extra string) string {
	t.Helper()
	return caddytest.TrafficCaddyfile(t, originURL, yaml, extra)
}

// trafficSnapshot reads GET /agent-ready/traffic.json of the site at base
// (the key of a site without site.origin is its listener's address).
func trafficSnapshot(t *testing.T, admin, base string) (traffic.Snapshot, string) {
	t.Helper()
	resp, body := get(t, "GET", admin+"/agent-ready/traffic.json?site="+url.QueryEscape(base))
	if resp.StatusCode != 200 {
		t.Fatalf("traffic.json: %d %s", resp.StatusCode, body)
	}
	var snap traffic.Snapshot
	if err := json.Unmarshal([]byte(body), &snap); err != nil {
		t.Fatalf("traffic.json: %v\n%s", err, body)
	}
	return snap, body
}

// clientStats finds a client's row.
func clientStats(snap traffic.Snapshot, name string) traffic.ClientStats {
	for _, c := range snap.Clients {
		if c.Client == name {
			return c
		}
	}
	return traffic.ClientStats{}
}

// formRequests sums a client's requests of one form.
func formRequests(c traffic.ClientStats, form string) uint64 {
	var n uint64
	for _, cell := range c.Cells {
		if cell.Form == form {
			n += cell.Requests
		}
	}
	return n
}

func TestIntegrationTrafficCounts(t *testing.T) {
	origin := newOrigin(t)
	base, admin := runCaddy(t, trafficCaddyfile(t, origin.URL, "site:\n  name: Acme\n", "save_interval off"))
	xff := "X-Forwarded-For"
	reqs := []struct {
		path   string
		hdr    []string
		status int
	}{
		{"/", []string{"User-Agent", uaBrowser, "Accept", "text/html"}, 200},
		{"/pricing?session=s3cret", []string{"User-Agent", uaBrowser}, 200},
		{"/pricing", []string{"User-Agent", uaGPTBot, "Accept", "text/markdown", xff, "203.0.113.9"}, 200},
		{"/pricing/md", []string{"User-Agent", uaGPTBot, xff, "203.0.113.9"}, 200},
		{"/llms.txt", []string{"User-Agent", uaClaudeBot, xff, "198.51.100.4"}, 200},
		{"/pricing", []string{"User-Agent", uaGPTBot, "Accept", "text/markdown", xff, "198.51.100.4"}, 200},
		{"/nowhere", []string{"User-Agent", "curl/8.5.0"}, 404},
	}
	before := map[string]float64{}
	for _, l := range [][]string{{"training", "GPTBot", "markdown", "verified"}, {"training", "GPTBot", "markdown", "failed"},
		{"training", "ClaudeBot", "discovery", "unverified"}, {"browser", "browser", "html", "unverified"}, {"tool", "curl", "other", "unverified"}} {
		before[strings.Join(l, ",")] = counterValue(t, trafficMetrics.requests.WithLabelValues(l...))
	}
	for _, rq := range reqs {
		resp, _ := get(t, "GET", base+rq.path, rq.hdr...)
		if resp.StatusCode != rq.status {
			t.Fatalf("%s: status %d, want %d", rq.path, resp.StatusCode, rq.status)
		}
	}
	snap, body := trafficSnapshot(t, admin, base)
	if snap.Totals.Requests != uint64(len(reqs)) {
		t.Errorf("total requests %d, want %d", snap.Totals.Requests, len(reqs))
	}
	gpt := clientStats(snap, "GPTBot")
	if gpt.Purpose != "training" || formRequests(gpt, "markdown") != 3 {
		t.Errorf("GPTBot: purpose %q, %d markdown, want training and 3: %+v", gpt.Purpose, formRequests(gpt, "markdown"), gpt)
	}
	if gpt.Verification.Verified != 2 || gpt.Verification.Failed != 1 {
		t.Errorf("GPTBot verification %+v, want 2 verified (in the range file) and 1 failed", gpt.Verification)
	}
	if gpt.Totals.MarkdownTokens == 0 || gpt.Totals.TokensSaved == 0 {
		t.Errorf("GPTBot tokens served %d, saved %d: want both counted", gpt.Totals.MarkdownTokens, gpt.Totals.TokensSaved)
	}
	if len(gpt.TopPages) == 0 || gpt.TopPages[0].Path != "/pricing" && gpt.TopPages[0].Path != "/pricing/md" {
		t.Errorf("GPTBot top pages %+v", gpt.TopPages)
	}
	if c := clientStats(snap, "ClaudeBot"); formRequests(c, "discovery") != 1 || c.Verification.Unverified != 1 {
		t.Errorf("ClaudeBot: %+v, want one discovery document, unverified (Anthropic publishes no method)", c)
	}
	if b := clientStats(snap, "browser"); formRequests(b, "html") != 2 {
		t.Errorf("browser: %+v, want 2 HTML pages", b)
	}
	curl := clientStats(snap, "curl")
	if curl.Purpose != "tool" || len(curl.Cells) != 1 || curl.Cells[0].Status != "4xx" {
		t.Errorf("curl: %+v, want one 4xx", curl)
	}
	for _, secret := range []string{"s3cret", "session", "203.0.113.9", "198.51.100.4", "127.0.0.1"} {
		if strings.Contains(body, secret) {
			t.Errorf("traffic.json holds %q: no query strings or client addresses may be stored", secret)
		}
	}

	_, metricsText := get(t, "GET", admin+"/metrics")
	for _, m := range []struct {
		labels []string // purpose, agent, form, verification
		grew   float64
	}{
		{[]string{"training", "GPTBot", "markdown", "verified"}, 2},
		{[]string{"training", "GPTBot", "markdown", "failed"}, 1},
		{[]string{"training", "ClaudeBot", "discovery", "unverified"}, 1},
		{[]string{"browser", "browser", "html", "unverified"}, 2},
		{[]string{"tool", "curl", "other", "unverified"}, 1},
	} {
		if got := counterValue(t, trafficMetrics.requests.WithLabelValues(m.labels...)) - before[strings.Join(m.labels, ",")]; got != m.grew {
			t.Errorf("agent_requests_total%v grew by %v, want %v", m.labels, got, m.grew)
		}
		series := fmt.Sprintf(`caddy_agent_ready_agent_requests_total{agent=%q,form=%q,purpose=%q,verification=%q}`, m.labels[1], m.labels[2], m.labels[0], m.labels[3])
		if !strings.Contains(metricsText, series) {
			t.Errorf("/metrics lacks %s", series)
		}
	}

	resp, page := get(t, "GET", admin+"/agent-ready/agents?site="+url.QueryEscape(base))
	if resp.StatusCode != 200 || !strings.Contains(page, "GPTBot") || !strings.Contains(page, `id="top-agents"`) ||
		!strings.Contains(page, "<svg") || strings.Contains(page, "<script") || strings.Contains(page, "http://") && strings.Contains(page, `src="http`) {
		t.Errorf("agents view: %d\n%.600s", resp.StatusCode, page)
	}
}

// policyYAML is a crawler policy that disallows training and user
// fetchers, allows search, and enforces in the given mode.
func policyYAML(enforce string) string {
	return fmt.Sprintf(`site:
  name: Acme
contacts:
  email: hello@acme.example
policy:
  training: disallow
  search: allow
  user: disallow
  enforce: %s
`, enforce)
}

func TestIntegrationTrafficEnforce(t *testing.T) {
	trafficResolver = fakeResolver{
		ptr: map[string][]string{"192.0.2.20": {"c-20.crawl.amazonbot.amazon."}},
		ip:  map[string][]string{"c-20.crawl.amazonbot.amazon": {"192.0.2.20"}},
	}
	t.Cleanup(func() { trafficResolver = nil })
	type probe struct {
		name, ua, ip string
		want         int
		body         string // in the 403 body
	}
	cases := []struct {
		enforce string
		probes  []probe
	}{
		{"claimed", []probe{
			{"a claimed training crawler", uaClaudeBot, "198.51.100.4", 403, "collecting pages to train AI models"},
			{"a training crawler from an unknown address", uaGPTBot, "198.51.100.4", 403, "Contact: mailto:hello@acme.example"},
			{"a search crawler the policy allows", uaSearchBot, "198.51.100.4", 200, ""},
			{"a user-triggered fetcher not named", uaChatGPT, "198.51.100.4", 200, ""},
			{"a browser", uaBrowser, "198.51.100.4", 200, ""},
		}},
		{"verified", []probe{
			{"a verified training crawler", uaGPTBot, "203.0.113.7", 403, "train AI models"},
			{"a spoofer", uaGPTBot, "198.51.100.4", 403, "does not come from an address OpenAI publishes"},
			{"a crawler that cannot be verified", uaClaudeBot, "198.51.100.4", 200, ""},
			{"a user-triggered fetcher not named", uaChatGPT, "198.51.100.4", 200, ""},
			{"reverse DNS not yet checked", uaAmazonbot, "192.0.2.20", 200, ""},
		}},
	}
	origin := newOrigin(t)
	for _, tc := range cases {
		t.Run(tc.enforce, func(t *testing.T) {
			base, admin := runCaddy(t, trafficCaddyfile(t, origin.URL, policyYAML(tc.enforce), "save_interval off"))
			blockedBefore := counterVecSum(t, trafficMetrics.blocked)
			blocked := 0
			for _, p := range tc.probes {
				resp, body := get(t, "GET", base+"/pricing", "User-Agent", p.ua, "X-Forwarded-For", p.ip)
				if resp.StatusCode != p.want {
					t.Errorf("%s: status %d, want %d\n%s", p.name, resp.StatusCode, p.want, body)
					continue
				}
				if p.want != 403 {
					continue
				}
				blocked++
				if !strings.Contains(body, p.body) || !strings.Contains(body, "/robots.txt") {
					t.Errorf("%s: body %q lacks %q and the policy's address", p.name, body, p.body)
				}
				if got := resp.Header.Get("Content-Signal"); got != "search=yes, ai-input=no, ai-train=no" {
					t.Errorf("%s: Content-Signal %q", p.name, got)
				}
				if ct := resp.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
					t.Errorf("%s: Content-Type %q", p.name, ct)
				}
			}
			// robots.txt stays readable: it is where the refusal is declared.
			if resp, _ := get(t, "GET", base+"/robots.txt", "User-Agent", uaGPTBot, "X-Forwarded-For", "203.0.113.7"); resp.StatusCode != 200 {
				t.Errorf("robots.txt for a blocked crawler: %d, want 200", resp.StatusCode)
			}
			if tc.enforce == "verified" {
				// The reverse-DNS check ran in the background; the same
				// crawler is now verified and refused.
				for _, s := range trafficSitesSnapshot() {
					s.verifier.Wait()
				}
				resp, body := get(t, "GET", base+"/pricing", "User-Agent", uaAmazonbot, "X-Forwarded-For", "192.0.2.20")
				if resp.StatusCode != 403 {
					t.Errorf("Amazonbot verified by reverse DNS: %d, want 403\n%s", resp.StatusCode, body)
				}
				blocked++
			}
			snap, _ := trafficSnapshot(t, admin, base)
			if snap.Totals.Blocked != uint64(blocked) {
				t.Errorf("blocked %d, want %d", snap.Totals.Blocked, blocked)
			}
			if got := counterVecSum(t, trafficMetrics.blocked) - blockedBefore; got != float64(blocked) {
				t.Errorf("agent_requests_blocked_total grew by %v, want %d", got, blocked)
			}
			if tc.enforce == "verified" && clientStats(snap, "GPTBot").Verification.Failed != 1 {
				t.Errorf("the spoofer is not counted as failed verification: %+v", clientStats(snap, "GPTBot"))
			}
		})
	}
}

// TestIntegrationTrafficSurvives: a config reload keeps the counts (the
// usage pool), and a restart (Caddy stopped: the counts are written to the
// data directory; started again: read back) restores them.
func TestIntegrationTrafficSurvives(t *testing.T) {
	origin := newOrigin(t)
	port, adminPort := freePort(t), freePort(t)
	text := strings.NewReplacer("{port}", fmt.Sprint(port), "{admin}", fmt.Sprint(adminPort)).
		Replace(trafficCaddyfile(t, origin.URL, "site:\n  name: Acme\n", "save_interval off"))
	base, _ := runCaddyAt(t, port, text)
	admin := fmt.Sprintf("http://127.0.0.1:%d", adminPort)
	for range 3 {
		get(t, "GET", base+"/pricing", "User-Agent", uaGPTBot, "Accept", "text/markdown")
	}
	requests := func() uint64 {
		snap, _ := trafficSnapshot(t, admin, base)
		return clientStats(snap, "GPTBot").Totals.Requests
	}
	if n := requests(); n != 3 {
		t.Fatalf("before the reload: %d GPTBot requests, want 3", n)
	}

	// A reload: another config for the same site.
	loadCaddyfile(t, strings.Replace(text, "self_scan off", "self_scan off\n\t\tcache_control private", 1))
	// A connection accepted while the listener was handed over may be
	// reset before the request reaches a handler (not counted): retry.
	for try := 0; ; try++ {
		resp, _, err := fetch(nil, "GET", base+"/pricing", "User-Agent", uaGPTBot, "Accept", "text/markdown")
		if err == nil && resp.StatusCode == 200 {
			break
		}
		if try == 5 {
			t.Fatalf("after the reload: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := requests(); n != 4 {
		t.Fatalf("after the reload: %d GPTBot requests, want 4", n)
	}

	// A restart: stop, nothing left in memory, start again.
	if err := caddy.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, left := range trafficSitesSnapshot() {
		if left.key == base {
			t.Fatalf("the traffic state of %s is left after stop", base)
		}
	}
	files, _ := filepath.Glob(filepath.Join(caddy.AppDataDir(), "agent_ready", "traffic-*.json"))
	if len(files) == 0 {
		t.Fatal("no counts saved in the data directory at stop")
	}
	loadCaddyfile(t, text)
	waitListening(t, fmt.Sprintf("127.0.0.1:%d", port))
	if n := requests(); n != 4 {
		t.Fatalf("after a restart: %d GPTBot requests, want the 4 saved", n)
	}
	snap, _ := trafficSnapshot(t, admin, base)
	if gpt := clientStats(snap, "GPTBot"); gpt.Totals.MarkdownTokens == 0 || len(gpt.TopPages) == 0 {
		t.Errorf("after a restart: tokens and top pages lost: %+v", gpt)
	}
}

// BenchmarkTrafficOverhead is what counting adds to a request through the
// whole handler (BenchmarkServeHTTPOverhead's set-up: a 1 KiB page
// annotated from its rewrite plan, or its warm Markdown): the same
// handler with `traffic off` and on, for a browser and for a crawler whose
// claim is checked against a range list. Measure by instructions:
//
//	go test -c -o /tmp/cm.test ./caddymodule
//	cd caddymodule && ../bench/instructions.sh /tmp/cm.test BenchmarkTrafficOverhead
func BenchmarkTrafficOverhead(b *testing.B) {
	off := benchHandler(b, "\ttraffic off\n")
	on := benchHandler(b, "")
	b.Cleanup(func() { on.Cleanup() })
	on.traffic.Site.Verifier().SetRanges("https://openai.com/gptbot.json", traffic.NewRangeSet([]netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}))
	html := benchOrigin(benchPage(1<<10), "text/html; charset=utf-8", false)
	for _, tc := range []struct {
		name, ua, accept string
		ar               *AgentReady
	}{
		{"html/off", uaBrowser, benchAcceptHTML, off},
		{"html/on browser", uaBrowser, benchAcceptHTML, on},
		{"html/on GPTBot verified", uaGPTBot, benchAcceptHTML, on},
		{"markdown/off", uaGPTBot, "text/markdown", off},
		{"markdown/on GPTBot verified", uaGPTBot, "text/markdown", on},
	} {
		b.Run(tc.name, func(b *testing.B) {
			r := benchRequest("/pricing", tc.accept)
			r.Header.Set("User-Agent", tc.ua)
			w := &benchWriter{h: http.Header{}}
			serve := func() error {
				clear(w.h)
				w.status, w.n = 0, 0
				return tc.ar.ServeHTTP(w, r, html)
			}
			benchLoop(b, w, serve)
		})
	}
}

// counterVecSum is the sum of every series of v.
func counterVecSum(t *testing.T, v *prometheus.CounterVec) float64 {
	t.Helper()
	ch := make(chan prometheus.Metric, 64)
	go func() { v.Collect(ch); close(ch) }()
	sum := 0.0
	for m := range ch {
		var d dto.Metric
		if err := m.Write(&d); err != nil {
			t.Fatal(err)
		}
		sum += d.GetCounter().GetValue()
	}
	return sum
}
