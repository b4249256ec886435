package caddymodule

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSecurityRobotsStreamedOverCap: an origin robots.txt larger than the
// merge bound (512 KiB) reaches the client as the origin's bytes,
// untouched, and streams: the origin writes the first 600 KB and waits
// until the client has read them before it writes the remaining 64 MB, so
// a module that held the file whole would never answer (the test would
// fail on its deadline, not on a measured time). HEAD gets the origin's
// headers and no body.
func TestSecurityRobotsStreamedOverCap(t *testing.T) {
	const first, total = 600 << 10, 64 << 20
	line := []byte("Disallow: /a-very-long-path-that-repeats-for-a-while/\n")
	file := bytes.Repeat(line, total/len(line)+1)[:total]
	release := make(chan struct{})
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Write(file[:first])
		http.NewResponseController(w).Flush()
		if r.Method == http.MethodGet && r.Header.Get("X-Test-Stream") != "" {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		w.Write(file[first:])
	}))
	defer origin.Close()
	base := runWithYAML(t, origin.URL, "site:\n  name: Big\n")

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/robots.txt", nil)
	req.Header.Set("X-Test-Stream", "1")
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatalf("GET /robots.txt: %v (the module held the origin's file instead of streaming it)", err)
	}
	defer resp.Body.Close()
	head := make([]byte, first)
	if _, err := io.ReadFull(resp.Body, head); err != nil {
		t.Fatalf("reading the first %d bytes: %v (the module held the origin's file instead of streaming it)", first, err)
	}
	close(release)
	rest, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	got := append(head, rest...)
	if resp.StatusCode != 200 || len(got) != total || sha256.Sum256(got) != sha256.Sum256(file) {
		t.Fatalf("status %d, %d bytes; want the origin's %d bytes untouched", resp.StatusCode, len(got), total)
	}
	if strings.Contains(string(got[len(got)-4096:]), "Sitemap:") {
		t.Errorf("lines were appended to a file over the bound")
	}

	hresp, body := get(t, "HEAD", base+"/robots.txt")
	if hresp.StatusCode != 200 || body != "" {
		t.Errorf("HEAD: %d with %d bytes of body", hresp.StatusCode, len(body))
	}
}

// TestSecurityRateLimitForgedForwardedFor: behind trusted_proxies without
// trusted_proxies_strict, Caddy's client_ip is the leftmost
// X-Forwarded-For entry, which the client writes. The rate limit reads the
// header as the strict mode does (right to left, the first address that is
// not a trusted proxy), so one client rotating the leftmost entry is
// limited at the configured rate, while two real clients behind the proxy
// keep budgets of their own.
func TestSecurityRateLimitForgedForwardedFor(t *testing.T) {
	yml := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(yml, []byte("site:\n  name: Limits\nconnect:\n  enabled: true\n  rate_limit: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	origin := newOrigin(t)
	for n, strict := range []string{"", "trusted_proxies_strict"} {
		t.Run("strict="+fmt.Sprint(strict != ""), func(t *testing.T) {
			base, _ := runCaddy(t, `{
	admin 127.0.0.1:{admin}
	persist_config off
	servers {
		trusted_proxies static 127.0.0.1/32 10.0.0.0/8
		`+strict+`
	}
}
`+agentReadySite(proxyTo(origin.URL), "config "+yml))
			answered := 0
			for i := range 8 {
				// The client forged the first entry; the trusted proxy at
				// 10.1.1.1 appended the address it saw.
				xff := fmt.Sprintf("192.0.2.%d, 198.51.100.%d, 10.1.1.1", i+1, 10+n)
				if resp, _ := get(t, "GET", base+"/ask?query=pricing", "X-Forwarded-For", xff); resp.StatusCode != http.StatusTooManyRequests {
					answered++
				}
			}
			if answered != 3 {
				t.Errorf("%d of 8 answered to one client rotating the leftmost X-Forwarded-For, want 3 (rate_limit 3)", answered)
			}
			if resp, _ := get(t, "GET", base+"/ask?query=pricing", "X-Forwarded-For", fmt.Sprintf("198.51.100.%d", 20+n)); resp.StatusCode == http.StatusTooManyRequests {
				t.Errorf("another client behind the proxy shares the first one's budget")
			}
		})
	}
}

// TestSecurityVerifierForgedForwardedFor: a client claiming GPTBot cannot
// pass verification by prepending an address from OpenAI's ranges to
// X-Forwarded-For; the address the trusted proxy appended is judged.
func TestSecurityVerifierForgedForwardedFor(t *testing.T) {
	origin := newOrigin(t)
	base, admin := runCaddy(t, trafficCaddyfile(t, origin.URL, policyYAML("verified"), "save_interval off"))
	resp, body := get(t, "GET", base+"/pricing", "User-Agent", uaGPTBot, "X-Forwarded-For", "203.0.113.7, 198.51.100.4")
	if resp.StatusCode != 403 || !strings.Contains(body, "does not come from an address OpenAI publishes") {
		t.Errorf("forged leftmost entry: %d %q, want 403 as a spoofer", resp.StatusCode, body)
	}
	// The control: the same address appended by the proxy is verified.
	if resp, body := get(t, "GET", base+"/pricing", "User-Agent", uaGPTBot, "X-Forwarded-For", "198.51.100.4, 203.0.113.7"); resp.StatusCode != 403 || !strings.Contains(body, "train AI models") {
		t.Errorf("GPTBot from its own range: %d %q, want 403 for training", resp.StatusCode, body)
	}
	snap, _ := trafficSnapshot(t, admin, base)
	if v := clientStats(snap, "GPTBot").Verification; v.Failed != 1 || v.Verified != 1 {
		t.Errorf("verification %+v, want 1 failed (the forger) and 1 verified", v)
	}
}
