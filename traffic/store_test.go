package traffic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/traffic/agents"
)

// fakeClock is a settable clock.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newClock() *fakeClock { return &fakeClock{t: time.Date(2026, 3, 1, 12, 0, 30, 0, time.UTC)} }

func findClient(s Snapshot, name, purpose string) *ClientStats {
	for i := range s.Clients {
		if s.Clients[i].Client == name && s.Clients[i].Purpose == purpose {
			return &s.Clients[i]
		}
	}
	return nil
}

func TestTokensSaved(t *testing.T) {
	for _, tc := range []struct {
		tokens, md, html int64
		want             uint64
	}{
		{1000, 4000, 40000, 9000},
		{1000, 4000, 4000, 0},
		{1000, 4000, 1000, 0},
		{0, 4000, 40000, 0},
		{1000, 0, 40000, 0},
		{-5, 10, 100, 0},
	} {
		if got := TokensSaved(tc.tokens, tc.md, tc.html); got != tc.want {
			t.Errorf("TokensSaved(%d, %d, %d) = %d, want %d", tc.tokens, tc.md, tc.html, got, tc.want)
		}
	}
}

func TestPagePath(t *testing.T) {
	for in, want := range map[string]string{
		"/docs?q=secret":               "/docs",
		"/a#frag":                      "/a",
		"":                             "/",
		"?x=1":                         "/",
		"/" + strings.Repeat("é", 200): "/" + strings.Repeat("é", 127),
	} {
		if got := PagePath(in); got != want {
			t.Errorf("PagePath(%.20q) = %.20q", in, got)
		}
	}
}

func TestStoreCounts(t *testing.T) {
	clock := newClock()
	s := NewStore(StoreConfig{Now: clock.Now})
	gpt, chrome, curl := Classify(uaGPTBot), Classify(uaChrome), Classify("curl/8")
	s.Record(Event{Client: gpt, Verification: Verified, Form: FormMarkdown, Status: 200, Path: "/docs?token=abc",
		Bytes: 4000, Tokens: 1000, HTMLBytes: 40000})
	s.Record(Event{Client: gpt, Verification: Verified, Form: FormMarkdown, Status: 200, Path: "/docs", Bytes: 2000, Tokens: 500, HTMLBytes: 2000})
	s.Record(Event{Client: gpt, Verification: Failed, Form: FormHTML, Status: 403, Path: "/blog", Bytes: 100, Blocked: true})
	s.Record(Event{Client: chrome, Form: FormHTML, Status: 200, Path: "/", Bytes: 50000})
	s.Record(Event{Client: curl, Form: FormDiscovery, Status: 304, Path: "/llms.txt"})
	s.Record(Event{Client: Classify(""), Form: Form(99), Status: 0, Path: "/x", Verification: Verification(7)})

	snap := s.Snapshot()
	want := Counts{Requests: 6, Bytes: 56100, MarkdownTokens: 1500, TokensSaved: 9000, Blocked: 1}
	if snap.Totals != want {
		t.Errorf("totals %+v, want %+v", snap.Totals, want)
	}
	g := findClient(snap, "GPTBot", "training")
	if g == nil || g.Totals.Requests != 3 || g.Verification != (VerificationCounts{Verified: 2, Failed: 1}) || g.Label != "GPTBot" || g.Operator != "OpenAI" {
		t.Fatalf("GPTBot %+v", g)
	}
	if g.TopPages[0] != (PageCount{Path: "/docs", Count: 2}) || len(g.TopPages) != 2 {
		t.Errorf("top pages %+v", g.TopPages)
	}
	var md *Cell
	for i := range g.Cells {
		if g.Cells[i].Form == "markdown" {
			md = &g.Cells[i]
		}
	}
	if md == nil || md.Status != "2xx" || md.Verification != "verified" || md.Requests != 2 || md.TokensSaved != 9000 {
		t.Errorf("markdown cell %+v", md)
	}
	if u := findClient(snap, "other", "unknown"); u == nil || u.Cells[0].Form != "other" || u.Cells[0].Status != "other" || u.Cells[0].Verification != "unverified" {
		t.Errorf("out-of-range event %+v", u)
	}
	if len(snap.Purposes) != 4 || snap.Purposes[0].Purpose != "training" || snap.Purposes[0].Requests != 3 {
		t.Errorf("purposes %+v", snap.Purposes)
	}
	if snap.Clients[0].Client != "GPTBot" {
		t.Errorf("clients not sorted by requests: %s first", snap.Clients[0].Client)
	}
	// No query string is stored anywhere.
	data, _ := json.Marshal(snap)
	if bytes.Contains(data, []byte("token=abc")) {
		t.Error("a query string reached the snapshot")
	}
}

func TestStoreMaxRows(t *testing.T) {
	s := NewStore(StoreConfig{MaxRows: 3})
	cl := NewClassifier(agents.FromTokens(agents.Training, "A1", "A2", "A3", "A4", "A5")...)
	for _, ua := range []string{"A1/1", "A2/1", "A3/1", "A4/1", "A5/1"} {
		s.Record(Event{Client: cl.Classify(ua), Status: 200, Path: "/"})
	}
	snap := s.Snapshot()
	if len(snap.Clients) > 4 {
		t.Errorf("%d rows past MaxRows 3", len(snap.Clients))
	}
	if o := findClient(snap, OtherLabel, "training"); o == nil || o.Totals.Requests < 2 {
		t.Errorf("overflow not counted under other: %+v", snap.Clients)
	}
	if snap.Totals.Requests != 5 {
		t.Errorf("lost requests: %d", snap.Totals.Requests)
	}
}

func TestSketch(t *testing.T) {
	sk := newSketch(16)
	truth := map[string]uint64{}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50000 {
		// Zipf-like: a few pages get most requests.
		k := fmt.Sprintf("/p%d", int(rng.ExpFloat64()*8)%1000)
		truth[k]++
		sk.add(k, 1, 0)
	}
	top := sk.top()
	if len(top) != 16 {
		t.Fatalf("%d tracked", len(top))
	}
	var total uint64
	for _, n := range truth {
		total += n
	}
	for _, p := range top {
		if tr := truth[p.Path]; tr > p.Count || p.Count-p.Error > tr {
			t.Errorf("%s: true %d outside [%d, %d]", p.Path, tr, p.Count-p.Error, p.Count)
		}
	}
	// Every page above total/capacity is tracked.
	for k, n := range truth {
		if n > total/16 {
			found := false
			for _, p := range top {
				found = found || p.Path == k
			}
			if !found {
				t.Errorf("heavy hitter %s (%d of %d) not tracked", k, n, total)
			}
		}
	}
	if top[0].Path != "/p0" {
		t.Errorf("top page %s", top[0].Path)
	}
}

func TestSeries(t *testing.T) {
	clock := newClock()
	s := NewStore(StoreConfig{Now: clock.Now})
	gpt := Classify(uaGPTBot)
	s.Record(Event{Client: gpt, Form: FormMarkdown, Status: 200, Bytes: 10, Tokens: 10, HTMLBytes: 100})
	clock.Add(time.Minute)
	s.Record(Event{Client: gpt, Status: 200})
	s.Record(Event{Client: Classify(uaChrome), Status: 200, Blocked: true})
	snap := s.Snapshot()
	m := snap.Minutes
	n := len(m.Markdown)
	if n != minuteBuckets || m.StepSeconds != 60 || len(m.Requests["training"]) != n {
		t.Fatalf("minutes: %d points, step %d", n, m.StepSeconds)
	}
	if tr := m.Requests["training"]; tr[n-1] != 1 || tr[n-2] != 1 || m.Markdown[n-2] != 1 || m.TokensSaved[n-2] != 90 || m.Blocked[n-1] != 1 {
		t.Errorf("last points: training %v markdown %v saved %v", tr[n-3:], m.Markdown[n-3:], m.TokensSaved[n-3:])
	}
	if !m.Start.Add(time.Duration(n-1) * time.Minute).Equal(clock.Now().Truncate(time.Minute)) {
		t.Errorf("start %v", m.Start)
	}
	if h := snap.Hours; len(h.Markdown) != hourBuckets || h.Requests["training"][hourBuckets-1] != 2 || h.Requests["browser"][hourBuckets-1] != 1 {
		t.Errorf("hours: %v", h.Requests)
	}
	// A day later the minute ring has moved on; the hours keep the count.
	clock.Add(25 * time.Hour)
	s.Record(Event{Client: gpt, Status: 200})
	snap = s.Snapshot()
	if tr := snap.Minutes.Requests["training"]; sum(tr) != 1 {
		t.Errorf("minutes kept old points: %d", sum(tr))
	}
	if tr := snap.Hours.Requests["training"]; sum(tr) != 3 {
		t.Errorf("hours: %d", sum(tr))
	}
	// An event older than the ring is not counted in the series.
	s.Record(Event{Client: gpt, Status: 200, Time: clock.Now().Add(-48 * time.Hour)})
	if tr := s.Snapshot().Minutes.Requests["training"]; sum(tr) != 1 {
		t.Errorf("a late event landed in the minutes: %d", sum(tr))
	}
}

func sum(xs []uint64) (n uint64) {
	for _, x := range xs {
		n += x
	}
	return n
}

func TestSaveLoad(t *testing.T) {
	clock := newClock()
	s := NewStore(StoreConfig{Now: clock.Now})
	for i := range 200 {
		s.Record(Event{Client: Classify(uaGPTBot), Verification: Verified, Form: FormMarkdown, Status: 200,
			Path: fmt.Sprintf("/p%d", i%7), Bytes: 100, Tokens: 25, HTMLBytes: 400})
		s.Record(Event{Client: Classify(uaChrome), Form: FormHTML, Status: 404, Path: "/missing", Bytes: 10})
	}
	var buf bytes.Buffer
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > 200<<10 {
		t.Errorf("saved file is %d bytes", buf.Len())
	}
	saved := buf.Bytes()
	clock.Add(time.Hour)
	s2 := NewStore(StoreConfig{Now: clock.Now})
	if err := s2.Load(bytes.NewReader(saved)); err != nil {
		t.Fatal(err)
	}
	a, b := s.Snapshot(), s2.Snapshot()
	if a.Totals != b.Totals || !a.Since.Equal(b.Since) {
		t.Errorf("totals %+v / %+v, since %v / %v", a.Totals, b.Totals, a.Since, b.Since)
	}
	ja, _ := json.Marshal(a.Clients)
	jb, _ := json.Marshal(b.Clients)
	if !bytes.Equal(ja, jb) {
		t.Errorf("clients differ after a round trip:\n%s\n%s", ja, jb)
	}
	if sum(b.Hours.Requests["training"]) != 200 || sum(b.Minutes.Requests["browser"]) != 200 {
		t.Errorf("series after load: %v", b.Hours.Requests)
	}
	// Loading adds: a second load doubles.
	if err := s2.Load(bytes.NewReader(saved)); err != nil || s2.Snapshot().Totals.Requests != 800 {
		t.Errorf("second load: %v %d", err, s2.Snapshot().Totals.Requests)
	}
	for name, bad := range map[string]string{
		"garbage":  "not json",
		"format":   `{"format":"other","version":1,"snapshot":{"clients":[]}}`,
		"version":  `{"format":"caddy-agentready-traffic","version":2,"snapshot":{"clients":[]}}`,
		"no body":  `{"format":"caddy-agentready-traffic","version":1}`,
		"trailing": `{"format":"caddy-agentready-traffic","version":1,"snapshot":{"clients":[]}} x`,
	} {
		s3 := NewStore(StoreConfig{Now: clock.Now})
		if err := s3.Load(strings.NewReader(bad)); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}

func TestStoreConcurrent(t *testing.T) {
	s := NewStore(StoreConfig{})
	var wg sync.WaitGroup
	uas := []string{uaGPTBot, uaChrome, "curl/8", uaUnknownUA}
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				s.Record(Event{Client: Classify(uas[(g+i)%4]), Status: 200, Path: fmt.Sprintf("/p%d", i%50), Form: FormMarkdown, Bytes: 10, Tokens: 5, HTMLBytes: 50})
				if i%500 == 0 {
					s.Snapshot()
				}
			}
		}()
	}
	wg.Wait()
	if n := s.Snapshot().Totals.Requests; n != 8000 {
		t.Errorf("%d requests", n)
	}
}

// workload records n events over the given pages and clients.
func workload(s *Store, n, pages int, clients []Classification) {
	rng := rand.New(rand.NewPCG(3, 4))
	paths := make([]string, pages)
	for i := range paths {
		paths[i] = fmt.Sprintf("/section-%d/page-%d.html", i%40, i)
	}
	forms := []Form{FormHTML, FormMarkdown, FormDiscovery, FormMCP, FormAsk}
	for i := range n {
		s.Record(Event{Client: clients[i%len(clients)], Verification: Verification(i % 3), Form: forms[i%len(forms)],
			Status: []int{200, 200, 200, 304, 404, 500}[i%6], Path: paths[int(rng.ExpFloat64()*float64(pages)/8)%pages],
			Bytes: 4000, Tokens: 1000, HTMLBytes: 30000})
	}
}

// fiftyClients are 50 distinct clients: the data file's agents, then its
// generic clients.
func fiftyClients() []Classification {
	var out []Classification
	for _, a := range agents.All() {
		out = append(out, Classification{Class: ClassAgent, Agent: a})
	}
	for _, c := range agents.Clients() {
		out = append(out, Classification{Class: ClassTool, Client: c})
	}
	return out[:50]
}

// TestStoreMemory records 1,000,000 requests over 10,000 pages from 50
// clients and checks the store stays small: its size depends on the rows
// and the sketch capacity, not on the pages or requests.
func TestStoreMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("records a million events")
	}
	clients := fiftyClients()
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	s := NewStore(StoreConfig{})
	workload(s, 1_000_000, 10_000, clients)
	after := heap()
	var grown uint64
	if after > before {
		grown = after - before
	}
	snap := s.Snapshot()
	runtime.KeepAlive(s)
	t.Logf("store after 1,000,000 requests over 10,000 pages and 50 clients: %d KiB live heap, %d rows, %d top pages per row",
		grown>>10, len(snap.Clients), len(snap.Clients[0].TopPages))
	if snap.Totals.Requests != 1_000_000 || len(snap.Clients) != 50 {
		t.Errorf("counted %d requests in %d rows", snap.Totals.Requests, len(snap.Clients))
	}
	if grown > 8<<20 {
		t.Errorf("store holds %d bytes, over 8 MiB", grown)
	}
	var buf bytes.Buffer
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	t.Logf("saved file: %d KiB", buf.Len()>>10)
}

func BenchmarkRecord(b *testing.B) {
	s := NewStore(StoreConfig{})
	clients := fiftyClients()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s.Record(Event{Client: clients[i%50], Form: FormMarkdown, Status: 200, Path: "/docs/page", Bytes: 4000, Tokens: 1000, HTMLBytes: 30000})
		i++
	}
}

func FuzzLoad(f *testing.F) {
	s := NewStore(StoreConfig{Now: newClock().Now})
	s.Record(Event{Client: Classify(uaGPTBot), Form: FormMarkdown, Status: 200, Path: "/a", Bytes: 10, Tokens: 5, HTMLBytes: 50})
	var buf bytes.Buffer
	s.Save(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte(`{"format":"caddy-agentready-traffic","version":1,"snapshot":{"clients":[{"client":"x","purpose":"nope","cells":[{"form":"html","status":"9xx"}],"top_pages":[{"path":"","count":1,"error":5}]}],"minutes":{"step_seconds":60,"start":"2026-03-01T00:00:00Z","requests":{"zzz":[1,2]}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := NewStore(StoreConfig{Now: newClock().Now, MaxRows: 8})
		if err := s.Load(bytes.NewReader(data)); err != nil {
			return
		}
		snap := s.Snapshot()
		if len(snap.Clients) > 8+len(purposeSlots) {
			t.Fatalf("%d rows past MaxRows", len(snap.Clients))
		}
		for _, c := range snap.Clients {
			if len(c.TopPages) > 64 {
				t.Fatalf("%d top pages", len(c.TopPages))
			}
		}
	})
}

// TestSnapshotJSONFields pins the traffic.json field names the admin view
// and other readers rely on.
func TestSnapshotJSONFields(t *testing.T) {
	s := NewStore(StoreConfig{Now: newClock().Now})
	s.Record(Event{Client: Classify(uaGPTBot), Verification: Verified, Form: FormMarkdown, Status: 200, Path: "/a", Bytes: 10, Tokens: 5, HTMLBytes: 50})
	snap := s.Snapshot()
	snap.Verifier = &VerifierStats{}
	data, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	json.Unmarshal(data, &doc)
	keys := func(v any) string {
		var ks []string
		for k := range v.(map[string]any) {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return strings.Join(ks, ",")
	}
	client := doc["clients"].([]any)[0].(map[string]any)
	for _, tc := range []struct {
		what string
		v    any
		want string
	}{
		{"snapshot", doc, "clients,generated,hours,minutes,purposes,since,totals,verifier,version"},
		{"totals", doc["totals"], "blocked,bytes,markdown_tokens,requests,tokens_saved"},
		{"purpose", doc["purposes"].([]any)[0], "blocked,bytes,markdown_tokens,purpose,requests,tokens_saved"},
		{"client", client, "cells,client,label,operator,purpose,top_pages,totals,verification"},
		{"cell", client["cells"].([]any)[0], "blocked,bytes,form,markdown_tokens,requests,status,tokens_saved,verification"},
		{"page", client["top_pages"].([]any)[0], "count,error,path"},
		{"verification", client["verification"], "failed,unverified,verified"},
		{"series", doc["minutes"], "blocked,markdown,requests,start,step_seconds,tokens_saved"},
		{"verifier", doc["verifier"], "cache_hits,cached,dropped,errors,failed,lookups,range_lists,verified"},
	} {
		if got := keys(tc.v); got != tc.want {
			t.Errorf("%s fields %s, want %s", tc.what, got, tc.want)
		}
	}
}

// An event recorded with a time before the store's start moves the start
// back; a later one does not move it.
func TestStoreSinceCoversPastEvents(t *testing.T) {
	clock := newClock()
	s := NewStore(StoreConfig{Now: clock.Now})
	start := clock.Now()
	s.Record(Event{Client: Classify(uaGPTBot), Form: FormHTML, Status: 200, Path: "/", Time: start.Add(time.Hour)})
	if got := s.Snapshot().Since; !got.Equal(start) {
		t.Errorf("since %v after a later event, want %v", got, start)
	}
	past := start.Add(-48 * time.Hour)
	s.Record(Event{Client: Classify(uaGPTBot), Form: FormHTML, Status: 200, Path: "/", Time: past})
	if got := s.Snapshot().Since; !got.Equal(past) {
		t.Errorf("since %v after an event at %v", got, past)
	}
}

// TestStoreRowMemo: the rows remembered for the first classifications
// (rowOf) count what the rows looked up each time count, for more
// clients than are remembered, past MaxRows, and from several goroutines
// at once; and a request of a client seen before allocates nothing,
// remembered or not.
func TestStoreRowMemo(t *testing.T) {
	clients := append(fiftyClients()[:3*memoSlots], Classify(uaChrome), Classify(""), Classify(uaUnknownUA))
	for _, maxRows := range []int{0, memoSlots / 2, 2 * memoSlots} {
		s := NewStore(StoreConfig{MaxRows: maxRows})
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 3000 {
					c := clients[(g*7+i)%len(clients)]
					s.Record(Event{Client: c, Status: 200, Path: "/p", Form: FormHTML, Bytes: 1})
				}
			}()
		}
		wg.Wait()
		// The same events, each row looked up by its key.
		want := map[rowKey]uint64{}
		for g := range 4 {
			for i := range 3000 {
				c := clients[(g*7+i)%len(clients)]
				want[rowKey{c.Name(), c.Purpose()}]++
			}
		}
		snap := s.Snapshot()
		if snap.Totals.Requests != 12000 {
			t.Errorf("max rows %d: %d requests, want 12000", maxRows, snap.Totals.Requests)
		}
		if maxRows == 0 {
			for k, n := range want {
				if c := findClient(snap, k.name, k.purpose); c == nil || c.Totals.Requests != n {
					t.Errorf("%s/%s: %+v, want %d requests", k.name, k.purpose, c, n)
				}
			}
		}
		for i := range s.memo {
			m := s.memo[i].Load()
			if m == nil {
				t.Errorf("max rows %d: slot %d of %d left empty", maxRows, i, memoSlots)
				continue
			}
			if r := s.row(rowKey{m.c.Name(), m.c.Purpose()}, "", ""); r != m.r || m.purpose != purposeIndex(m.c.Purpose()) {
				t.Errorf("max rows %d: slot %d remembers another row than its key's", maxRows, i)
			}
		}
		e := Event{Time: time.Unix(1_800_000_000, 0), Status: 200, Path: "/p", Form: FormHTML}
		for _, c := range []Classification{clients[0], clients[len(clients)-1]} {
			e.Client = c
			if n := testing.AllocsPerRun(100, func() { s.Record(e) }); n != 0 {
				t.Errorf("max rows %d: %s allocates %.0f times a request", maxRows, c.Name(), n)
			}
		}
	}
}

// TestStoreMemoSkipsSiteAgents: a site's own agents, made again on every
// configuration load, are counted but not remembered, so reloads do not
// fill the memo with agents no later request matches.
func TestStoreMemoSkipsSiteAgents(t *testing.T) {
	s := NewStore(StoreConfig{})
	for range 3 { // three configuration loads
		for _, a := range agents.FromTokens(agents.Training, "ExampleBot", "OtherBot") {
			s.Record(Event{Client: Classification{Class: ClassAgent, Agent: a}, Status: 200, Path: "/p", Form: FormHTML})
		}
	}
	for i := range s.memo {
		if m := s.memo[i].Load(); m != nil {
			t.Errorf("slot %d remembers %s", i, m.c.Name())
		}
	}
	if c := findClient(s.Snapshot(), "ExampleBot", string(agents.Training)); c == nil || c.Totals.Requests != 3 {
		t.Errorf("ExampleBot counted %+v, want 3 requests", c)
	}
}
