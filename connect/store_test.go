package connect

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stepClock is a clock the test moves: every wait the schedule starts is
// handed to the test on waits, and ends when the test fires it.
type stepClock struct {
	mu    sync.Mutex
	now   time.Time
	waits chan fakeWait
}

type fakeWait struct {
	d    time.Duration
	fire chan time.Time
}

func newStepClock() *stepClock {
	return &stepClock{now: time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC), waits: make(chan fakeWait, 16)}
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *stepClock) After(d time.Duration) <-chan time.Time {
	w := fakeWait{d: d, fire: make(chan time.Time, 1)}
	c.waits <- w
	return w.fire
}

// next returns the wait the schedule started after its last refresh (the
// refresh has ended by then). The deadline only keeps a broken schedule from
// hanging the test.
func (c *stepClock) next(t *testing.T) fakeWait {
	t.Helper()
	select {
	case w := <-c.waits:
		return w
	case <-time.After(30 * time.Second):
		t.Fatal("the schedule started no wait")
		return fakeWait{}
	}
}

// elapse moves the clock through w and ends it.
func (c *stepClock) elapse(w fakeWait) {
	c.mu.Lock()
	c.now = c.now.Add(w.d)
	now := c.now
	c.mu.Unlock()
	w.fire <- now
}

// newClockedServer is a Server on a fake clock with jitter fixed at j (1
// waits the whole backoff, 0 half of it); its schedule is not started.
func newClockedServer(t *testing.T, opts Options, src Source, j float64) (*Server, *stepClock) {
	t.Helper()
	s, _ := newUnindexedServer(t, opts, src)
	clk := newStepClock()
	s.clock, s.jitter = clk, func() float64 { return j }
	return s, clk
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		jitter float64
		want   []time.Duration // for failures 1, 2, …
	}{
		{name: "doubling to the 5m cap", opts: Options{}, jitter: 1,
			want: secs(2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300)},
		{name: "least jitter waits half", opts: Options{}, jitter: 0,
			want: secs(1, 2, 4, 8, 16, 32, 64, 128, 150, 150)},
		{name: "capped by a short refresh interval", opts: Options{Refresh: 10 * time.Second}, jitter: 1,
			want: secs(2, 4, 8, 10, 10)},
		{name: "configured bounds", opts: Options{RetryMin: 100 * time.Millisecond, RetryMax: time.Second}, jitter: 1,
			want: []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, time.Second, time.Second}},
		{name: "retry_min above the cap", opts: Options{RetryMin: 10 * time.Minute}, jitter: 1,
			want: secs(300, 300)},
		{name: "no overflow after many failures", opts: Options{}, jitter: 1,
			want: append(secs(2, 4, 8, 16, 32, 64, 128, 256), repeat(300*time.Second, 100)...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newClockedServer(t, tt.opts, nil, tt.jitter)
			for i, want := range tt.want {
				if got := s.backoff(i + 1); got != want {
					t.Errorf("backoff after %d failures = %s, want %s", i+1, got, want)
				}
			}
		})
	}
}

func secs(n ...int) []time.Duration {
	out := make([]time.Duration, len(n))
	for i, v := range n {
		out[i] = time.Duration(v) * time.Second
	}
	return out
}

func repeat(d time.Duration, n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = d
	}
	return out
}

// TestScheduleRetries drives the schedule through an outage at start, a
// recovery and a second outage, on a fake clock: the waits double from
// RetryMin up to the cap, a success returns to the Refresh interval, the
// next failure starts over from RetryMin, and Stats say what state the index
// is in all along.
func TestScheduleRetries(t *testing.T) {
	src := newFakeSource()
	src.down.Store(true)
	s, clk := newClockedServer(t, Options{Refresh: time.Hour}, src, 1)
	s.Start(context.Background())

	// The origin is down at start: retries at 2s, 4s, … up to 5m. It comes
	// back before the last.
	waits := secs(2, 4, 8, 16, 32, 64, 128, 256, 300, 300)
	for i, want := range waits {
		w := clk.next(t)
		st := s.Stats()
		if w.d != want {
			t.Fatalf("wait %d = %s, want %s", i+1, w.d, want)
		}
		if st.State != StateEmpty || st.Ready() || st.Failures != i+1 || st.LastError == "" ||
			!st.NextAttempt.Equal(clk.Now().Add(want)) || !st.LastSuccess.IsZero() {
			t.Fatalf("after failure %d: %+v", i+1, st)
		}
		if i == len(waits)-1 {
			src.down.Store(false)
		}
		clk.elapse(w)
	}

	// The retry fills the index and the schedule returns to the hourly
	// refresh.
	w := clk.next(t) // the retry fired by the last elapse succeeded
	st := s.Stats()
	if w.d != time.Hour || st.State != StateOK || st.Pages != len(testPages) || st.Failures != 0 ||
		st.LastError != "" || !st.LastSuccess.Equal(clk.Now()) {
		t.Fatalf("after the recovery: wait %s, %+v", w.d, st)
	}
	success := st.LastSuccess

	// A later outage: the last good pages stay, the index is stale, and the
	// backoff starts over from RetryMin.
	src.down.Store(true)
	clk.elapse(w)
	for i, want := range secs(2, 4) {
		w = clk.next(t)
		st = s.Stats()
		if w.d != want || st.State != StateStale || st.Pages != len(testPages) || st.Failures != i+1 ||
			!st.LastSuccess.Equal(success) || !st.Ready() {
			t.Fatalf("second outage, failure %d: wait %s, %+v", i+1, w.d, st)
		}
		if hits, err := s.index.search(context.Background(), "kiln", 5); err != nil || len(hits) == 0 {
			t.Fatalf("the last good index does not answer: %v, %v", hits, err)
		}
		if i == 1 {
			src.down.Store(false)
		}
		clk.elapse(w)
	}
	if w = clk.next(t); w.d != time.Hour || s.Stats().State != StateOK {
		t.Fatalf("after the second recovery: wait %s, %+v", w.d, s.Stats())
	}
}

// TestNotReady: while the index has never loaded, /ask answers 503 with
// Retry-After (the time to the next attempt) and a problem body, and the
// MCP tools answer a tool error saying so; once a retry succeeds both
// answer from the index.
func TestNotReady(t *testing.T) {
	src := newFakeSource()
	src.down.Store(true)
	s, ts := newUnindexedServer(t, Options{}, src)
	clk := newStepClock()
	s.clock, s.jitter = clk, func() float64 { return 1 }

	// Before any refresh: loading (well, not started): the default retry.
	resp, body := getBody(t, ts.URL+"/ask?query=kiln")
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "5" ||
		resp.Header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("/ask before the first refresh: %d %v %s", resp.StatusCode, resp.Header, body)
	}

	s.Start(context.Background())
	w := clk.next(t) // the first refresh failed
	resp, body = getBody(t, ts.URL+"/ask?query=kiln")
	var p problem
	if err := json.Unmarshal([]byte(body), &p); err != nil || resp.StatusCode != 503 || p.Status != 503 ||
		p.Title != "index not ready" || resp.Header.Get("Retry-After") != "2" || !strings.Contains(p.Detail, "not ready") {
		t.Fatalf("/ask after a failed refresh: %d Retry-After %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	if strings.Contains(body, "502") {
		t.Errorf("the refresh error leaks to the public: %s", body)
	}
	// Bad requests are still bad requests.
	if resp, _ := getBody(t, ts.URL+"/ask"); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("/ask without a query while not ready: %d", resp.StatusCode)
	}

	cs := connectClient(t, ts, nil)
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{toolSearch, map[string]any{"query": "kiln"}},
		{toolAsk, map[string]any{"query": "kiln"}},
		{toolList, map[string]any{}},
		{toolGet, map[string]any{"url": "/about"}},
	} {
		res := callTool(t, cs, call.tool, call.args, nil)
		if !res.IsError || !strings.Contains(toolText(res), "not ready") {
			t.Errorf("%s while not ready: error %v %q", call.tool, res.IsError, toolText(res))
		}
	}

	src.down.Store(false)
	clk.elapse(w)
	clk.next(t) // the retry succeeded
	resp, body = getBody(t, ts.URL+"/ask?query=kiln")
	if resp.StatusCode != 200 || !strings.Contains(body, "/blog/kiln-day") {
		t.Fatalf("/ask once the index loaded: %d %s", resp.StatusCode, body)
	}
	var out searchOutput
	if res := callTool(t, cs, toolSearch, map[string]any{"query": "kiln"}, &out); res.IsError || len(out.Results) == 0 {
		t.Fatalf("search_site once the index loaded: %q", toolText(res))
	}
}

// TestReadyWhenSiteIsEmpty: a refresh that succeeds with no page makes an
// empty but ready index, whose answers are honest empty results.
func TestReadyWhenSiteIsEmpty(t *testing.T) {
	src := &fakeSource{pages: map[string]*Page{}}
	s, ts := newTestServer(t, Options{}, src)
	if st := s.Stats(); st.State != StateEmpty || !st.Ready() {
		t.Fatalf("stats %+v", st)
	}
	if resp, body := getBody(t, ts.URL+"/ask?query=kiln"); resp.StatusCode != 200 || !strings.Contains(body, `"results":[]`) {
		t.Fatalf("/ask on an empty site: %d %s", resp.StatusCode, body)
	}
}

// TestStoreOutlivesServer: a Server handed the Store of the one it replaces
// answers from its pages at once, keeps them when its own refresh fails,
// and does not close the Store; the failure count carries over.
func TestStoreOutlivesServer(t *testing.T) {
	src := newFakeSource()
	store := NewStore("")
	t.Cleanup(func() { store.Close() })
	old, _ := newTestServer(t, Options{Store: store}, src)

	src.down.Store(true)
	if err := old.Refresh(context.Background()); err == nil {
		t.Fatal("a refresh of a down origin succeeded")
	}
	s, ts := newUnindexedServer(t, Options{Store: store}, src)
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Pages != len(testPages) || st.State != StateStale || st.Failures != 1 {
		t.Fatalf("the new server's stats: %+v", st)
	}
	if resp, body := getBody(t, ts.URL+"/ask?query=kiln"); resp.StatusCode != 200 || !strings.Contains(body, "/blog/kiln-day") {
		t.Fatalf("/ask from the store taken over: %d %s", resp.StatusCode, body)
	}
	// The llms.txt resource comes with the store.
	cs := connectClient(t, ts, nil)
	if res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: testOrigin + "/llms.txt"}); err != nil || len(res.Contents) != 1 {
		t.Fatalf("llms.txt from the store taken over: %v", err)
	}
	// Its own failed refresh keeps the last good pages.
	if err := s.Refresh(context.Background()); err == nil {
		t.Fatal("a refresh of a down origin succeeded")
	}
	if st := s.Stats(); st.Pages != len(testPages) || st.Failures != 2 {
		t.Fatalf("after a failed refresh: %+v", st)
	}
	// And the origin back, validators still count: nothing is fetched anew.
	src.down.Store(false)
	if err := s.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.NotModified != len(testPages) || st.Fetched != 0 || st.State != StateOK {
		t.Fatalf("after the recovery: %+v", st)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if st := store.Stats(); st.Pages != len(testPages) {
		t.Fatalf("closing a server emptied the store it was handed: %+v", st)
	}
}

// TestRefreshCancelledIsNoFailure: a refresh cut short by its context (a
// shutdown or a reload) does not count as a failure of the site.
func TestRefreshCancelledIsNoFailure(t *testing.T) {
	src := newFakeSource()
	s, _ := newTestServer(t, Options{}, src)
	ctx, cancel := context.WithCancel(context.Background())
	src.fetchFn = func(context.Context, string) (*Page, error) {
		cancel()
		return nil, errors.New("interrupted")
	}
	if err := s.Refresh(ctx); err == nil {
		t.Fatal("a cancelled refresh succeeded")
	}
	if st := s.Stats(); st.Failures != 0 || st.State != StateOK {
		t.Fatalf("stats %+v", st)
	}
}

func getBody(t *testing.T, u string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// toolText is the text content of a tool result.
func toolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestServerPage: Page hands out the index's copy of a page by URL or
// path, front matter included, and nothing for a page it does not hold.
func TestServerPage(t *testing.T) {
	s, _ := newTestServer(t, Options{}, nil)
	want := testPages[0]
	for _, raw := range []string{testOrigin + want.path, want.path} {
		p, ok := s.Page(raw)
		if !ok || p.URL != testOrigin+want.path || !strings.Contains(string(p.Markdown), want.body) {
			t.Errorf("Page(%q) = %+v, %v", raw, p, ok)
		}
	}
	for _, raw := range []string{"/no-such-page", "https://elsewhere.example/"} {
		if _, ok := s.Page(raw); ok {
			t.Errorf("Page(%q) found a page", raw)
		}
	}
}

// TestFailureCarriesItsRetry: the status that first shows a failed refresh
// of the schedule already names the retry (one update, not two), so /ask
// and the admin status never see a failure with no next attempt.
func TestFailureCarriesItsRetry(t *testing.T) {
	src := newFakeSource()
	src.down.Store(true)
	s, clk := newClockedServer(t, Options{Refresh: time.Hour}, src, 1)
	s.Start(context.Background())
	for {
		st := s.Stats()
		if st.Failures > 0 {
			if st.NextAttempt.IsZero() {
				t.Fatalf("a failure without its retry: %+v", st)
			}
			break
		}
	}
	clk.next(t)
}

// TestNotReadyWhileFirstBuildRuns: pages fetched by a first refresh still
// running do not make the index ready: /ask answers 503 with Retry-After
// and search_site a tool error, never an empty or partial 200, until the
// refresh completes and the full-text index is built.
func TestNotReadyWhileFirstBuildRuns(t *testing.T) {
	src := newFakeSource()
	release := make(chan struct{})
	var once sync.Once
	unblock := func() { once.Do(func() { close(release) }) }
	t.Cleanup(unblock) // a failing test does not wait out the fetch timeout
	first := testOrigin + testPages[0].path
	src.fetchFn = func(ctx context.Context, u string) (*Page, error) {
		if u != first {
			select { // every page but the first waits
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		src.mu.Lock()
		defer src.mu.Unlock()
		cp := *src.pages[u]
		return &cp, nil
	}
	s, ts := newUnindexedServer(t, Options{}, src)
	done := make(chan error, 1)
	go func() { done <- s.Refresh(context.Background()) }()
	for s.Stats().Fetched == 0 {
		time.Sleep(time.Millisecond)
	}
	if st := s.Stats(); st.Pages == 0 || st.Ready() {
		t.Fatalf("stats while the first refresh runs: %+v", st)
	}
	resp, body := getBody(t, ts.URL+"/ask?query=kiln")
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("/ask while half built: %d Retry-After %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	cs := connectClient(t, ts, nil)
	if res := callTool(t, cs, toolSearch, map[string]any{"query": "kiln"}, nil); !res.IsError {
		t.Fatalf("search_site while half built: %q", toolText(res))
	}
	unblock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if resp, body := getBody(t, ts.URL+"/ask?query=kiln"); resp.StatusCode != 200 || !strings.Contains(body, "/blog/kiln-day") {
		t.Fatalf("/ask once built: %d %s", resp.StatusCode, body)
	}
}

// TestStateDuringTheFirstRefresh: while the first refresh runs, the
// index says refreshing even when it holds the pages read so far; ok only
// once a refresh has succeeded (a status read mid-refresh said ok with one
// page of seven, before anything was indexed).
func TestStateDuringTheFirstRefresh(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		name string
		s    Stats
		want string
	}{
		{"nothing yet", Stats{Refreshing: true}, StateRefreshing},
		{"some pages read", Stats{Pages: 1, Refreshing: true}, StateRefreshing},
		{"done", Stats{Pages: 7, LastSuccess: now}, StateOK},
		{"refreshing again", Stats{Pages: 7, Refreshing: true, LastSuccess: now}, StateOK},
		{"first refresh failed", Stats{Failures: 1}, StateEmpty},
		{"failed after a success", Stats{Pages: 7, Failures: 1, LastSuccess: now}, StateStale},
	} {
		if got := c.s.state(); got != c.want {
			t.Errorf("%s: state %q, want %q", c.name, got, c.want)
		}
	}
}
