package caddymodule

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/klauspost/compress/zstd"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
)

// faultPage is the HTML every misbehaving origin path starts to send: big
// enough that half of it is a real prefix of a page, small enough to convert.
var faultPage = "<!doctype html><html lang=\"en\"><head><title>Fault</title></head><body><main><h1>Fault</h1>" +
	strings.Repeat("<p>The origin misbehaves in the middle of this paragraph.</p>\n", 60) +
	"</main></body></html>\n"

// nestedQuotesPage is the hostile page of issue #18: ten nests of 500
// blockquotes, 130 KB of HTML whose Markdown was 5 MB and 10 s of CPU.
var nestedQuotesPage = strings.Repeat(strings.Repeat("<blockquote>a", 500)+strings.Repeat("</blockquote>", 500), 10)

// faultWait bounds every wait of an origin handler, so a proxy that never
// cancels makes the test fail instead of hanging. It is generous: on a
// loaded shared machine a cancellation can take seconds to travel.
const faultWait = 60 * time.Second

// faultOrigin is an origin whose paths fail the ways production origins do.
// Handlers that wait report on cancelled when their request context ends
// before they are done (the proxy gave up on them, as it must); the slow
// page reports on started when it begins.
type faultOrigin struct {
	*httptest.Server
	started   chan string
	cancelled chan string
}

func newFaultOrigin(t *testing.T) *faultOrigin {
	t.Helper()
	o := &faultOrigin{started: make(chan string, 1000), cancelled: make(chan string, 1000)}
	o.Server = httptest.NewServer(http.HandlerFunc(o.serve))
	t.Cleanup(o.Close)
	return o
}

func (o *faultOrigin) serve(w http.ResponseWriter, r *http.Request) {
	half := faultPage[:len(faultPage)/2]
	switch r.URL.Path {
	case "/page":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, faultPage)
	case "/nested-quotes":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, nestedQuotesPage)
	case "/slow-headers":
		o.wait(r) // reverse_proxy's response_header_timeout fires first
	case "/stall-body":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, half)
		w.(http.Flusher).Flush()
		o.wait(r)
	case "/slow-page":
		// A long page dribbled out until the reader goes away.
		o.started <- r.URL.Path
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!doctype html><html><head><title>Slow</title></head><body><main>")
		deadline := time.Now().Add(faultWait)
		for time.Now().Before(deadline) {
			if _, err := io.WriteString(w, strings.Repeat("<p>slow</p>", 400)); err != nil {
				break
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				o.cancelled <- r.URL.Path
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	case "/truncated-gzip":
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		io.WriteString(zw, faultPage)
		zw.Close()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(buf.Bytes()[:buf.Len()/2])
	case "/reset":
		// The connection dies after half of the announced body.
		o.raw(w, "Content-Type: text/html; charset=utf-8\r\nContent-Length: "+strconv.Itoa(len(faultPage))+"\r\n", half)
	case "/short-length":
		// Content-Length announces less than the origin sends.
		o.raw(w, "Content-Type: text/html; charset=utf-8\r\nContent-Length: 120\r\n", faultPage)
	case "/bad-length":
		o.raw(w, "Content-Type: text/html; charset=utf-8\r\nContent-Length: many\r\n", faultPage)
	case "/conflicting-length":
		o.raw(w, "Content-Type: text/html; charset=utf-8\r\nContent-Length: 120\r\nContent-Length: 240\r\n", faultPage)
	default:
		http.NotFound(w, r)
	}
}

// wait blocks until the request is cancelled (reported) or faultWait ends.
func (o *faultOrigin) wait(r *http.Request) {
	select {
	case <-r.Context().Done():
		o.cancelled <- r.URL.Path
	case <-time.After(faultWait):
	}
}

// raw writes a hand-made 200 response on the hijacked connection and closes
// it, so the origin can send what net/http would refuse to.
func (o *faultOrigin) raw(w http.ResponseWriter, header, body string) {
	conn, bufrw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	fmt.Fprintf(bufrw, "HTTP/1.1 200 OK\r\n%s\r\n%s", header, body)
	bufrw.Flush()
}

// waitCancelled waits until the origin reports n cancelled requests for
// path: the proxy stopped waiting for the origin once nobody wanted the
// answer.
func (o *faultOrigin) waitCancelled(t *testing.T, path string, n int) {
	t.Helper()
	deadline := time.After(faultWait + 5*time.Second)
	for got := 0; got < n; {
		select {
		case p := <-o.cancelled:
			if p == path {
				got++
			}
		case <-deadline:
			t.Fatalf("the origin saw %d of %d requests for %s cancelled: the proxy kept waiting for it", got, n, path)
		}
	}
}

// faultCaddyfile proxies to the fault origin, with an error page so that
// the test sees whether errors reach handle_errors untouched; /down/ goes to
// a port nothing listens on.
func faultCaddyfile(t *testing.T, origin string) string {
	return fmt.Sprintf(`:{port} {
	bind 127.0.0.1
	agent_ready {
		self_scan off
	}
	handle_errors {
		respond "error page {err.status_code}" {err.status_code}
	}
	handle /down/* {
		reverse_proxy 127.0.0.1:%d
	}
	handle {
		reverse_proxy %s {
			transport http {
				response_header_timeout 1s
			}
		}
	}
}
`, freePort(t), strings.TrimPrefix(origin, "http://"))
}

// fetch is get without failing on transport errors: it returns them, with
// whatever part of the body was read.
func fetch(client *http.Client, method, url string, hdr ...string) (*http.Response, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), faultWait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return nil, "", err
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	if client == nil {
		client = &http.Client{Transport: &http.Transport{DisableCompression: true}}
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, string(body), err
}

const (
	acceptMarkdown = "text/markdown"
	acceptBrowser  = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
)

// TestFaultOrigin runs the origin failures through the module in front of
// reverse_proxy, for both forms.
func TestFaultOrigin(t *testing.T) {
	origin := newFaultOrigin(t)
	base, _ := runCaddy(t, faultCaddyfile(t, origin.URL))

	t.Run("healthy page converts", func(t *testing.T) {
		resp, body := get(t, "GET", base+"/page", "Accept", acceptMarkdown)
		if resp.StatusCode != 200 || !strings.HasPrefix(body, "---\ntitle: Fault\n") {
			t.Fatalf("the control request failed: %d\n%.200s", resp.StatusCode, body)
		}
	})

	// Errors from reverse_proxy are returned untouched: nothing was written,
	// so handle_errors answers with the status reverse_proxy chose.
	for _, tc := range []struct {
		name, path string
		status     int
	}{
		{"origin down", "/down/page", http.StatusBadGateway},
		{"origin down, suffix", "/down/page/md", http.StatusBadGateway},
		{"response_header_timeout", "/slow-headers", http.StatusGatewayTimeout},
		{"content-length not a number", "/bad-length", http.StatusBadGateway},
		{"conflicting content-lengths", "/conflicting-length", http.StatusBadGateway},
	} {
		for _, accept := range []string{acceptMarkdown, acceptBrowser} {
			t.Run(tc.name+" "+strings.Split(accept, ",")[0], func(t *testing.T) {
				resp, body := get(t, "GET", base+tc.path, "Accept", accept)
				want := fmt.Sprintf("error page %d", tc.status)
				if resp.StatusCode != tc.status || body != want {
					t.Errorf("got %d %q, want %d %q from handle_errors", resp.StatusCode, body, tc.status, want)
				}
				if ct := resp.Header.Get("Content-Type"); strings.HasPrefix(ct, "text/markdown") {
					t.Errorf("an error answered as Markdown: %q", ct)
				}
			})
		}
	}
	origin.waitCancelled(t, "/slow-headers", 2)

	t.Run("reset mid-body, markdown", func(t *testing.T) {
		// Nothing has reached the client while the page was buffered;
		// reverse_proxy aborts the exchange, so the client sees the
		// connection end, never a Markdown of half a page.
		resp, body, err := fetch(nil, "GET", base+"/reset", "Accept", acceptMarkdown)
		t.Logf("client saw: %v", err)
		if err == nil && resp.StatusCode == 200 {
			t.Fatalf("a truncated page answered 200 %q:\n%.300s", resp.Header.Get("Content-Type"), body)
		}
	})

	t.Run("reset mid-body, html", func(t *testing.T) {
		// The HTML form streams: the client gets the first half and a
		// framing error (short body or unterminated chunks), never a body
		// that looks complete.
		resp, body, err := fetch(nil, "GET", base+"/reset", "Accept", acceptBrowser)
		if err == nil {
			t.Fatalf("the client read a complete-looking response: %d, %d bytes", resp.StatusCode, len(body))
		}
	})

	t.Run("truncated gzip passed through", func(t *testing.T) {
		// With Accept-Encoding sent, reverse_proxy hands the coded bytes on;
		// decoding fails, so the original response goes out byte for byte.
		direct, want, err := fetch(nil, "GET", origin.URL+"/truncated-gzip", "Accept-Encoding", "gzip")
		if err != nil || direct.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("origin: %v", err)
		}
		resp, body, err := fetch(nil, "GET", base+"/truncated-gzip", "Accept", acceptMarkdown, "Accept-Encoding", "gzip")
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || body != want {
			t.Errorf("got %d %q, %d bytes; want the origin's %d gzip bytes", resp.StatusCode, resp.Header.Get("Content-Encoding"), len(body), len(want))
		}
		if cl := resp.Header.Get("Content-Length"); cl != strconv.Itoa(len(want)) {
			t.Errorf("Content-Length %q, want %d", cl, len(want))
		}
		assertVaryAccept(t, resp)
	})

	t.Run("truncated gzip decoded by the proxy", func(t *testing.T) {
		// Without Accept-Encoding, reverse_proxy's transport asks for gzip
		// and inflates it itself: the body ends in an error mid-stream.
		for _, accept := range []string{acceptMarkdown, acceptBrowser} {
			resp, body, err := fetch(nil, "GET", base+"/truncated-gzip", "Accept", accept)
			t.Logf("Accept %q: client saw: %v", accept, err)
			if err == nil && resp.StatusCode == 200 && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") {
				t.Errorf("Accept %q: a Markdown of a truncated page:\n%.300s", accept, body)
			}
		}
	})

	t.Run("content-length shorter than the body", func(t *testing.T) {
		// The proxy reads what Content-Length announces and no more; the
		// answer is consistent in itself, whatever the form.
		for _, accept := range []string{acceptMarkdown, acceptBrowser} {
			resp, body, err := fetch(nil, "GET", base+"/short-length", "Accept", accept)
			if err != nil {
				t.Fatalf("Accept %q: %v", accept, err)
			}
			if cl := resp.Header.Get("Content-Length"); cl != "" && cl != strconv.Itoa(len(body)) {
				t.Errorf("Accept %q: Content-Length %s for %d bytes", accept, cl, len(body))
			}
			if strings.Contains(body, "misbehaves in the middle of this paragraph.</p>\n<p>The origin misbehaves in the middle of this paragraph.") {
				t.Errorf("Accept %q: bytes past the announced length reached the client", accept)
			}
		}
	})

	t.Run("client timeout cancels the origin request", func(t *testing.T) {
		for _, accept := range []string{acceptMarkdown, acceptBrowser} {
			client := &http.Client{Timeout: 300 * time.Millisecond, Transport: &http.Transport{DisableCompression: true}}
			if _, _, err := fetch(client, "GET", base+"/stall-body", "Accept", accept); err == nil {
				t.Fatalf("Accept %q: the stalled origin answered in full", accept)
			}
			client.CloseIdleConnections()
			origin.waitCancelled(t, "/stall-body", 1)
		}
	})

	t.Run("nested quotes", func(t *testing.T) {
		// Converted within its budget, quotes no deeper than the
		// converter's bound and the Markdown within a small multiple of
		// the HTML; or, failing that, the page as the origin sent it.
		resp, body := get(t, "GET", base+"/nested-quotes", "Accept", acceptMarkdown)
		if resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") {
			if body != nestedQuotesPage {
				t.Errorf("neither Markdown nor the origin's page: %q, %d bytes", resp.Header.Get("Content-Type"), len(body))
			}
			return
		}
		if len(body) > 4*len(nestedQuotesPage) {
			t.Errorf("%d bytes of HTML made %d bytes of Markdown", len(nestedQuotesPage), len(body))
		}
		for line := range strings.SplitSeq(body, "\n") {
			if n := strings.Count(line, ">"); n > 10 {
				t.Fatalf("a line quoted %d deep: %.80q", n, line)
			}
		}
	})

	t.Run("still serving after the faults", func(t *testing.T) {
		resp, body := get(t, "GET", base+"/page/md")
		if resp.StatusCode != 200 || !strings.HasPrefix(body, "---\ntitle: Fault\n") {
			t.Fatalf("got %d\n%.200s", resp.StatusCode, body)
		}
	})
}

// TestFaultClientDisconnect: clients that hang up in the middle of a
// response (while the Markdown form is being buffered, or while the HTML
// form streams) leave nothing running: the origin's request is cancelled
// and the goroutine count comes back to where it was.
func TestFaultClientDisconnect(t *testing.T) {
	origin := newFaultOrigin(t)
	base, _ := runCaddy(t, faultCaddyfile(t, origin.URL))
	addr := strings.TrimPrefix(base, "http://")

	hangUp := func(accept string, readFirst bool) {
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(faultWait))
		fmt.Fprintf(conn, "GET /slow-page HTTP/1.1\r\nHost: %s\r\nAccept: %s\r\n\r\n", addr, accept)
		// Hang up only once the origin is at work on the page.
		select {
		case <-origin.started:
		case <-time.After(faultWait):
			t.Fatal("the request never reached the origin")
		}
		if readFirst {
			// The HTML form streams: wait for its first bytes too.
			br := bufio.NewReader(conn)
			if _, err := br.ReadString('\n'); err != nil {
				t.Fatalf("no status line: %v", err)
			}
		}
	}

	// One round of each first, so that pools and lazily started goroutines
	// exist before the baseline is taken.
	hangUp(acceptMarkdown, false)
	hangUp(acceptBrowser, true)
	origin.waitCancelled(t, "/slow-page", 2)
	baseline := settledGoroutines(0, time.Second)

	const rounds = 15
	for range rounds {
		hangUp(acceptMarkdown, false)
		hangUp(acceptBrowser, true)
	}
	origin.waitCancelled(t, "/slow-page", 2*rounds)

	// A leak of one goroutine per request would leave 2*rounds behind.
	const slack = 8
	if n := settledGoroutines(baseline+slack, 15*time.Second); n > baseline+slack {
		var buf bytes.Buffer
		pprof.Lookup("goroutine").WriteTo(&buf, 1)
		t.Fatalf("%d goroutines after %d aborted requests, %d before:\n%s", n, 2*rounds, baseline, buf.String())
	}
}

// settledGoroutines polls the goroutine count until it is at most want or
// the time is up, and returns the last count. With want 0 it waits for the
// count to stop falling and returns it.
func settledGoroutines(want int, limit time.Duration) int {
	deadline := time.Now().Add(limit)
	n := runtime.NumGoroutine()
	for time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		m := runtime.NumGoroutine()
		if want > 0 && m <= want || want == 0 && m >= n {
			return m
		}
		n = m
	}
	return n
}

// TestFaultReloadUnderLoad loads a second configuration, and back, while a
// bounded pool of clients keeps asking for both forms of a page: every
// request that reaches the handlers must get a complete 200, from one config
// or the other.
//
// On Linux, Caddy binds the new config's listener beside the old one with
// SO_REUSEPORT; connections the kernel had queued on the old socket are
// reset when it closes, before any handler sees them (plain `respond` shows
// the same). Those requests never reached the origin, so a client may and
// does retry them; a failed request the origin did see fails the test.
func TestFaultReloadUnderLoad(t *testing.T) {
	origin := newOrigin(t)
	var reached sync.Map // X-Test-Request values the origin received
	files := origin.Config.Handler
	origin.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Store(r.Header.Get("X-Test-Request"), true)
		files.ServeHTTP(w, r)
	})
	config := func(signal string) string {
		return fmt.Sprintf(`{
	admin 127.0.0.1:{admin}
	persist_config off
}
:{port} {
	bind 127.0.0.1
	encode gzip
	agent_ready {
		config ../examples/site.yaml
		content_signal %s
		self_scan off
	}
	reverse_proxy %s
}
`, signal, strings.TrimPrefix(origin.URL, "http://"))
	}
	base, admin := runCaddy(t, config("search=yes"))
	ports := strings.NewReplacer("{port}", strings.TrimPrefix(base, "http://127.0.0.1:"), "{admin}", strings.TrimPrefix(admin, "http://127.0.0.1:"))
	configs := []string{ports.Replace(config("search=yes")), ports.Replace(config("search=no"))}

	var (
		stop     atomic.Bool
		inFlight atomic.Int64
		done     atomic.Int64
		retried  atomic.Int64
		wg       sync.WaitGroup
		mu       sync.Mutex
		failures []string
		signals  = map[string]int{}
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 20 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
	}
	const workers = 4
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
			defer client.CloseIdleConnections()
			for i := 0; !stop.Load(); i++ {
				markdown := (i+w)%2 == 0
				accept := acceptBrowser
				if markdown {
					accept = acceptMarkdown
				}
				inFlight.Add(1)
				var (
					resp *http.Response
					body string
					err  error
				)
				for attempt := 0; attempt < 3; attempt++ {
					id := fmt.Sprintf("%d-%d-%d", w, i, attempt)
					resp, body, err = fetch(client, "GET", base+"/pricing", "Accept", accept, "X-Test-Request", id)
					if _, seen := reached.Load(id); err == nil || seen {
						break
					}
					retried.Add(1)
				}
				inFlight.Add(-1)
				done.Add(1)
				switch {
				case err != nil:
					fail("Accept %s: %v", accept, err)
				case resp.StatusCode != 200:
					fail("Accept %s: status %d", accept, resp.StatusCode)
				case markdown && !strings.HasPrefix(body, "---\ntitle: Pricing\n"):
					fail("Markdown form incomplete: %.100q", body)
				case !markdown && !strings.Contains(body, "</html>"):
					fail("HTML form incomplete: %d bytes", len(body))
				case resp.Header.Get("Content-Length") != "" && resp.Header.Get("Content-Length") != strconv.Itoa(len(body)):
					fail("Content-Length %s for %d bytes", resp.Header.Get("Content-Length"), len(body))
				default:
					mu.Lock()
					signals[resp.Header.Get("Content-Signal")]++
					mu.Unlock()
				}
			}
		}()
	}

	busy := 0
	for i := 1; i <= 4; i++ {
		waitFor(t, func() bool { return done.Load() >= int64(20*i) })
		if inFlight.Load() > 0 {
			busy++
		}
		loadCaddyfile(t, configs[i%2])
	}
	waitFor(t, func() bool { return done.Load() >= 100 })
	stop.Store(true)
	wg.Wait()

	for _, f := range failures {
		t.Error(f)
	}
	if busy == 0 {
		t.Errorf("no reload happened while requests were in flight")
	}
	if signals["search=yes"] == 0 || signals["search=no"] == 0 {
		t.Errorf("both configurations must have answered: %v", signals)
	}
	t.Logf("%d requests across 4 reloads (%d started with requests in flight, %d retried after the listener reset them): %v",
		done.Load(), busy, retried.Load(), signals)
}

// loadCaddyfile adapts and loads a configuration in place of the running
// one (the caller holds caddyMu through runCaddy).
func loadCaddyfile(t *testing.T, text string) {
	t.Helper()
	cfg, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(text), map[string]any{"filename": "Caddyfile"})
	if err != nil {
		t.Fatalf("adapting Caddyfile: %v", err)
	}
	if err := caddy.Load(cfg, true); err != nil {
		t.Fatalf("reloading: %v", err)
	}
}

// waitFor polls cond until it holds, failing the test after faultWait.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(faultWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in time")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestFaultConverterPanic: html-to-markdown cannot be made to panic from
// outside (convert.Converter recovers its own panics and returns an error),
// so the handler's last line of defence is shown with a converter that
// panics, set on a provisioned module: the original bytes go out, with the
// HTML form's headers, and the failure is counted.
func TestFaultConverterPanic(t *testing.T) {
	ctx, cancel := caddy.NewContext(caddy.Context{Context: context.Background()})
	defer cancel()
	ar := &AgentReady{SelfScan: &SelfScan{Disabled: true}, Settings: convert.Settings{ConversionCache: -1}}
	if err := ar.Provision(ctx); err != nil {
		t.Fatal(err)
	}
	if err := ar.Validate(); err != nil {
		t.Fatal(err)
	}
	ar.neg.Convert = func([]byte, negotiate.Page) (*negotiate.Converted, error) {
		panic("converter bug")
	}
	const page = "<html><head><title>P</title></head><body><main><p>original bytes</p></main></body></html>"
	next := caddyhttp.HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(page)))
		_, err := io.WriteString(w, page)
		return err
	})
	before := counterValue(t, metrics.failOpen.WithLabelValues("panic"))
	for _, target := range []string{"/p", "/p/md"} {
		req := httptest.NewRequest("GET", "http://example.test"+target, nil)
		req.Header.Set("Accept", acceptMarkdown)
		rec := httptest.NewRecorder()
		if err := ar.ServeHTTP(rec, req, next); err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		if rec.Code != 200 || rec.Body.String() != page {
			t.Errorf("%s: got %d %q, want the original page", target, rec.Code, rec.Body.String())
		}
		if ct := rec.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", target, ct)
		}
		if cl := rec.Header().Get("Content-Length"); cl != strconv.Itoa(len(page)) {
			t.Errorf("%s: Content-Length %q", target, cl)
		}
		assertVaryAccept(t, rec.Result())
	}
	if got := counterValue(t, metrics.failOpen.WithLabelValues("panic")) - before; got != 2 {
		t.Errorf("fail_open_total{reason=panic} grew by %v, want 2", got)
	}
}

// counterValue reads a Prometheus counter.
func counterValue(t *testing.T, c prometheus.Counter) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}

// zstdLongWindow compresses page as a zstd frame that declares a window of
// 1<<log bytes and no content size, as `zstd -3 --long=log` writes a page
// it reads from a pipe. The encoder writes it with a 1 MiB window and the
// header is changed afterwards (RFC 8878 §3.1.1.1.2: the byte after the
// frame header descriptor), so the test does not allocate the window; the
// frame decodes the same with any window at least that large.
func zstdLongWindow(t *testing.T, page []byte, log int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := zstd.NewWriter(&buf, zstd.WithWindowSize(1<<20), zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true))
	if err != nil {
		t.Fatal(err)
	}
	for p := page; len(p) > 0; p = p[min(len(p), 64<<10):] {
		zw.Write(p[:min(len(p), 64<<10)])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	frame := buf.Bytes()
	frame[5] = byte(log-10) << 3
	var h zstd.Header
	if err := h.Decode(frame); err != nil || h.WindowSize != 1<<log {
		t.Fatalf("zstd header %+v (%v), want a window of %d bytes", h, err, 1<<log)
	}
	return frame
}

// TestFaultUndecodableOrigin: compressed pages the module cannot decode in
// full, through reverse_proxy (the client's Accept-Encoding makes it hand
// the coded bytes on): a zstd frame with a 128 MiB window and a gzip body
// inflating past max_size. Each is answered, in both forms, with the
// origin's bytes and headers untouched; never an empty or short 200. Each
// failure is counted by reason. A zstd frame with the largest window
// accepted is decoded: converted; for a browser, annotated it would encode
// larger than the origin's tiny frame, which goes out as it came.
func TestFaultUndecodableOrigin(t *testing.T) {
	page := []byte(faultPage[:strings.Index(faultPage, "</main>")] + strings.Repeat("<p>Zstandard with a long window.</p>\n", 8000) + "</main></body></html>\n")
	long := zstdLongWindow(t, page, 27)
	allowed := zstdLongWindow(t, page, 23)
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	io.WriteString(zw, "<!doctype html><html><head><title>Bomb</title></head><body><p>")
	spaces := bytes.Repeat([]byte(" "), 1<<20)
	for range 65 {
		zw.Write(spaces)
	}
	io.WriteString(zw, "</p></body></html>\n")
	zw.Close()
	bomb := gz.Bytes()
	t.Logf("zstd frames of %d bytes for a %d-byte page; a gzip body of %d bytes for %d MiB", len(long), len(page), len(bomb), 65)

	bodies := map[string][]byte{"zstd-long": long, "zstd-8m": allowed, "gzip-bomb": bomb}
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// /length/<name> announces its length; /stream/<name> is chunked.
		mode, name, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		body, ok := bodies[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", strings.Split(name, "-")[0])
		w.Header().Set("Etag", `"`+name+`"`)
		if mode == "length" {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		for p := body; len(p) > 0; p = p[min(len(p), 16<<10):] {
			if _, err := w.Write(p[:min(len(p), 16<<10)]); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(origin.Close)
	base, _ := runCaddy(t, faultCaddyfile(t, origin.URL))

	for _, tc := range []struct {
		path, accept string
		want         string // "origin" or "markdown"
		reason       string // the fail_open_total label that must grow by one
	}{
		{"/length/zstd-long", acceptMarkdown, "origin", "decode"},
		{"/stream/zstd-long", acceptMarkdown, "origin", "decode"},
		{"/length/zstd-long", acceptBrowser, "origin", "rewrite_decode"},
		{"/stream/zstd-long", acceptBrowser, "origin", "rewrite_decode"},
		{"/length/gzip-bomb", acceptMarkdown, "origin", "too_large"},
		{"/stream/gzip-bomb", acceptMarkdown, "origin", "too_large"},
		{"/length/gzip-bomb", acceptBrowser, "origin", "rewrite_size"},
		{"/stream/gzip-bomb", acceptBrowser, "origin", "rewrite_size"},
		{"/length/zstd-8m", acceptMarkdown, "markdown", ""},
		// 204 bytes of zstd for 300 KB: annotated, it encodes larger.
		{"/stream/zstd-8m", acceptBrowser, "origin", "rewrite_larger"},
	} {
		t.Run(tc.path+" "+strings.Split(tc.accept, ",")[0], func(t *testing.T) {
			name := tc.path[strings.LastIndex(tc.path, "/")+1:]
			reasons := []string{"decode", "too_large", "rewrite_decode", "rewrite_size", "rewrite_larger"}
			before := map[string]float64{}
			for _, r := range reasons {
				before[r] = counterValue(t, metrics.failOpen.WithLabelValues(r))
			}
			resp, body, err := fetch(nil, "GET", base+tc.path, "Accept", tc.accept, "Accept-Encoding", "gzip, zstd")
			switch tc.want {
			case "origin":
				if err != nil {
					t.Fatal(err)
				}
				if resp.StatusCode != 200 || body != string(bodies[name]) {
					t.Fatalf("got %d with %d bytes, want 200 with the origin's %d bytes", resp.StatusCode, len(body), len(bodies[name]))
				}
				if ce := resp.Header.Get("Content-Encoding"); ce != strings.Split(name, "-")[0] {
					t.Errorf("Content-Encoding %q", ce)
				}
				if et := resp.Header.Get("Etag"); et != `"`+name+`"` {
					t.Errorf("Etag %q", et)
				}
				if cl := resp.Header.Get("Content-Length"); strings.HasPrefix(tc.path, "/length/") && cl != strconv.Itoa(len(body)) {
					t.Errorf("Content-Length %q for %d bytes", cl, len(body))
				}
				assertVaryAccept(t, resp)
			case "markdown":
				if err != nil || resp.StatusCode != 200 || !strings.HasPrefix(body, "---\ntitle: Fault\n") || !strings.Contains(body, "Zstandard with a long window.") {
					t.Fatalf("got %v %v\n%.200s", resp, err, body)
				}
			}
			for _, r := range reasons {
				want := 0.0
				if r == tc.reason {
					want = 1
				}
				if got := counterValue(t, metrics.failOpen.WithLabelValues(r)) - before[r]; got != want {
					t.Errorf("fail_open_total{reason=%q} grew by %v, want %v", r, got, want)
				}
			}
		})
	}
}
