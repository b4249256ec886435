package browser

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/agentready/caddy-agentready/caddymodule/internal/caddytest"
	"github.com/agentready/caddy-agentready/traffic"
)

// savedTraffic writes, under a fresh Caddy data directory ($XDG_DATA_HOME),
// the counts the site at base would have saved after fillTraffic: the
// handler reads them back when the site starts (docs/configuration.md,
// Traffic). The site's key is its listener's address, the file named by
// the first 8 bytes of its SHA-256.
func savedTraffic(t *testing.T, base string) {
	t.Helper()
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	dir := filepath.Join(data, "caddy", "agent_ready")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s := traffic.NewStore(traffic.StoreConfig{})
	fillTraffic(s, time.Now())
	var buf bytes.Buffer
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(base))
	if err := os.WriteFile(filepath.Join(dir, "traffic-"+hex.EncodeToString(sum[:8])+".json"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fillTraffic records a day and a half of synthetic traffic into a store,
// so that the charts of the Agents view have something to draw: browsers,
// crawlers of each purpose, a few fetchers that take the Markdown, and a
// spoofer. The seed is fixed: the picture is the same each run.
func fillTraffic(s *traffic.Store, now time.Time) {
	rng := rand.New(rand.NewPCG(17, 17))
	type client struct {
		ua       string
		v        traffic.Verification
		markdown float64 // share of pages taken as Markdown
		weight   int
	}
	clients := []client{
		{caddytest.UABrowser, traffic.Unverified, 0, 40},
		{caddytest.UAGPTBot, traffic.Verified, 0.1, 8},
		{caddytest.UAGPTBot, traffic.Failed, 0, 1},
		{caddytest.UAClaudeBot, traffic.Unverified, 0.6, 6},
		{caddytest.UASearchBot, traffic.Verified, 0.3, 5},
		{caddytest.UAPerplexity, traffic.Verified, 0.5, 4},
		{caddytest.UAChatGPT, traffic.Verified, 0.8, 5},
		{caddytest.UAAmazonbot, traffic.Verified, 0, 2},
		{"curl/8.5.0", traffic.Unverified, 0.9, 2},
	}
	pages := []string{"/", "/pricing", "/docs/", "/docs/api", "/blog/launch", "/contact", "/docs/widgets", "/privacy"}
	total := 0
	for _, c := range clients {
		total += c.weight
	}
	for m := 36 * 60; m >= 0; m-- {
		at := now.Add(-time.Duration(m) * time.Minute)
		// More traffic in the day than at night, a little noise.
		hour := at.UTC().Hour()
		n := 3 + rng.IntN(4)
		if hour >= 8 && hour <= 20 {
			n += 6
		}
		for range n {
			pick := rng.IntN(total)
			var c client
			for _, c = range clients {
				if pick < c.weight {
					break
				}
				pick -= c.weight
			}
			cl := traffic.Classify(c.ua)
			e := traffic.Event{Time: at, Client: cl, Verification: c.v, Status: 200, Path: pages[rng.IntN(len(pages))]}
			switch {
			case rng.Float64() < 0.08 && cl.Class == traffic.ClassAgent:
				e.Form, e.Path, e.Bytes = traffic.FormDiscovery, "/llms.txt", 2400
			case rng.Float64() < c.markdown:
				e.Form, e.Bytes, e.Tokens, e.HTMLBytes = traffic.FormMarkdown, 6000, 1500, 48000
			default:
				e.Form, e.Bytes = traffic.FormHTML, 48000
			}
			if c.v == traffic.Failed {
				e.Blocked, e.Status, e.Form, e.Bytes = true, 403, traffic.FormOther, 180
			}
			s.Record(e)
		}
	}
}

// TestBrowserAgentsView loads the Agents view (through agent_ready_report,
// as a browser reaches it) in headless Chromium after real requests and a
// day and a half of synthetic traffic: the summary, both request charts
// with their bars, the form chart, the top agents with their verification
// state, the top pages and the spoofer must be visible, the score linked,
// and no console errors. The screenshot goes to testoutput/ (and to
// docs/agents-view.png with -update).
func TestBrowserAgentsView(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	browser := chromiumPath(t)
	origin := newOrigin(t)
	port := freePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	savedTraffic(t, base)
	sites, reportURL := withReport(t, caddytest.TrafficCaddyfile(t, origin.URL, "site:\n  name: Acme Widgets\n", "save_interval off"))
	runCaddy(t, port, sites)
	get(t, base+"/pricing", "User-Agent", caddytest.UAGPTBot, "Accept", "text/markdown", "X-Forwarded-For", "203.0.113.9")
	get(t, base+"/llms.txt", "User-Agent", caddytest.UAClaudeBot)
	viewURL := reportURL + "agents?site=" + url.QueryEscape(base)

	ctx, consoleErrors := headless(t, browser, 1100, 1400)
	visible := func(sel string) string {
		return `[...document.querySelectorAll('` + sel + `')].filter(e => { const r = e.getBoundingClientRect(); return r.height > 0 && r.width > 0; }).length`
	}
	var (
		summary, agentsText, spoofers, scoreHref string
		minuteBars, hourBars, formBars, pageRows int
		screenshot                               []byte
	)
	err := chromedp.Run(ctx,
		log.Enable(),
		runtime.Enable(),
		chromedp.Navigate(viewURL),
		chromedp.WaitVisible("#agents-summary", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#agents-summary').innerText`, &summary),
		chromedp.Evaluate(visible(`#requests-minutes rect`), &minuteBars),
		chromedp.Evaluate(visible(`#requests-hours rect`), &hourBars),
		chromedp.Evaluate(visible(`#forms rect`), &formBars),
		chromedp.Evaluate(`document.querySelector('#top-agents').innerText`, &agentsText),
		chromedp.Evaluate(visible(`#top-pages tbody tr`), &pageRows),
		chromedp.Evaluate(`document.querySelector('#spoofers').innerText`, &spoofers),
		chromedp.Evaluate(`document.querySelector('nav.views a').getAttribute('href')`, &scoreHref),
		chromedp.FullScreenshot(&screenshot, 100),
	)
	if err != nil {
		t.Fatalf("driving chromium: %v", err)
	}
	for _, want := range []string{"Requests", "Markdown share", "Tokens saved", "Spoofed requests"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	if minuteBars < 30 || hourBars < 24 || formBars < 4 {
		t.Errorf("visible bars: %d per minute, %d per hour, %d in the form chart", minuteBars, hourBars, formBars)
	}
	for _, want := range []string{"GPTBot", "OpenAI", "ClaudeBot", "verified", "claimed, not verified", "failed verification"} {
		if !strings.Contains(agentsText, want) {
			t.Errorf("top agents lack %q:\n%s", want, agentsText)
		}
	}
	if pageRows < 5 {
		t.Errorf("%d top pages visible", pageRows)
	}
	if !strings.Contains(spoofers, "GPTBot") {
		t.Errorf("spoofers section:\n%s", spoofers)
	}
	if scoreHref != "./" {
		t.Errorf("the score link is %q", scoreHref)
	}
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
	shot := saveScreenshot(t, "agents-view.png", screenshot)
	if *update {
		if err := os.WriteFile(filepath.Join(root, "docs", "agents-view.png"), screenshot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("screenshot %s", shot)
}
