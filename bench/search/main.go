// Command search measures the search quality of the content index on real
// documentation sites with no sitemap, each of another generator, served by
// file_server behind agent_ready with connect enabled, in this process:
//
//   - python: Debian's Python documentation (python3.X-doc, Sphinx, about
//     530 pages), questions.tsv, the site the search was first developed on;
//   - git: Debian's git-doc (AsciiDoc man pages and guides, about 240
//     pages), questions-git.tsv;
//   - handbook: the Debian Administrator's Handbook in English
//     (debian-handbook, DocBook, 127 pages), questions-handbook.tsv;
//   - postgres: the PostgreSQL 15 documentation (postgresql-doc-15,
//     DocBook, 1,169 pages), questions-postgres.tsv, a held-out site: no
//     ranking choice was made on it.
//
// Discovery crawls each site and the content index indexes it through
// Caddy; then each question, whose answer page was fixed before any run, is
// asked through GET /ask and through the MCP tool search_site, and of a
// plain BM25 over the full text of the site's HTML files (no stemming, no
// fields, no tuning) as the yardstick.
//
// It reports, per site and way in, recall@5 (the answer page among the
// first five results) and MRR@10 (the mean of 1/rank of the answer page
// among the first ten, 0 when absent), the time until the index is ready,
// the memory the index holds (its Markdown bytes, the Go heap in use after
// against before, the process's RSS), and /ask's latency at 50 concurrent
// queries; then one table of all sites.
//
//	go run ./bench/search [-sites python,git,handbook,postgres] [-log LEVEL] [-v] [-offline]
//
// -offline skips Caddy: it indexes the HTML files straight with fulltext
// (FromHTML, the front matter's title and description, Build) and reports
// the ranking only, in seconds instead of minutes, to compare rankings.
//
// A site whose package is not installed is skipped with a note
// (apt-get install python3-doc git-doc debian-handbook postgresql-doc-15).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	_ "github.com/caddyserver/caddy/v2/modules/standard"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentready/caddy-agentready/bench/search/sitecorpus"
	_ "github.com/agentready/caddy-agentready/caddymodule"
	"github.com/agentready/caddy-agentready/internal/procstatus"
)

// question is a question of a site and its answer page.
type question = sitecorpus.Question

// site is one development site (sitecorpus.Sites).
type site = sitecorpus.Site

// score is recall@5 and MRR@10 of one way in on one site.
type score = sitecorpus.Score

// result is what one site reports for the summary table.
type result struct {
	site              site
	pages             int
	markdown, index   int64
	ready             time.Duration
	heap, rss         uint64
	base, ask, search score
	p50, p99          time.Duration
}

func main() {
	only := flag.String("sites", "python,git,handbook,postgres", "the sites to run, comma-separated")
	dir := flag.String("questions", "bench/search", "the directory of the question files")
	verbose := flag.Bool("v", false, "print every question's ranks")
	logLevel := flag.String("log", "ERROR", "Caddy's log level (to stderr)")
	concurrency := flag.Int("c", 50, "concurrent /ask queries for the latency run (0: none)")
	offlineRun := flag.Bool("offline", false, "index the HTML files straight with fulltext, without Caddy: seconds instead of minutes, to compare rankings")
	flag.Parse()
	var results []result
	for _, s := range sitecorpus.Select(*only) {
		root, ok := s.Root()
		if !ok {
			fmt.Printf("%s: skipped: no %s (apt-get install python3-doc git-doc debian-handbook postgresql-doc-15)\n", s.Name, s.Glob)
			continue
		}
		qfile := filepath.Join(*dir, s.Questions)
		var r result
		var err error
		if *offlineRun {
			r, err = offline(s, root, qfile, *verbose)
		} else {
			r, err = run(s, root, qfile, *logLevel, *verbose, *concurrency)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "search:", s.Name+":", err)
			os.Exit(1)
		}
		results = append(results, r)
	}
	if *offlineRun {
		printOfflineTable(results)
		return
	}
	printTable(results)
}

// printTable prints the summary of every site as a Markdown table.
func printTable(rs []result) {
	fmt.Println()
	fmt.Println("recall@5 / MRR@10 per site; baseline: plain BM25 over each HTML file's full text")
	fmt.Println()
	fmt.Println("| site | pages | Markdown MB | full-text index MB | index ready | heap after − before | RSS | baseline | `/ask` | `search_site` | `/ask` p50 / p99 at 50 concurrent |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---|---|---|---|")
	for _, r := range rs {
		fmt.Printf("| %s | %d | %.1f | %.1f | %.1f s | %.0f MiB | %.0f MiB | %s | %s | %s | %.1f / %.1f ms |\n",
			r.site.Title, r.pages, float64(r.markdown)/1e6, float64(r.index)/1e6, r.ready.Seconds(), mib(r.heap), mib(r.rss),
			r.base, r.ask, r.search, ms(r.p50), ms(r.p99))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// run serves one site through Caddy, waits for its index and asks its
// questions of the yardstick, /ask and search_site.
func run(s site, docs, qfile, logLevel string, verbose bool, concurrency int) (result, error) {
	res := result{site: s}
	qs, err := sitecorpus.ReadQuestions(qfile)
	if err != nil {
		return res, err
	}
	dir, err := os.MkdirTemp("", "bench-search")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	port, admin := freePort(), freePort()
	cfg, err := caddyConfig(s, docs, logLevel, dir, port, admin)
	if err != nil {
		return res, err
	}
	if err := startSite(&res, cfg, docs, admin); err != nil {
		return res, err
	}
	defer caddy.Stop() //nolint:errcheck
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench-search", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
	if err != nil {
		return res, fmt.Errorf("mcp: %v", err)
	}
	defer cs.Close()
	if missing, err := missingPages(ctx, cs, docs, s.Prefix); err != nil {
		return res, err
	} else if len(missing) > 0 {
		fmt.Printf("HTML files not in the index: %d, e.g. %s\n", len(missing), strings.Join(missing[:min(12, len(missing))], " "))
	}
	bl, err := sitecorpus.NewBaseline(docs)
	if err != nil {
		return res, fmt.Errorf("baseline: %v", err)
	}
	for _, w := range []way{
		{"baseline BM25", &res.base, func(q string) ([]string, error) { return bl.Search(q, 10, s.Prefix), nil }},
		{"/ask", &res.ask, func(q string) ([]string, error) { return askURLs(base, q) }},
		{"MCP search_site", &res.search, func(q string) ([]string, error) { return searchURLs(ctx, cs, q) }},
	} {
		if err := w.score(qs, s.Prefix, verbose); err != nil {
			return res, err
		}
	}
	if concurrency > 0 {
		res.p50, res.p99, err = askLatency(base, qs, concurrency, 40*concurrency)
		if err != nil {
			return res, err
		}
		fmt.Printf("/ask at %d concurrent: p50 %.1f ms, p99 %.1f ms\n", concurrency, ms(res.p50), ms(res.p99))
	}
	return res, nil
}

// caddyConfig writes the site's site.yaml into dir and returns the JSON
// config of a Caddy serving docs on port, with its admin API on admin.
func caddyConfig(s site, docs, logLevel, dir string, port, admin int) ([]byte, error) {
	yaml := filepath.Join(dir, "site.yaml")
	conf := "site:\n  name: " + s.Title + "\n"
	if s.Origin != "" {
		conf += "  origin: " + s.Origin + "\n"
	}
	conf += "connect:\n  enabled: true\n  rate_limit: 1000000\n"
	if s.MaxPages > 0 {
		conf += fmt.Sprintf("  max_pages: %d\n", s.MaxPages)
	}
	if err := os.WriteFile(yaml, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	// The module's own requests (crawl, index) go to site.Origin's host, so
	// the block answers it too.
	addrs := fmt.Sprintf("http://127.0.0.1:%d", port)
	if s.Origin != "" {
		u, _ := url.Parse(s.Origin)
		addrs += fmt.Sprintf(", http://%s:%d", u.Hostname(), port)
	}
	serve := "root * " + docs + "\n\tfile_server"
	if s.Prefix != "" {
		serve = fmt.Sprintf("redir / %s/\n\thandle_path %s/* {\n\t\troot * %s\n\t\tfile_server\n\t}", s.Prefix, s.Prefix, docs)
	}
	cf := fmt.Sprintf(`{
	admin 127.0.0.1:%d
	persist_config off
	log {
		level %s
	}
}
%s {
	agent_ready {
		config %s
		self_scan off
	}
	%s
}
`, admin, logLevel, addrs, yaml, serve)
	cfg, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(cf), map[string]any{"filename": "Caddyfile"})
	if err != nil {
		return nil, fmt.Errorf("adapting: %v", err)
	}
	return cfg, nil
}

// startSite loads cfg into Caddy, waits until the content index is ready
// and fills res with the time it took, the pages and the memory; the
// caller stops Caddy.
func startSite(res *result, cfg []byte, docs string, admin int) error {
	heapBefore := heapInUse()
	start := time.Now()
	if err := caddy.Load(cfg, true); err != nil {
		return fmt.Errorf("loading: %v", err)
	}
	st, err := awaitIndex(fmt.Sprintf("http://127.0.0.1:%d/agent-ready/status", admin), 5*time.Minute)
	if err != nil {
		caddy.Stop() //nolint:errcheck
		return err
	}
	res.ready = time.Since(start)
	res.rss = rss()
	heapAfter := heapInUse()
	res.heap = heapAfter - min(heapBefore, heapAfter)
	res.pages, res.markdown, res.index = st.Pages, st.Bytes, st.IndexBytes
	fmt.Printf("== %s: %s (%d HTML files), served by file_server, no sitemap\n", res.site.Name, docs, countHTML(docs))
	fmt.Printf("discovered and indexed: %d pages, %d bytes of Markdown, full-text index %d bytes, in %.1fs\n", st.Pages, st.Bytes, st.IndexBytes, res.ready.Seconds())
	fmt.Printf("Go heap in use: %.1f MiB before, %.1f MiB after (+%.1f MiB, %.1f per MB of Markdown); RSS %.1f MiB\n",
		mib(heapBefore), mib(heapAfter), mib(res.heap), mib(res.heap)/(float64(st.Bytes)/1e6), mib(res.rss))
	return nil
}

// way is one way of asking a site: its name, where its score goes, and the
// ranked URLs it answers a question with.
type way struct {
	name string
	out  *score
	ask  func(string) ([]string, error)
}

// score asks each question, adds its answer page's rank to w.out and
// prints the score and the questions missed (not in the first five).
func (w way) score(qs []question, prefix string, verbose bool) error {
	var fails []string
	for _, q := range qs {
		urls, err := w.ask(q.Text)
		if err != nil {
			return fmt.Errorf("%s %s: %v", w.name, q.ID, err)
		}
		rank := rankOf(urls, prefix+q.Answer)
		w.out.Add(rank)
		if rank == 0 || rank > 5 {
			fails = append(fails, fmt.Sprintf("%s %q (want %s; rank %d; got %s)", q.ID, q.Text, q.Answer, rank, strings.Join(paths(urls, 3, prefix), " ")))
		}
		if verbose {
			fmt.Printf("  %s %s: rank %d\n", w.name, q.ID, rank)
		}
	}
	hits, n := w.out.Counts()
	fmt.Printf("%s: recall@5 %.2f (%d/%d), MRR@10 %.3f\n", w.name, w.out.Recall(), hits, n, w.out.MRR())
	for _, f := range fails {
		fmt.Println("  miss:", f)
	}
	return nil
}

// askLatency sends total /ask queries (the questions in turn) from c
// clients at once and returns the latency percentiles.
func askLatency(base string, qs []question, c, total int) (p50, p99 time.Duration, err error) {
	var mu sync.Mutex
	var lat []time.Duration
	var errs []error
	next := make(chan int)
	go func() {
		for i := range total {
			next <- i
		}
		close(next)
	}()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c}}
	var wg sync.WaitGroup
	for range c {
		wg.Go(func() {
			for i := range next {
				t := time.Now()
				resp, err := client.Get(base + "/ask?limit=10&query=" + url.QueryEscape(qs[i%len(qs)].Text))
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						err = fmt.Errorf("status %d", resp.StatusCode)
					}
				}
				d := time.Since(t)
				mu.Lock()
				lat = append(lat, d)
				if err != nil {
					errs = append(errs, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		return 0, 0, fmt.Errorf("%d of %d queries failed, e.g. %v", len(errs), total, errs[0])
	}
	slices.Sort(lat)
	return lat[len(lat)/2], lat[len(lat)*99/100], nil
}

// rss is the process's resident set size (VmRSS), 0 where /proc has none.
func rss() uint64 {
	m, err := procstatus.Read(os.Getpid())
	if err != nil {
		return 0
	}
	return uint64(m.RSS)
}

type indexStatus struct {
	Pages       int       `json:"pages"`
	Bytes       int64     `json:"bytes"`
	IndexBytes  int64     `json:"index_bytes"`
	Refreshing  bool      `json:"refreshing"`
	LastSuccess time.Time `json:"last_success"`
	LastError   string    `json:"last_error"`
}

// awaitIndex polls the admin status until the content index has finished
// its first refresh.
func awaitIndex(statusURL string, limit time.Duration) (indexStatus, error) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		resp, err := http.Get(statusURL)
		if err != nil {
			continue
		}
		var body struct {
			Indexes []indexStatus `json:"content_indexes"`
		}
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if err != nil || len(body.Indexes) == 0 {
			continue
		}
		if st := body.Indexes[0]; !st.LastSuccess.IsZero() && !st.Refreshing {
			return st, nil
		}
	}
	return indexStatus{}, errors.New("the content index was not ready in time")
}

// askURLs asks GET /ask and returns the result URLs, best first.
func askURLs(base, q string) ([]string, error) {
	resp, err := http.Get(base + "/ask?limit=10&query=" + url.QueryEscape(q))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	var out searchResults
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	return out.urls(), nil
}

// searchResults is the answer of /ask and of the MCP tool search_site, as
// far as the benchmark reads it.
type searchResults struct {
	Results []struct {
		URL string `json:"url"`
	} `json:"results"`
}

// urls are the results' URLs, best first.
func (s searchResults) urls() []string {
	var urls []string
	for _, r := range s.Results {
		urls = append(urls, r.URL)
	}
	return urls
}

// searchURLs calls the MCP tool search_site and returns the result URLs.
func searchURLs(ctx context.Context, cs *mcp.ClientSession, q string) ([]string, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_site", Arguments: map[string]any{"query": q, "limit": 10}})
	if err != nil {
		return nil, err
	}
	if res.IsError {
		return nil, fmt.Errorf("tool error: %v", res.Content)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, err
	}
	var out searchResults
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return out.urls(), nil
}

// missingPages lists the HTML files under docs whose path the index does
// not hold (MCP list_pages), sorted.
func missingPages(ctx context.Context, cs *mcp.ClientSession, docs, prefix string) ([]string, error) {
	indexed := map[string]bool{}
	cursor := ""
	for {
		args := map[string]any{}
		if cursor != "" {
			args["cursor"] = cursor
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_pages", Arguments: args})
		if err != nil {
			return nil, fmt.Errorf("list_pages: %v", err)
		}
		raw, _ := json.Marshal(res.StructuredContent)
		var out struct {
			Pages []struct {
				URL string `json:"url"`
			} `json:"pages"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &out); err != nil {
			return nil, err
		}
		for _, p := range out.Pages {
			if u, err := url.Parse(p.URL); err == nil {
				u.Path = strings.TrimPrefix(u.Path, prefix)
				indexed[u.Path] = true
				if strings.HasSuffix(u.Path, "/") {
					indexed[u.Path+"index.html"] = true
				}
			}
		}
		if cursor = out.NextCursor; cursor == "" {
			break
		}
	}
	var missing []string
	root := filepath.Clean(docs)
	_ = filepath.WalkDir(root+"/", func(p string, d os.DirEntry, _ error) error {
		if d != nil && !d.IsDir() && strings.HasSuffix(p, ".html") {
			rel := strings.TrimPrefix(p, root)
			if !indexed[rel] {
				missing = append(missing, rel)
			}
		}
		return nil
	})
	return missing, nil
}

// rankOf is the 1-based rank of the URL whose path is want, 0 if absent.
func rankOf(urls []string, want string) int {
	for i, u := range urls {
		if p, err := url.Parse(u); err == nil && p.Path == want {
			return i + 1
		}
	}
	return 0
}

// paths are the paths of the first n URLs without prefix, for the report.
func paths(urls []string, n int, prefix string) []string {
	var out []string
	for i, u := range urls {
		if i == n {
			break
		}
		if p, err := url.Parse(u); err == nil {
			u = strings.TrimPrefix(p.Path, prefix)
		}
		out = append(out, u)
	}
	if len(out) == 0 {
		return []string{"nothing"}
	}
	return out
}

func countHTML(dir string) int {
	n := 0
	_ = filepath.WalkDir(dir+"/", func(_ string, d os.DirEntry, _ error) error {
		if d != nil && !d.IsDir() && strings.HasSuffix(d.Name(), ".html") {
			n++
		}
		return nil
	})
	return n
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

func mib(n uint64) float64 { return float64(int64(n)) / (1 << 20) }

func freePort() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
