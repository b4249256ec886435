package caddymodule

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The fairness of conversions (issue 23, hole 9): many cold Markdown
// requests from one client neither starve another client's Markdown nor
// browsers' HTML.

// fairPage is an article of about 250 KB, the page of the attack.
var fairPage = func() string {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Fair</title></head><body><main>")
	for b.Len() < 250<<10 {
		b.WriteString(`<section><h2>Section</h2><p>Lorem ipsum dolor sit amet, <a href="/link/page">consectetur</a> adipiscing elit,
sed do <em>eiusmod</em> tempor incididunt ut labore et <strong>dolore magna</strong> aliqua.</p><ul><li>First item</li><li>Second</li></ul></section>`)
	}
	b.WriteString("</main></body></html>")
	return b.String()
}()

// fairCaddy runs Caddy with agent_ready (self-scan and conversion cache
// off, then settings) in front of an origin that serves fairPage at every
// path; serve, when set, sees each request first, with the headers set,
// and reports whether it answered it.
func fairCaddy(t *testing.T, settings string, serve func(w http.ResponseWriter, r *http.Request) bool) (base string) {
	return fairCaddyWith(t, "", settings, serve)
}

// fairCaddyWith is fairCaddy with global options (servers settings).
func fairCaddyWith(t *testing.T, global, settings string, serve func(w http.ResponseWriter, r *http.Request) bool) (base string) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(fairPage)))
		if serve == nil || !serve(w, r) {
			io.WriteString(w, fairPage)
		}
	}))
	t.Cleanup(origin.Close)
	if global != "" {
		global = "{\n\tadmin 127.0.0.1:{admin}\n\tpersist_config off\n\t" + global + "\n}\n"
	}
	base, _ = runCaddy(t, global+fmt.Sprintf(`:{port} {
	bind 127.0.0.1
	agent_ready {
		self_scan off
		conversion_cache off
		%s
	}
	reverse_proxy %s
}
`, settings, strings.TrimPrefix(origin.URL, "http://")))
	return base
}

// clientFrom is an HTTP client whose connections come from ip, a loopback
// address (Linux routes all of 127/8 to lo): Caddy's client_ip tells the
// clients apart.
func clientFrom(ip string) *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Timeout: faultWait, Transport: &http.Transport{
		DialContext: dialer.DialContext, DisableCompression: true, MaxIdleConnsPerHost: 64,
	}}
}

// answer is what a client got.
type answer struct {
	status int
	ctype  string
	body   string
}

func (a answer) markdown() bool {
	return a.status == 200 && strings.HasPrefix(a.ctype, "text/markdown") && strings.HasPrefix(a.body, "---\n")
}

// html reports whether a is the origin's page, whole.
func (a answer) html() bool {
	return a.status == 200 && strings.HasPrefix(a.ctype, "text/html") && a.body == fairPage
}

// annotated reports whether a is the origin's page as a browser gets it:
// whole, with the annotations in its head.
func (a answer) annotated() bool {
	return a.status == 200 && strings.HasPrefix(a.ctype, "text/html") && len(a.body) >= len(fairPage) && strings.HasSuffix(a.body, "</main></body></html>")
}

func fairFetch(c *http.Client, url, accept string) (answer, error) {
	return fairFetchFrom(c, url, accept, "")
}

// fairFetchFrom is fairFetch with an X-Forwarded-For header, when xff is
// not empty.
func fairFetchFrom(c *http.Client, url, accept, xff string) (answer, error) {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Accept", accept)
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	resp, err := c.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header.Get("Content-Type"), string(body)}, err
}

// TestFairConversions: a client with many cold Markdown requests in flight
// converts at most conversions_per_client at a time; another client's
// Markdown request waits behind a few of them, not behind all (before,
// the byte budget admitted 16 of these pages at once and the newcomer
// waited for them), and browsers are answered throughout.
func TestFairConversions(t *testing.T) {
	const flood = 24
	var seen atomic.Int64 // flood requests that reached the origin
	base := fairCaddy(t, "convert_timeout 10m\n\t\tqueue_timeout 10m\n\t\tconversions_per_client 2", func(w http.ResponseWriter, r *http.Request) bool {
		if strings.HasPrefix(r.URL.Path, "/a/") {
			seen.Add(1)
		}
		return false
	})

	attacker, other, browser := clientFrom("127.0.0.1"), clientFrom("127.0.0.2"), clientFrom("127.0.0.3")
	var done atomic.Int64 // the attacker's answered requests
	var wg sync.WaitGroup
	attack := make([]answer, flood)
	for i := range flood {
		wg.Go(func() {
			a, err := fairFetch(attacker, fmt.Sprintf("%s/a/%d", base, i), acceptMarkdown)
			if err != nil {
				t.Errorf("attacker %d: %v", i, err)
			}
			attack[i] = a
			done.Add(1)
		})
	}
	t.Cleanup(wg.Wait)
	waitFor(t, func() bool { return seen.Load() == flood }) // every page is at the gates

	// Browsers meanwhile.
	browsers := make(chan error, 1)
	go func() {
		var err error
		for i := 0; i < 5 && err == nil; i++ {
			var a answer
			if a, err = fairFetch(browser, fmt.Sprintf("%s/b/%d", base, i), "text/html"); err == nil && !a.annotated() {
				err = fmt.Errorf("browser got %d %q, %d bytes", a.status, a.ctype, len(a.body))
			}
		}
		browsers <- err
	}()

	before := done.Load()
	a, err := fairFetch(other, base+"/other", acceptMarkdown)
	after := done.Load()
	if err != nil || !a.markdown() {
		t.Fatalf("the other client's Markdown: %v %d %q %.60q", err, a.status, a.ctype, a.body)
	}
	// It waited for the attacker's conversions already admitted (2), and
	// at most two more that were admitted while its page was read.
	if waited := after - before; waited > 4 {
		t.Errorf("the other client's Markdown was answered after %d of the attacker's %d conversions, want at most 4", waited, flood-before)
	}
	if err := <-browsers; err != nil {
		t.Error(err)
	}
	wg.Wait()
	for i, a := range attack {
		if !a.markdown() {
			t.Errorf("attacker %d: %d %q (its conversions wait their turn within queue_timeout)", i, a.status, a.ctype)
		}
	}
}

// TestFairConversionsBusy: a client's conversion past its share waits
// until queue_timeout and then gets the origin's page (reason "busy"),
// while another client's conversion goes ahead; a page that streams slowly
// from its origin holds its client's share but no CPU slot.
func TestFairConversionsBusy(t *testing.T) {
	testBusy(t, "", func(int) string { return "" })
}

// TestSecurityConversionsForgedForwardedFor: behind trusted_proxies
// without trusted_proxies_strict, Caddy's client_ip is the leftmost
// X-Forwarded-For entry, which the client writes. A client rotating it
// still gets conversions_per_client: the share is counted for the address
// the trusted proxy appended (read right to left, as the rate limit does).
func TestSecurityConversionsForgedForwardedFor(t *testing.T) {
	testBusy(t, "servers {\n\t\ttrusted_proxies static 127.0.0.1/32 10.0.0.0/8\n\t}", func(i int) string {
		return fmt.Sprintf("192.0.2.%d, 198.51.100.7, 10.1.1.1", i+1)
	})
}

// testBusy: a client whose one conversion (conversions_per_client 1) is
// held by a stalled page gets its next Markdown request answered with the
// origin's HTML (reason busy), while another client converts; global is
// Caddy's global options, xff the X-Forwarded-For header of the client's
// i-th request ("" for none).
func testBusy(t *testing.T, global string, xff func(i int) string) {
	release := make(chan struct{})
	var once sync.Once
	unstall := func() { once.Do(func() { close(release) }) }
	stalled := make(chan struct{}, 10)
	base := fairCaddyWith(t, global, "queue_timeout 200ms\n\t\tconversions_per_client 1", func(w http.ResponseWriter, r *http.Request) bool {
		if !strings.HasPrefix(r.URL.Path, "/slow/") {
			return false
		}
		// Half the page, then a stall.
		io.WriteString(w, fairPage[:len(fairPage)/2])
		w.(http.Flusher).Flush()
		stalled <- struct{}{}
		<-release
		io.WriteString(w, fairPage[len(fairPage)/2:])
		return true
	})
	t.Cleanup(unstall) // before Caddy stops: it waits for the stalled requests
	busy := metrics.failOpen.WithLabelValues("busy")
	a, b := clientFrom("127.0.0.1"), clientFrom("127.0.0.2")

	// The stalled page holds a's one conversion: a's next one is busy.
	// Should the next one reach the gate first (the stalled page's
	// headers are still on their way), the stalled page is the busy one
	// (it streams through as HTML) and the round starts again.
	slow := make(chan answer, 10)
	var got answer
	for round := 0; ; round++ {
		if round == 5 {
			t.Fatalf("a's next conversion was never refused while its stalled page held the share: %d %q", got.status, got.ctype)
		}
		go func() {
			got, err := fairFetchFrom(a, fmt.Sprintf("%s/slow/%d", base, round), acceptMarkdown, xff(2*round))
			if err != nil {
				t.Error(err)
			}
			slow <- got
		}()
		select {
		case <-stalled:
		case <-time.After(faultWait):
			t.Fatal("the stalled page never reached the origin")
		}
		before := counterValue(t, busy)
		var err error
		if got, err = fairFetchFrom(a, base+"/next", acceptMarkdown, xff(2*round+1)); err != nil {
			t.Fatal(err)
		}
		if got.markdown() {
			continue
		}
		if !got.html() {
			t.Errorf("a conversion past its client's share: %d %q %d bytes, want the origin's page", got.status, got.ctype, len(got.body))
		}
		if n := counterValue(t, busy) - before; n < 1 {
			t.Errorf("fail_open_total{reason=busy} grew by %v, want 1", n)
		}
		break
	}
	// Another client converts meanwhile: the stalled page holds no CPU slot.
	if got, err := fairFetch(b, base+"/other", acceptMarkdown); err != nil || !got.markdown() {
		t.Errorf("another client while a's page stalls: %v %d %q", err, got.status, got.ctype)
	}
	unstall()
	for {
		select {
		case got := <-slow:
			if !got.markdown() && !got.html() {
				t.Errorf("a stalled page, once whole: %d %q", got.status, got.ctype)
			}
			if got.markdown() { // the one that held the share
				return
			}
		case <-time.After(faultWait):
			t.Fatal("the stalled page that held the share was never converted")
		}
	}
}
