package caddymodule

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
)

func init() {
	caddy.RegisterModule(budgetProbe{})
	httpcaddyfile.RegisterHandlerDirective("budget_probe", func(h httpcaddyfile.Helper) (caddyhttp.MiddlewareHandler, error) {
		return budgetProbe{}, nil
	})
}

// buffered receives the path of each request whose response the handlers
// behind budget_probe have written in full: agent_ready, in front, has the
// whole page and converts it as soon as the probe returns.
var buffered = make(chan string, 100)

// budgetProbe is a test handler placed between agent_ready and the origin:
// it reports on buffered once the origin's response has been handed on.
type budgetProbe struct{}

func (budgetProbe) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.handlers.budget_probe", New: func() caddy.Module { return budgetProbe{} }}
}

func (budgetProbe) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	err := next.ServeHTTP(w, r)
	buffered <- r.URL.Path
	return err
}

func (budgetProbe) UnmarshalCaddyfile(*caddyfile.Dispenser) error { return nil }

// bigArticle is a page of about 1.9 MB (under the default max_size): its
// conversion takes a second or more of CPU.
var bigArticle = func() string {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Big</title></head><body><main>")
	for b.Len() < 1900<<10 {
		b.WriteString(`<section><h2>Section</h2><p>Lorem ipsum dolor sit amet, <a href="/link/page">consectetur</a> adipiscing elit,
sed do <em>eiusmod</em> tempor incididunt ut labore et <strong>dolore magna</strong> aliqua.</p><ul><li>First item</li><li>Second</li></ul>
<table><tr><th>Key</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table></section>`)
	}
	b.WriteString("</main></body></html>")
	return b.String()
}()

// budgetOrigin serves bigArticle at any path ending in /big, and a small
// page at any other.
func budgetOrigin(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := faultPage
		if strings.HasSuffix(r.URL.Path, "/big") {
			page = bigArticle
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(page)))
		io.WriteString(w, page)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestBudgetOverrunFailsOpen: a conversion over its time or output budget
// sends the origin's page, byte for byte, and counts the reason.
func TestBudgetOverrunFailsOpen(t *testing.T) {
	origin := strings.TrimPrefix(budgetOrigin(t).URL, "http://")
	base, _ := runCaddy(t, fmt.Sprintf(`:{port} {
	bind 127.0.0.1
	handle /time/* {
		agent_ready {
			self_scan off
			conversion_cache off
			convert_timeout 1ns
		}
		reverse_proxy %[1]s
	}
	handle {
		agent_ready {
			self_scan off
			conversion_cache off
			max_markdown_size 1KiB
		}
		reverse_proxy %[1]s
	}
}
`, origin))
	for _, tc := range []struct{ path, reason string }{
		{"/time/page", "budget_time"},
		{"/size/page", "budget_size"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			before := counterValue(t, metrics.failOpen.WithLabelValues(tc.reason))
			resp, body := get(t, "GET", base+tc.path, "Accept", acceptMarkdown)
			if resp.StatusCode != 200 || body != faultPage || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" ||
				resp.Header.Get("Content-Length") != strconv.Itoa(len(faultPage)) {
				t.Errorf("got %d %q (%s bytes), want the origin's %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"),
					resp.Header.Get("Content-Length"), len(faultPage))
			}
			assertVaryAccept(t, resp)
			if got := counterValue(t, metrics.failOpen.WithLabelValues(tc.reason)) - before; got != 1 {
				t.Errorf("fail_open_total{reason=%s} grew by %v, want 1", tc.reason, got)
			}
		})
	}
}

// TestBudgetClientGone: a client that hangs up while its page is being
// converted stops the conversion: each one is counted as canceled, none
// as a conversion, and no goroutine is left behind.
func TestBudgetClientGone(t *testing.T) {
	origin := strings.TrimPrefix(budgetOrigin(t).URL, "http://")
	base, _ := runCaddy(t, fmt.Sprintf(`:{port} {
	bind 127.0.0.1
	route {
		agent_ready {
			self_scan off
			conversion_cache off
			convert_timeout 10m
		}
		budget_probe
		reverse_proxy %s
	}
}
`, origin))
	addr := strings.TrimPrefix(base, "http://")
	// The page converts when its client stays.
	if resp, body := get(t, "GET", base+"/a/big", "Accept", acceptMarkdown); resp.StatusCode != 200 || !strings.HasPrefix(body, "---\ntitle: Big\n") {
		t.Fatalf("control request: %d %.100q", resp.StatusCode, body)
	}
	<-buffered
	hangUp := func() {
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "GET /a/big HTTP/1.1\r\nHost: %s\r\nAccept: %s\r\n\r\n", addr, acceptMarkdown)
		select {
		case <-buffered: // the conversion starts now
		case <-time.After(faultWait):
			t.Fatal("the page never reached agent_ready")
		}
	}
	hangUp() // pools and lazily started goroutines exist before the baseline
	canceled := metrics.failOpen.WithLabelValues("canceled")
	waitFor(t, func() bool { return counterValue(t, canceled) >= 1 })
	baseline := settledGoroutines(0, time.Second)

	const rounds = 5
	before, converted := counterValue(t, canceled), counterValue(t, metrics.conversions)
	for range rounds {
		hangUp()
	}
	waitFor(t, func() bool { return counterValue(t, canceled)-before >= rounds })
	if got := counterValue(t, metrics.conversions) - converted; got != 0 {
		t.Errorf("%v conversions ran to the end for clients that had left", got)
	}
	if got := counterValue(t, canceled) - before; got != rounds {
		t.Errorf("fail_open_total{reason=canceled} grew by %v, want %d", got, rounds)
	}
	const slack = 8
	if n := settledGoroutines(baseline+slack, 15*time.Second); n > baseline+slack {
		t.Errorf("%d goroutines after %d abandoned conversions, %d before", n, rounds, baseline)
	}
}
