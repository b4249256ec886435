package caddymodule

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
)

// TestIntegrationIndexRetry: with the origin down at start, the content
// index retries (connect.retry_min 50ms) instead of waiting for the hourly
// refresh; meanwhile /ask answers 503 "not ready" and the admin status says
// why. Once the origin is up a retry fills the index. A config reload while
// the origin is down again keeps answering from the last good index, marked
// stale.
func TestIntegrationIndexRetry(t *testing.T) {
	originAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	caddyfile := proxyCaddyfile(t, "site:\n  name: Retry\n  pages: [/pricing, /contact]\nconnect:\n  enabled: true\n  retry_min: 50ms\n", originAddr)
	// Registered before runCaddy, so it runs after Caddy stopped: the last
	// config gone, the site's index is released.
	t.Cleanup(func() {
		if n := len(indexStatuses()); n != 0 {
			t.Errorf("%d content indexes held after Caddy stopped", n)
		}
	})
	base, admin := runCaddy(t, caddyfile)

	// The origin is down: nothing to answer from, and /ask says so.
	idx := waitIndex(t, admin, func(s indexStatus) bool { return s.Failures >= 1 })
	if idx.State != "empty" || idx.Pages != 0 || idx.LastError == "" || idx.NextAttempt.IsZero() || !idx.LastSuccess.IsZero() {
		t.Errorf("status with the origin down: %+v", idx)
	}
	resp, body := get(t, "GET", base+"/ask?query=pricing")
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" ||
		resp.Header.Get("Content-Type") != "application/problem+json" || !strings.Contains(body, "not ready") {
		t.Fatalf("/ask with the index never loaded: %d %v\n%s", resp.StatusCode, resp.Header, body)
	}

	// The origin comes up: a retry fills the index, long before an hour.
	l, err := net.Listen("tcp", originAddr)
	if err != nil {
		t.Skipf("the origin's port was taken meanwhile: %v", err)
	}
	origin := httptest.NewUnstartedServer(originHandler())
	origin.Listener.Close()
	origin.Listener = l
	origin.Start()
	t.Cleanup(origin.Close)
	idx = waitIndex(t, admin, func(s indexStatus) bool { return s.State == "ok" })
	if idx.Pages == 0 || idx.Failures != 0 || idx.LastSuccess.IsZero() || idx.LastError != "" {
		t.Errorf("status once the origin is up: %+v", idx)
	}
	resp, body = get(t, "GET", base+"/ask?query=pricing")
	if resp.StatusCode != 200 || !strings.Contains(body, "/pricing") {
		t.Fatalf("/ask once the index loaded: %d\n%.500s", resp.StatusCode, body)
	}
	pages := idx.Pages

	// Down again, and the config reloaded: the new config answers from the
	// last good index at once, and its failed refresh marks it stale.
	origin.Close()
	reloaded := fmt.Sprintf("{\n\tadmin %s\n\tpersist_config off\n}\n", strings.TrimPrefix(admin, "http://")) +
		strings.ReplaceAll(caddyfile, "{port}", base[strings.LastIndex(base, ":")+1:])
	cfg, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(reloaded), map[string]any{"filename": "Caddyfile"})
	if err != nil {
		t.Fatal(err)
	}
	if err := caddy.Load(cfg, true); err != nil {
		t.Fatalf("reloading: %v", err)
	}
	resp, body = getAfterReload(t, base+"/ask?query=pricing")
	if resp.StatusCode != 200 || !strings.Contains(body, "/pricing") {
		t.Fatalf("/ask after a reload with the origin down: %d\n%.500s", resp.StatusCode, body)
	}
	idx = waitIndex(t, admin, func(s indexStatus) bool { return s.State == "stale" })
	if idx.Pages != pages || idx.Failures == 0 || idx.LastSuccess.IsZero() {
		t.Errorf("status after the reload: %+v", idx)
	}
}

// proxyCaddyfile writes siteYAML to a file and returns a Caddyfile (for
// runCaddy) whose site runs agent_ready with it before a reverse_proxy to
// originAddr.
func proxyCaddyfile(t *testing.T, siteYAML, originAddr string) string {
	t.Helper()
	yml := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(yml, []byte(siteYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf(`
:{port} {
	bind 127.0.0.1
	agent_ready {
		config %s
		self_scan off
	}
	reverse_proxy %s
}`, yml, originAddr)
}

// getAfterReload GETs url just after a reload. The old config's listener
// resets the connections the kernel had queued on it when it closes (see
// TestFaultReloadUnderLoad); such a request never reached a handler, so it
// is asked again, a few times at most. Any other error fails the test.
func getAfterReload(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		resp, body, err := fetch(nil, "GET", url)
		if err == nil {
			return resp, body
		}
		if !errors.Is(err, syscall.ECONNRESET) || attempt == 5 {
			t.Fatalf("GET %s after the reload (attempt %d): %v", url, attempt, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitIndex polls /agent-ready/status until the one content index there
// satisfies ok, and returns it.
func waitIndex(t *testing.T, admin string, ok func(indexStatus) bool) indexStatus {
	t.Helper()
	var last string
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		resp, body := get(t, "GET", admin+"/agent-ready/status")
		last = body
		var st struct {
			ContentIndexes []indexStatus `json:"content_indexes"`
		}
		if resp.StatusCode == 200 && json.Unmarshal([]byte(body), &st) == nil &&
			len(st.ContentIndexes) == 1 && ok(st.ContentIndexes[0]) {
			return st.ContentIndexes[0]
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the content index never reached the expected state; last status:\n%s", last)
	return indexStatus{}
}

// TestIntegrationIndexFetchesOnce: the content index asks the origin for
// each page once (the discovery's crawl, which reads pages for their links,
// apart): the Markdown request's conversion hands the HTML's full
// text to the index (connect.PageText), so no second request for the HTML
// follows, and the search still finds a word of the page's navigation,
// which the Markdown (main content only) leaves out.
func TestIntegrationIndexFetchesOnce(t *testing.T) {
	var mu sync.Mutex
	asked := map[string]int{}
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.UserAgent(), "site discovery") { // the crawl reads pages for their links
			mu.Lock()
			asked[r.URL.Path]++
			mu.Unlock()
		}
		if r.URL.Path != "/pricing" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html><head><title>Pricing</title></head><body><nav><a href=\"/\">Zanzibar</a></nav>"+
			"<main><h1>Pricing</h1><p>Plans for every team, billed monthly or yearly, with no setup fee.</p></main></body></html>")
	}))
	t.Cleanup(origin.Close)
	base, admin := runCaddy(t, proxyCaddyfile(t, "site:\n  name: Once\n  pages: [/pricing]\nconnect:\n  enabled: true\n", strings.TrimPrefix(origin.URL, "http://")))
	waitIndex(t, admin, func(s indexStatus) bool { return s.State == "ok" && s.Pages == 1 })
	mu.Lock()
	n := asked["/pricing"]
	mu.Unlock()
	if n != 1 {
		t.Errorf("the origin was asked for /pricing %d times while indexing, want once", n)
	}
	resp, body := get(t, "GET", base+"/ask?query=zanzibar")
	if resp.StatusCode != 200 || !strings.Contains(body, "/pricing") {
		t.Errorf("/ask for a word of the navigation: %d\n%.500s", resp.StatusCode, body)
	}
}
