package browser

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/agentready/caddy-agentready/caddymodule/internal/caddytest"
)

// chromiumPath finds Debian's chromium. .ci/run installs it; elsewhere the
// browser test is skipped unless CI is set, where its absence is a failure.
func chromiumPath(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("CI is set but no chromium is installed: .ci/run must install Debian's chromium")
	}
	t.Skip("no chromium on this machine (apt-get install chromium)")
	return ""
}

// headless starts headless Chromium (browser) with a w×h window and a 90 s
// deadline for the test. errs returns what the pages reported as errors so
// far: console.error and console.assert calls, uncaught exceptions, and
// error entries of the browser's log.
func headless(t *testing.T, browser string, w, h int) (ctx context.Context, errs func() []string) {
	t.Helper()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(browser),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(userDataDir(t)),
		chromedp.WindowSize(w, h),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelTimeout)

	var mu sync.Mutex
	var consoleErrors []string
	chromedp.ListenTarget(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.APITypeError || e.Type == runtime.APITypeAssert {
				consoleErrors = append(consoleErrors, "console."+string(e.Type))
			}
		case *runtime.EventExceptionThrown:
			consoleErrors = append(consoleErrors, "exception: "+e.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if e.Entry.Level == log.LevelError {
				consoleErrors = append(consoleErrors, "log: "+e.Entry.Text)
			}
		}
	})
	return ctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(consoleErrors)
	}
}

// saveScreenshot writes png to testoutput/name and returns its path.
func saveScreenshot(t *testing.T, name string, png []byte) string {
	t.Helper()
	out := filepath.Join(root, "testoutput")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(out, name)
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	return shot
}

// TestBrowserSelfScoreReport loads the self-score report (mounted with
// agent_ready_report: Caddy's admin endpoint turns browser navigations away)
// in headless Chromium: the score, the six section bars and an
// opened receipt must be visible, with no console errors. It saves a
// screenshot under testoutput/.
func TestBrowserSelfScoreReport(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	browser := chromiumPath(t)
	origin := newOrigin(t)
	sites, reportURL := withReport(t, caddytest.DemoCaddyfile(origin.URL, filepath.Join(root, "examples", "site.yaml")))
	_, admin := runCaddy(t, freePort(t), sites)
	waitScanned(t, admin)

	ctx, consoleErrors := headless(t, browser, 1280, 1600)

	var (
		score       string
		bars        int
		receiptText string
		lenses      string
		planItems   int
		checkpoints int
		lintRules   int
		cpText      string
		screenshot  []byte
	)
	visible := func(sel string) string {
		return `[...document.querySelectorAll('` + sel + `')].filter(e => e.getBoundingClientRect().height > 0).length`
	}
	err := chromedp.Run(ctx,
		log.Enable(),
		runtime.Enable(),
		chromedp.Navigate(reportURL),
		chromedp.WaitVisible("#score", chromedp.ByQuery),
		// #score is an SVG <text>: it has textContent, not innerText.
		chromedp.Evaluate(`(() => { const e = document.querySelector('#score'); const r = e.getBoundingClientRect(); return r.width > 0 ? e.textContent : ''; })()`, &score),
		chromedp.Evaluate(`[...document.querySelectorAll('.section-bar')].filter(e => e.getBoundingClientRect().width > 0).length`, &bars),
		// Open the first check and read its receipt as a person would see it.
		chromedp.Click(`details.check > summary`, chromedp.ByQuery),
		chromedp.Evaluate(`(() => {
			const d = document.querySelector('details.check');
			if (!d.open) return '';
			const pre = d.querySelector('pre');
			const r = pre && pre.getBoundingClientRect();
			return r && r.height > 0 ? pre.innerText : '';
		})()`, &receiptText),
		// The three lenses, the fix-first plan, the checkpoints and the lint.
		chromedp.Evaluate(`document.querySelector('#lenses').innerText`, &lenses),
		chromedp.Evaluate(visible(`li.plan-item`), &planItems),
		chromedp.Evaluate(visible(`details.cp[id^="checkpoint-"]`), &checkpoints),
		chromedp.Evaluate(visible(`details.lint`), &lintRules),
		chromedp.Click(`details.cp[id^="checkpoint-"] > summary`, chromedp.ByQuery),
		chromedp.Evaluate(`(() => {
			const d = document.querySelector('details.cp[id^="checkpoint-"]');
			const pre = d && d.open && d.querySelector('pre');
			return pre && pre.getBoundingClientRect().height > 0 ? pre.innerText : '';
		})()`, &cpText),
		chromedp.FullScreenshot(&screenshot, 100), // quality 100 gives a PNG,
	)
	if err != nil {
		t.Fatalf("driving chromium: %v", err)
	}

	if v, err := strconv.ParseFloat(strings.TrimSpace(score), 64); err != nil || v < 90 {
		t.Errorf("visible score %q, want the demo's score (≥ 90)", score)
	}
	if bars != 6 {
		t.Errorf("%d visible section bars, want 6", bars)
	}
	if !strings.Contains(receiptText, "check: ") || !strings.Contains(receiptText, "request: ") {
		t.Errorf("opened check shows no receipt:\n%s", receiptText)
	}
	if !strings.Contains(lenses, "/ 100") || !strings.Contains(lenses, "28 checkpoints") || !strings.Contains(lenses, "20 rules") {
		t.Errorf("the three lenses line reads %q", lenses)
	}
	if checkpoints != 28 || lintRules != 20 {
		t.Errorf("%d visible checkpoints and %d lint rules, want 28 and 20", checkpoints, lintRules)
	}
	if planItems == 0 {
		t.Error("no fix-first plan item visible")
	}
	if !strings.Contains(cpText, "verify: curl") || !strings.Contains(cpText, "strength: ") {
		t.Errorf("opened checkpoint shows no verification command:\n%s", cpText)
	}
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
	shot := saveScreenshot(t, "agent-ready-report.png", screenshot)
	t.Logf("score %s; screenshot %s", strings.TrimSpace(score), shot)
}

// userDataDir is a fresh Chromium profile, removed after the browser exits
// (t.TempDir's cleanup can run while Chromium still writes to it).
func userDataDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "agent-ready-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 20 {
			if os.RemoveAll(dir) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	return dir
}
