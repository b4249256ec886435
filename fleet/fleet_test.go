package fleet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/discover"
	"github.com/agentready/caddy-agentready/traffic"
)

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Unix(1_800_000_000, 0)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// origin is a connect.Source that counts what it is asked, standing in
// for the site behind one instance.
type origin struct {
	pages   []string
	listed  atomic.Int32
	fetched atomic.Int32
	etag    string
}

func (o *origin) Pages(context.Context) ([]string, error) {
	o.listed.Add(1)
	return o.pages, nil
}

func (o *origin) Fetch(_ context.Context, u string, prev connect.Validators) (*connect.Page, error) {
	o.fetched.Add(1)
	if o.etag != "" && prev.ETag == o.etag {
		return nil, connect.ErrNotModified
	}
	return &connect.Page{URL: u, Title: "T " + u, Markdown: []byte("# " + u), Validators: connect.Validators{ETag: o.etag}}, nil
}

func newFleet(t *testing.T, st Storage, id, cfg string, c *clock) *Fleet {
	t.Helper()
	f, err := New(Config{Storage: st, Site: "https://example.com", ConfigHash: cfg, Instance: id, Now: c.Now,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// refresh does what connect's refresh does with a Source: list, fetch
// each page, report the end.
func refresh(t *testing.T, src *Crawl) map[string]*connect.Page {
	t.Helper()
	ctx := context.Background()
	urls, err := src.Pages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*connect.Page{}
	for _, u := range urls {
		p, err := src.Fetch(ctx, u, connect.Validators{})
		if err != nil {
			t.Fatalf("fetch %s: %v", u, err)
		}
		got[u] = p
	}
	src.RefreshEnded(nil)
	return got
}

var sitePages = []string{"https://example.com/", "https://example.com/a", "https://example.com/b"}

func TestCrawlOncePerFleet(t *testing.T) {
	st, c := &Memory{}, newClock()
	o := &origin{pages: sitePages}
	var adopted atomic.Int32
	cfg := CrawlConfig{Fresh: 54 * time.Minute,
		Result: func() *discover.Result {
			return &discover.Result{Source: "crawl", Pages: []discover.Page{{URL: "https://example.com/", ETag: `"x"`}}}
		},
		Adopt: func(res *discover.Result) {
			if res.Source == "crawl" && len(res.Pages) == 1 && res.Pages[0].ETag == "" {
				adopted.Add(1)
			}
		}}
	var crawls []*Crawl
	for i := range 3 {
		crawls = append(crawls, newFleet(t, st, fmt.Sprint("i", i), "cfg", c).Crawl(o, cfg))
	}
	for i, cr := range crawls {
		got := refresh(t, cr)
		if len(got) != 3 || string(got["https://example.com/a"].Markdown) != "# https://example.com/a" {
			t.Fatalf("instance %d: pages %v", i, got)
		}
	}
	if o.listed.Load() != 1 || o.fetched.Load() != 3 {
		t.Errorf("origin listed %d times and fetched %d pages, want 1 and 3", o.listed.Load(), o.fetched.Load())
	}
	for i, cr := range crawls {
		if cr.pages != nil || cr.role != "" {
			t.Errorf("instance %d holds %d pages of the crawl after its refresh (role %q)", i, len(cr.pages), cr.role)
		}
	}
	if adopted.Load() != 2 {
		t.Errorf("%d followers adopted the leader's discovery without its validators, want 2", adopted.Load())
	}
	if s := crawls[1].f.Status(); s.State != "ok" || s.Crawl.Role != RoleFollower || s.Crawl.Leader != "i0" || s.Crawl.Pages != 3 {
		t.Errorf("follower status %+v %+v", s, s.Crawl)
	}
	// A refresh later, the first to come crawls again, conditionally: the
	// origin answers 304 and the snapshot keeps the page.
	c.Add(time.Hour)
	o.etag = `"v1"`
	refresh(t, crawls[2])
	o.etag = `"v1"`
	if got := refresh(t, crawls[0]); len(got) != 3 {
		t.Fatalf("after the second crawl: %d pages", len(got))
	}
	if o.listed.Load() != 2 {
		t.Errorf("origin listed %d times over two refreshes, want 2", o.listed.Load())
	}
}

func TestCrawlFollowerNotModified(t *testing.T) {
	st, c := &Memory{}, newClock()
	o := &origin{pages: sitePages, etag: `"e"`}
	lead := newFleet(t, st, "a", "", c).Crawl(o, CrawlConfig{Fresh: time.Hour})
	refresh(t, lead)
	follow := newFleet(t, st, "b", "", c).Crawl(o, CrawlConfig{Fresh: time.Hour})
	if _, err := follow.Pages(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := follow.Fetch(context.Background(), sitePages[0], connect.Validators{ETag: `"e"`}); !errors.Is(err, connect.ErrNotModified) {
		t.Errorf("follower with the snapshot's validators: %v, want ErrNotModified", err)
	}
	if _, err := follow.Fetch(context.Background(), "https://example.com/nope", connect.Validators{}); err == nil {
		t.Error("a page not in the snapshot was answered")
	}
}

// TestCrawlDeadLeader: an instance that took the lock and died (never
// RefreshEnded) is replaced once the storage's lock goes stale, and the
// next instance crawls the whole site.
func TestCrawlDeadLeader(t *testing.T) {
	c := newClock()
	st := &Memory{LockTTL: 10 * time.Second, Now: c.Now}
	o := &origin{pages: sitePages}
	dead := newFleet(t, st, "dead", "", c).Crawl(o, CrawlConfig{Fresh: time.Hour})
	if _, err := dead.Pages(context.Background()); err != nil {
		t.Fatal(err)
	}
	h, err := dead.f.LoadHolder(context.Background())
	if err != nil || h.Instance != "dead" || h.PID == 0 {
		t.Fatalf("holder %+v, %v", h, err)
	}
	next := newFleet(t, st, "next", "", c).Crawl(o, CrawlConfig{Fresh: time.Hour})
	done := make(chan map[string]*connect.Page)
	go func() { done <- refresh(t, next) }()
	select {
	case <-done:
		t.Fatal("the lock was taken while its holder was fresh")
	case <-time.After(20 * time.Millisecond):
	}
	c.Add(11 * time.Second)
	if got := <-done; len(got) != 3 {
		t.Fatalf("after taking over: %d pages", len(got))
	}
	if s := next.f.Status(); s.Crawl.Role != RoleLeader {
		t.Errorf("status %+v", s.Crawl)
	}
}

// TestCrawlDegraded: with the storage failing, each instance crawls
// alone and says so; when it answers again, the fleet is ok.
func TestCrawlDegraded(t *testing.T) {
	st, c := &Memory{}, newClock()
	o := &origin{pages: sitePages}
	f := newFleet(t, st, "a", "", c)
	cr := f.Crawl(o, CrawlConfig{Fresh: time.Hour})
	st.SetFailure(errors.New("connection refused"))
	if got := refresh(t, cr); len(got) != 3 {
		t.Fatalf("alone: %d pages", len(got))
	}
	if s := f.Status(); s.State != "degraded" || s.LastError != "connection refused" || s.Crawl.Role != RoleAlone {
		t.Errorf("status %+v", s)
	}
	st.SetFailure(nil)
	refresh(t, cr)
	if s := f.Status(); s.State != "ok" || s.Crawl.Role != RoleLeader {
		t.Errorf("after recovery: %+v", s)
	}
}

// TestConfigsApart: two configs of one site (and two sites) never load
// each other's crawl.
func TestConfigsApart(t *testing.T) {
	st, c := &Memory{}, newClock()
	o := &origin{pages: sitePages}
	refresh(t, newFleet(t, st, "a", "cfg1", c).Crawl(o, CrawlConfig{Fresh: time.Hour}))
	refresh(t, newFleet(t, st, "b", "cfg2", c).Crawl(o, CrawlConfig{Fresh: time.Hour}))
	other, _ := New(Config{Storage: st, Site: "https://other.example", ConfigHash: "cfg1", Instance: "c", Now: c.Now})
	refresh(t, other.Crawl(o, CrawlConfig{Fresh: time.Hour}))
	if o.listed.Load() != 3 {
		t.Errorf("listed %d times, want 3 (no sharing across configs or sites)", o.listed.Load())
	}
	if HashConfig([]byte("a"), []byte("bc")) == HashConfig([]byte("ab"), []byte("c")) {
		t.Error("HashConfig runs parts together")
	}
}

func TestTrafficView(t *testing.T) {
	st, c := &Memory{}, newClock()
	var fleets []*Fleet
	var stores []*traffic.Store
	for i := range 3 {
		fleets = append(fleets, newFleet(t, st, fmt.Sprint("i", i), "", c))
		s := traffic.NewStore(traffic.StoreConfig{})
		for range 10 * (i + 1) {
			s.Record(traffic.Event{Client: traffic.NewClassifier().Classify(gptUA), Form: traffic.FormMarkdown, Status: 200, Path: "/a"})
		}
		stores = append(stores, s)
	}
	ctx := context.Background()
	for i, f := range fleets[1:] {
		var buf bytes.Buffer
		if err := stores[i+1].Save(&buf); err != nil {
			t.Fatal(err)
		}
		if err := f.PublishTraffic(buf.Bytes()); err != nil {
			t.Fatal(err)
		}
	}
	others, err := fleets[0].OtherTraffic(ctx)
	if err != nil || len(others) != 2 {
		t.Fatalf("others %d, %v", len(others), err)
	}
	snap := fleets[0].Traffic(ctx, stores[0])
	if snap.Totals.Requests != 60 || len(snap.Fleet) != 3 {
		t.Fatalf("fleet totals %d over %d instances, want 60 over 3", snap.Totals.Requests, len(snap.Fleet))
	}
	for i, p := range snap.Fleet {
		if p.Instance != fmt.Sprint("i", i) || p.Totals.Requests != uint64(10*(i+1)) || p.Self != (i == 0) {
			t.Errorf("instance %d: %+v", i, p)
		}
	}
}

func TestLimits(t *testing.T) {
	st, c := &Memory{}, newClock()
	a, b := newFleet(t, st, "a", "", c).Limits(), newFleet(t, st, "b", "", c).Limits()
	ctx := context.Background()
	for range 7 {
		a.Seen("10.0.0.1")
	}
	b.Seen("10.0.0.1")
	if b.Others("10.0.0.1") != 0 {
		t.Fatal("counted before a sync")
	}
	for _, l := range []*Limits{a, b, a} {
		if err := l.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if got := b.Others("10.0.0.1"); got != 7 {
		t.Errorf("b sees %d of a's requests, want 7", got)
	}
	if got := a.Others("10.0.0.1"); got != 1 {
		t.Errorf("a sees %d of b's requests, want 1", got)
	}
	c.Add(70 * time.Second) // a's requests leave the window
	_ = a.Sync(ctx)
	_ = b.Sync(ctx)
	if got := b.Others("10.0.0.1"); got != 0 {
		t.Errorf("after a minute, b sees %d, want 0", got)
	}
}

const gptUA = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"

func TestOnce(t *testing.T) {
	st, c := &Memory{}, newClock()
	ctx := context.Background()
	runs := 0
	work := func(id string) func(context.Context) ([]byte, error) {
		return func(context.Context) ([]byte, error) { runs++; return []byte("by " + id), nil }
	}
	a, b := newFleet(t, st, "a", "", c), newFleet(t, st, "b", "", c)
	for _, tc := range []struct {
		f     *Fleet
		fresh time.Duration
		later time.Duration
		want  string
		runs  int
	}{
		{a, time.Hour, 0, "by a", 1},
		{b, time.Hour, time.Minute, "by a", 1}, // within the window: a's result
		{b, time.Hour, time.Hour, "by b", 2},   // past it: b runs
		{a, 0, time.Second, "by a", 3},         // fresh 0: runs here whatever
		{b, time.Hour, time.Second, "by a", 3}, // and the others take it
	} {
		c.Add(tc.later)
		r, err := tc.f.Once(ctx, "scan", tc.fresh, work(tc.f.Instance()))
		if err != nil || string(r.Data) != tc.want || runs != tc.runs {
			t.Errorf("%s: %q by %s, %d runs, %v; want %q, %d runs", tc.f.Instance(), r.Data, r.Instance, runs, err, tc.want, tc.runs)
		}
	}
	st.SetFailure(errors.New("down"))
	if r, err := b.Once(ctx, "scan", time.Hour, work("b")); err != nil || string(r.Data) != "by b" || !b.Degraded() {
		t.Errorf("storage down: %q, %v, degraded %v", r.Data, err, b.Degraded())
	}
}
