package caddymodule

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// getAs GETs path from the Caddy at base with the Host header host, and
// returns the status and body.
func getAs(t *testing.T, base, host, path string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s (Host %s): %v", path, host, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestIntegrationOwnRequestsReachCDNOrigin: behind a CDN, the site block
// answers the origin host the CDN asks for (origin.test), not the public
// host of site.origin (www.public.test). The module's own requests still
// reach the site: the content index holds its pages, the generated
// sitemap lists them on the public origin, and the self-scan reads the
// real home page, not Caddy's empty answer for a host no block serves.
func TestIntegrationOwnRequestsReachCDNOrigin(t *testing.T) {
	origin := restrictedOrigin(t)
	yml := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(yml, []byte("site:\n  name: Behind a CDN\n  origin: https://www.public.test\nconnect:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base, admin := runCaddy(t, `http://origin.test:{port} {
	bind 127.0.0.1
	agent_ready {
		config `+yml+`
		self_scan {
			delay 50ms
			timeout 30s
		}
	}
	reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
}`)
	host := "origin.test:" + base[strings.LastIndex(base, ":")+1:]

	idx := waitIndex(t, admin, func(s indexStatus) bool { return s.State == "ok" || s.Failures > 0 })
	if idx.State != "ok" || idx.Pages < 2 || idx.Warning != "" {
		t.Errorf("the content index did not read the site through the CDN's host: %+v", idx)
	}

	var sitemap string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, sitemap = getAs(t, base, host, "/sitemap.xml"); strings.Contains(sitemap, "https://www.public.test/open") {
			break
		}
	}
	if !strings.Contains(sitemap, "https://www.public.test/open") {
		t.Errorf("the sitemap does not list the site's pages on the public origin:\n%s", sitemap)
	}

	st := waitReport(t, admin)
	if st.Warning != "" {
		t.Errorf("a reachable site gets a warning: %q", st.Warning)
	}
	_, body := get(t, "GET", admin+"/agent-ready/report.json")
	var rep struct{ Routes []string }
	if err := json.Unmarshal([]byte(body), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Routes) < 2 {
		t.Errorf("the self-scan read %v: not the site's pages", rep.Routes)
	}
	if code, home := getAs(t, base, host, "/"); code != 200 || !strings.Contains(home, "private corners") {
		t.Fatalf("the site does not answer its origin host: %d", code)
	}
}

// TestIntegrationOwnRequestsRetryWhileSiteStarts: the origin is down when
// Caddy starts (every own request gets a 502). The sitemap finder, the
// crawl and the self-scan retry after a backoff instead of publishing the
// empty result until the next refresh: once the origin is up, the
// generated sitemap lists its pages and the self-score judges the real
// site, within seconds. Meanwhile the admin status says the site did not
// answer.
func TestIntegrationOwnRequestsRetryWhileSiteStarts(t *testing.T) {
	pagesMin, scanMin := pagesRetryMin, scanRetryMin
	pagesRetryMin, scanRetryMin = 50*time.Millisecond, 50*time.Millisecond
	t.Cleanup(func() { pagesRetryMin, scanRetryMin = pagesMin, scanMin })
	originAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	base, admin := runCaddy(t, `:{port} {
	bind 127.0.0.1
	agent_ready {
		self_scan {
			delay 50ms
			timeout 30s
		}
	}
	reverse_proxy `+originAddr+`
}`)
	st := waitReport(t, admin)
	if !strings.Contains(st.Error, "did not answer") {
		t.Errorf("the status does not say the site did not answer: %+v", st)
	}

	l, err := net.Listen("tcp", originAddr)
	if err != nil {
		t.Skipf("the origin's port was taken meanwhile: %v", err)
	}
	origin := httptest.NewUnstartedServer(restrictedOrigin(t).Config.Handler)
	origin.Listener.Close()
	origin.Listener = l
	origin.Start()
	t.Cleanup(origin.Close)

	if sitemap := getUntil(t, base+"/sitemap.xml", base+"/open"); !strings.Contains(sitemap, base+"/open") {
		t.Errorf("the sitemap does not list the pages once the origin is up:\n%s", sitemap)
	}
	var last string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		_, body := get(t, "GET", admin+"/agent-ready/status")
		var all struct{ Sites []status }
		if json.Unmarshal([]byte(body), &all) == nil && len(all.Sites) == 1 && all.Sites[0].Error == "" &&
			all.Sites[0].Score != nil && *all.Sites[0].Score > *st.Score {
			return
		}
		last = body
	}
	t.Errorf("the self-scan did not judge the site once it answered; last status:\n%s", last)
}
