package connect

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// genSource is a generated site of n pages of Zipf-distributed pseudo-words.
type genSource struct {
	urls  []string
	pages map[string]*Page
	vocab []string
}

func newGenSource(n int) *genSource {
	r := rand.New(rand.NewPCG(1, uint64(n)))
	syl := []string{"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po", "qua", "dre", "fin", "gol", "hum"}
	g := &genSource{pages: make(map[string]*Page, n)}
	for range 5000 {
		var w strings.Builder
		for range 2 + r.IntN(3) {
			w.WriteString(syl[r.IntN(len(syl))])
		}
		g.vocab = append(g.vocab, w.String())
	}
	zipf := rand.NewZipf(r, 1.1, 1, uint64(len(g.vocab)-1))
	words := func(k int) string {
		out := make([]string, k)
		for i := range out {
			out[i] = g.vocab[zipf.Uint64()]
		}
		return strings.Join(out, " ")
	}
	for i := range n {
		u := fmt.Sprintf("%s/section-%d/page-%d", testOrigin, i%20, i)
		var md strings.Builder
		title := words(4)
		fmt.Fprintf(&md, "# %s\n\n", title)
		for range 4 + r.IntN(6) {
			fmt.Fprintf(&md, "%s.\n\n", words(40+r.IntN(60)))
		}
		g.urls = append(g.urls, u)
		g.pages[u] = &Page{URL: u, Title: title, Description: words(12), Language: "en", Markdown: []byte(md.String()),
			Validators: Validators{ETag: fmt.Sprintf(`"%d"`, i)}}
	}
	return g
}

func (g *genSource) Pages(context.Context) ([]string, error) { return g.urls, nil }

func (g *genSource) Fetch(_ context.Context, u string, prev Validators) (*Page, error) {
	p, ok := g.pages[u]
	if !ok {
		return nil, fmt.Errorf("no page %s", u)
	}
	if prev.ETag == p.Validators.ETag {
		return nil, ErrNotModified
	}
	cp := *p
	cp.Markdown = bytes.Clone(p.Markdown) // as a real Source would allocate it
	return &cp, nil
}

// heapInUse returns the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// cpuTime is the process's user and system CPU time: on a shared machine it
// says more about the work done than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkIndexBuild measures a full first refresh (fetch, map, bleve) and
// the live heap the index holds afterwards.
func BenchmarkIndexBuild(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		src := newGenSource(n)
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			var heap, bytes uint64
			var cpu time.Duration
			for b.Loop() {
				before, cpuBefore := heapInUse(), cpuTime()
				s, err := New(Options{Origin: testOrigin, MaxPages: n, MaxBytes: 1 << 30}, src, nil)
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Refresh(context.Background()); err != nil {
					b.Fatal(err)
				}
				if st := s.Stats(); st.Pages != n {
					b.Fatalf("indexed %d pages", st.Pages)
				}
				b.StopTimer()
				cpu = cpuTime() - cpuBefore
				heap = heapInUse() - before
				bytes = uint64(s.Stats().Bytes)
				s.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
			b.ReportMetric(float64(bytes)/(1<<20), "markdown-MiB")
			b.ReportMetric(cpu.Seconds(), "cpu-s")
		})
	}
}

// BenchmarkRefreshUnchanged measures a refresh where every page answers
// not-modified.
func BenchmarkRefreshUnchanged(b *testing.B) {
	src := newGenSource(1000)
	s, err := New(Options{Origin: testOrigin, MaxBytes: 1 << 30}, src, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := s.Refresh(context.Background()); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := s.Refresh(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearchSiteConcurrent calls search_site from 50 SDK clients at once
// over loopback HTTP against 10,000 pages and reports latency percentiles.
func BenchmarkSearchSiteConcurrent(b *testing.B) {
	const clients = 50
	src := newGenSource(10000)
	_, ts := newTestServer(b, Options{MaxBytes: 1 << 30, MaxPages: 10000}, src)
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		sessions[i] = connectClient(b, ts, nil)
	}
	ts.Client().Transport.(interface{ CloseIdleConnections() }).CloseIdleConnections()
	queries := make([]string, 200)
	r := rand.New(rand.NewPCG(7, 7))
	for i := range queries {
		queries[i] = src.vocab[r.IntN(500)] + " " + src.vocab[r.IntN(2000)]
	}

	var mu sync.Mutex
	var lat []time.Duration
	b.ResetTimer()
	var next sync.Mutex
	remaining := b.N
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			var mine []time.Duration
			for i := 0; ; i++ {
				next.Lock()
				if remaining == 0 {
					next.Unlock()
					break
				}
				remaining--
				next.Unlock()
				start := time.Now()
				res, err := sessions[c].CallTool(context.Background(), &mcp.CallToolParams{
					Name: toolSearch, Arguments: map[string]any{"query": queries[(c*31+i)%len(queries)], "limit": 10},
				})
				if err != nil || res.IsError {
					b.Errorf("search_site: %v %v", err, res)
					return
				}
				mine = append(mine, time.Since(start))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}
