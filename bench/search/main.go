// Command search measures the search quality of the content index on a
// real documentation site with no sitemap: Debian's Python documentation
// (package python3.X-doc, a Sphinx HTML site of about 530 pages) served by
// file_server behind agent_ready with connect enabled, in this process.
// Discovery crawls it and the content index indexes it through Caddy; then
// each question of questions.tsv, whose answer page was fixed before any
// run, is asked through GET /ask and through the MCP tool search_site.
//
// It reports, for each way in, recall@5 (the answer page among the first
// five results) and MRR (the mean of 1/rank of the answer page among the
// first ten, 0 when absent), the questions that fail, the time from start
// until the index is ready, and the memory the index holds (its own count
// of Markdown bytes, and the Go heap in use after it against before).
//
//	go run ./bench/search [-docs DIR] [-questions FILE] [-log LEVEL] [-v]
//
// Without the package (no /usr/share/doc/python3*-doc/html), it says so
// and exits 0.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	_ "github.com/caddyserver/caddy/v2/modules/standard"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	_ "github.com/agentready/caddy-agentready/caddymodule"
)

type question struct {
	id, text, answer string
}

func main() {
	docs := flag.String("docs", "", "the Sphinx HTML directory (default: /usr/share/doc/python3*-doc/html)")
	qfile := flag.String("questions", "bench/search/questions.tsv", "the questions file")
	verbose := flag.Bool("v", false, "print every question's ranks")
	logLevel := flag.String("log", "ERROR", "Caddy's log level (to stderr)")
	flag.Parse()
	if *docs == "" {
		found, _ := filepath.Glob("/usr/share/doc/python3*-doc/html")
		if len(found) == 0 {
			fmt.Println("search: skipped: no /usr/share/doc/python3*-doc/html (apt-get install python3-doc, or pass -docs)")
			return
		}
		*docs = found[len(found)-1]
	}
	if err := run(*docs, *qfile, *logLevel, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "search:", err)
		os.Exit(1)
	}
}

func run(docs, qfile, logLevel string, verbose bool) error {
	qs, err := readQuestions(qfile)
	if err != nil {
		return err
	}
	port, admin := freePort(), freePort()
	dir, err := os.MkdirTemp("", "bench-search")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	yaml := filepath.Join(dir, "site.yaml")
	if err := os.WriteFile(yaml, []byte("site:\n  name: Python documentation\nconnect:\n  enabled: true\n  rate_limit: 10000\n"), 0o644); err != nil {
		return err
	}
	cf := fmt.Sprintf(`{
	admin 127.0.0.1:%d
	persist_config off
	log {
		level %s
	}
}
http://127.0.0.1:%d {
	agent_ready {
		config %s
		self_scan off
	}
	root * %s
	file_server
}
`, admin, logLevel, port, yaml, docs)
	cfg, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(cf), map[string]any{"filename": "Caddyfile"})
	if err != nil {
		return fmt.Errorf("adapting: %v", err)
	}
	heapBefore := heapInUse()
	start := time.Now()
	if err := caddy.Load(cfg, true); err != nil {
		return fmt.Errorf("loading: %v", err)
	}
	defer caddy.Stop() //nolint:errcheck
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	st, err := awaitIndex(fmt.Sprintf("http://127.0.0.1:%d/agent-ready/status", admin), 5*time.Minute)
	if err != nil {
		return err
	}
	ready := time.Since(start)
	heapAfter := heapInUse()
	fmt.Printf("site: %s (%d HTML files), served by file_server, no sitemap\n", docs, countHTML(docs))
	fmt.Printf("discovered and indexed: %d pages, %d bytes of Markdown, in %.1fs\n", st.Pages, st.Bytes, ready.Seconds())
	fmt.Printf("Go heap in use: %.1f MiB before, %.1f MiB after (+%.1f MiB)\n",
		mib(heapBefore), mib(heapAfter), mib(heapAfter-heapBefore))

	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench-search", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
	if err != nil {
		return fmt.Errorf("mcp: %v", err)
	}
	defer cs.Close()
	if missing, err := missingPages(ctx, cs, docs); err != nil {
		return err
	} else if len(missing) > 0 {
		fmt.Printf("HTML files not in the index: %d, e.g. %s\n", len(missing), strings.Join(missing[:min(12, len(missing))], " "))
	}
	ways := []struct {
		name string
		ask  func(string) ([]string, error)
	}{
		{"/ask", func(q string) ([]string, error) { return askURLs(base, q) }},
		{"MCP search_site", func(q string) ([]string, error) { return searchURLs(ctx, cs, q) }},
	}
	for _, w := range ways {
		var hits int
		var rr float64
		var fails []string
		for _, q := range qs {
			urls, err := w.ask(q.text)
			if err != nil {
				return fmt.Errorf("%s %s: %v", w.name, q.id, err)
			}
			rank := rankOf(urls, q.answer)
			if rank > 0 && rank <= 5 {
				hits++
			} else {
				fails = append(fails, fmt.Sprintf("%s %q (want %s; rank %d; got %s)", q.id, q.text, q.answer, rank, strings.Join(paths(urls, 3), " ")))
			}
			if rank > 0 {
				rr += 1 / float64(rank)
			}
			if verbose {
				fmt.Printf("  %s %s: rank %d\n", w.name, q.id, rank)
			}
		}
		fmt.Printf("%s: recall@5 %.2f (%d/%d), MRR@10 %.3f\n", w.name, float64(hits)/float64(len(qs)), hits, len(qs), rr/float64(len(qs)))
		for _, f := range fails {
			fmt.Println("  miss:", f)
		}
	}
	return nil
}

// readQuestions reads id<TAB>question<TAB>path lines; # starts a comment.
func readQuestions(name string) ([]question, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []question
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 3 {
			return nil, fmt.Errorf("%s:%d: want id<TAB>question<TAB>path", name, n)
		}
		out = append(out, question{parts[0], parts[1], parts[2]})
	}
	return out, sc.Err()
}

type indexStatus struct {
	Pages       int       `json:"pages"`
	Bytes       int64     `json:"bytes"`
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
func missingPages(ctx context.Context, cs *mcp.ClientSession, docs string) ([]string, error) {
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

// paths are the paths of the first n URLs, for the report.
func paths(urls []string, n int) []string {
	var out []string
	for i, u := range urls {
		if i == n {
			break
		}
		if p, err := url.Parse(u); err == nil {
			u = p.Path
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
