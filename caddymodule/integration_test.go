package caddymodule

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/fileserver"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/headers"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/rewrite"
)

// caddyMu serialises tests that run Caddy in this process: Caddy has one
// running configuration per process.
var caddyMu sync.Mutex

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// runCaddy adapts the Caddyfile (with {port} and {admin} replaced by free
// ports on 127.0.0.1) and runs it in this process until the test ends. It
// returns the site's base URL.
func runCaddy(t testing.TB, caddyfileText string) (base, admin string) {
	t.Helper()
	caddyMu.Lock()
	t.Cleanup(caddyMu.Unlock)
	port, adminPort := freePort(t), freePort(t)
	text := strings.NewReplacer("{port}", fmt.Sprint(port), "{admin}", fmt.Sprint(adminPort)).Replace(caddyfileText)
	if !strings.Contains(text, "admin ") {
		text = fmt.Sprintf("{\n\tadmin 127.0.0.1:%d\n\tpersist_config off\n}\n", adminPort) + text
	}
	cfg, warnings, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(text), map[string]any{"filename": "Caddyfile"})
	if err != nil {
		t.Fatalf("adapting Caddyfile: %v\n%s", err, text)
	}
	if len(warnings) > 0 {
		t.Logf("adapt warnings: %v", warnings)
	}
	if err := caddy.Load(cfg, true); err != nil {
		t.Fatalf("loading config: %v", err)
	}
	t.Cleanup(func() {
		if err := caddy.Stop(); err != nil {
			t.Logf("stopping caddy: %v", err)
		}
	})
	base = fmt.Sprintf("http://127.0.0.1:%d", port)
	waitListening(t, fmt.Sprintf("127.0.0.1:%d", port))
	return base, fmt.Sprintf("http://127.0.0.1:%d", adminPort)
}

func waitListening(t testing.TB, addr string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("nothing listens on %s", addr)
}

// get performs a request with the given headers and returns the response
// with its body read.
func get(t testing.TB, method, url string, hdr ...string) (*http.Response, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	client := &http.Client{
		Transport: &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading body of %s: %v", url, err)
	}
	return resp, string(body)
}
