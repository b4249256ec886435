package fleet_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	// What cmd/caddy builds in, imported only so that a change to it
	// invalidates go test's cached result of this package (the tests run
	// the binary TestMain builds, which go test cannot see).
	_ "github.com/agentready/caddy-agentready/caddymodule"
	"github.com/agentready/caddy-agentready/internal/testnet"
	_ "github.com/caddyserver/caddy/v2/modules/standard"
)

// caddyBin is the Caddy of this repository (cmd/caddy), built once for
// the package: the fleet is three real processes.
var caddyBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agentready-fleet-bin-")
	if err != nil {
		panic(err)
	}
	caddyBin = filepath.Join(dir, "caddy")
	if out, err := exec.Command("go", "build", "-o", caddyBin, "../../cmd/caddy").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building caddy: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sitePages is how many pages the test origin has besides its home page.
const sitePages = 40

// origin is a site without a sitemap (so each instance would crawl it),
// whose pages link to each other; it counts what it is asked.
type origin struct {
	*httptest.Server
	requests atomic.Int64
	delay    time.Duration
	mu       sync.Mutex
	last     time.Time
}

func newOrigin(t *testing.T, delay time.Duration) *origin {
	o := &origin{delay: delay}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.requests.Add(1)
		o.mu.Lock()
		o.last = time.Now()
		o.mu.Unlock()
		if r.URL.Path == "/robots.txt" || strings.HasSuffix(r.URL.Path, ".xml") {
			http.NotFound(w, r)
			return
		}
		n := -1
		if r.URL.Path != "/" {
			if _, err := fmt.Sscanf(r.URL.Path, "/p/%d", &n); err != nil || n < 0 || n >= sitePages {
				http.NotFound(w, r)
				return
			}
		}
		time.Sleep(o.delay)
		var links strings.Builder
		for _, k := range []int{n + 1, n + 2} {
			if k < sitePages {
				fmt.Fprintf(&links, `<li><a href="/p/%d">Page %d</a></li>`, k, k)
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><title>Page %d</title></head>
<body><main><h1>Page %d</h1><p>The text of page %d about widgets and gears.</p><ul>%s</ul></main></body></html>`, n, n, n, links.String())
	}))
	t.Cleanup(o.Close)
	return o
}

// quiet waits until the origin has not been asked anything for three seconds (the self-scans come a few seconds after the index),
// and returns how many requests it answered.
func (o *origin) quiet(t *testing.T) int64 {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		o.mu.Lock()
		idle := time.Since(o.last)
		o.mu.Unlock()
		if idle > 3*time.Second {
			return o.requests.Load()
		}
	}
	t.Fatal("the origin never went quiet")
	return 0
}

// instance is one Caddy process of the fleet.
type instance struct {
	cmd   *exec.Cmd
	port  int
	admin string
	log   string
}

// start runs examples/fleet/Caddyfile in its own process, with its own
// data directory, on storage, in front of o.
func start(t *testing.T, storage string, o *origin) *instance {
	t.Helper()
	dir := t.TempDir()
	in := &instance{port: testnet.FreePort(t), admin: fmt.Sprintf("127.0.0.1:%d", testnet.FreePort(t)), log: filepath.Join(dir, "caddy.log")}
	logf, err := os.Create(in.log)
	if err != nil {
		t.Fatal(err)
	}
	in.cmd = exec.Command(caddyBin, "run", "--config", "Caddyfile")
	in.cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+filepath.Join(dir, "data"), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		fmt.Sprint("FLEET_PORT=", in.port), "FLEET_ADMIN="+in.admin, "FLEET_STORAGE="+storage,
		"FLEET_ORIGIN="+strings.TrimPrefix(o.URL, "http://"), "FLEET_SAVE=1s", "FLEET_SYNC=1s")
	in.cmd.Stdout, in.cmd.Stderr = logf, logf
	if err := in.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.stop()
		logf.Close()
		if t.Failed() {
			out, _ := os.ReadFile(in.log)
			t.Logf("log of the instance on port %d:\n%s", in.port, tail(string(out), 4000))
		}
	})
	return in
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func (in *instance) stop() {
	if in.cmd.ProcessState == nil {
		_ = in.cmd.Process.Signal(syscall.SIGTERM)
		_ = in.cmd.Wait()
	}
}

func (in *instance) kill() {
	_ = in.cmd.Process.Kill()
	_ = in.cmd.Wait()
}

// indexStatus is what the test reads of /agent-ready/status.
type indexStatus struct {
	State       string `json:"state"`
	Pages       int    `json:"pages"`
	LastSuccess string `json:"last_success"`
	Fleet       *struct {
		State string `json:"state"`
		Crawl *struct {
			Role   string `json:"role"`
			Leader string `json:"leader"`
		} `json:"crawl"`
	} `json:"fleet"`
}

func getJSON(url string, v any) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

func (in *instance) index() (indexStatus, error) {
	var st struct {
		Indexes []indexStatus `json:"content_indexes"`
	}
	if err := getJSON("http://"+in.admin+"/agent-ready/status", &st); err != nil {
		return indexStatus{}, err
	}
	if len(st.Indexes) != 1 {
		return indexStatus{}, fmt.Errorf("%d content indexes", len(st.Indexes))
	}
	return st.Indexes[0], nil
}

// waitIndexed waits until the instance's index holds the whole site.
func (in *instance) waitIndexed(t *testing.T, within time.Duration) indexStatus {
	t.Helper()
	deadline := time.Now().Add(within)
	var last indexStatus
	var err error
	for time.Now().Before(deadline) {
		if last, err = in.index(); err == nil && last.LastSuccess != "" && last.Pages == sitePages+1 {
			return last
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("instance %d: index not complete after %s: %+v, %v", in.port, within, last, err)
	return last
}

// TestFleetCrawlsOnce: three instances sharing a storage ask the origin
// for about what one instance asks, every one of them answers from the
// whole index, and the traffic view of any one counts the requests of all
// three.
func TestFleetCrawlsOnce(t *testing.T) {
	o := newOrigin(t, 5*time.Millisecond)
	single := start(t, t.TempDir(), o)
	single.waitIndexed(t, 2*time.Minute)
	alone := o.quiet(t)
	single.stop()

	o.requests.Store(0)
	storage := t.TempDir()
	var fleet []*instance
	for range 3 {
		fleet = append(fleet, start(t, storage, o))
	}
	roles := map[string]int{}
	for _, in := range fleet {
		st := in.waitIndexed(t, 2*time.Minute)
		if st.Fleet == nil || st.Fleet.State != "ok" || st.Fleet.Crawl == nil {
			t.Fatalf("instance %d: fleet status %+v", in.port, st.Fleet)
		}
		roles[st.Fleet.Crawl.Role]++
	}
	three := o.quiet(t)
	t.Logf("origin requests: one instance %d, three instances %d (%.2fx); roles %v", alone, three, float64(three)/float64(alone), roles)
	if float64(three) > 1.3*float64(alone) {
		t.Errorf("three instances asked the origin %d times, one %d: over 1.3x", three, alone)
	}
	if roles["leader"] != 1 || roles["follower"] != 2 {
		t.Errorf("roles %v, want one leader and two followers", roles)
	}
	sameLLMsFull(t, fleet)
	scannedBy := map[string]int{}
	for _, in := range fleet {
		var st struct {
			Sites []struct {
				ScannedBy string   `json:"scanned_by"`
				Score     *float64 `json:"score"`
			} `json:"sites"`
		}
		if err := getJSON("http://"+in.admin+"/agent-ready/status", &st); err != nil || len(st.Sites) != 1 || st.Sites[0].Score == nil {
			t.Fatalf("instance %d: self-scan status %+v, %v", in.port, st, err)
		}
		scannedBy[st.Sites[0].ScannedBy]++
	}
	if len(scannedBy) != 1 || scannedBy[""] != 0 {
		t.Errorf("self-scan reports by %v, want one instance's for all three", scannedBy)
	}
	for _, in := range fleet {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/ask?query=widgets", in.port))
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("instance %d /ask: %v %v", in.port, resp, err)
		}
		resp.Body.Close()
	}
	fleetTraffic(t, fleet)
	fleetRateLimit(t, fleet[0], fleet[1])
}

// askRemaining sends one /ask to in and returns whether it was answered
// and the requests the RateLimit header says remain.
func askRemaining(t *testing.T, in *instance) (bool, int) {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/ask?query=gears", in.port))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	r := -1
	if _, after, ok := strings.Cut(resp.Header.Get("RateLimit"), ";r="); ok {
		fmt.Sscanf(after, "%d", &r)
	}
	return resp.StatusCode == http.StatusOK, r
}

// fleetRateLimit spends half of a client's budget (site.yaml: 60 a
// minute) at a, waits until b has read a's counts, and spends the rest at
// b: the fleet answers about 60, where instances alone would answer 90.
func fleetRateLimit(t *testing.T, a, b *instance) {
	const limit, atA = 60, 30
	allowed := 0
	for range atA {
		if ok, _ := askRemaining(t, a); ok {
			allowed++
		}
	}
	synced := false
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		ok, r := askRemaining(t, b)
		if ok {
			allowed++
		}
		if r >= 0 && r < limit-atA {
			synced = true
			break
		}
	}
	if !synced {
		t.Fatal("instance 2 never counted instance 1's requests")
	}
	for range limit {
		ok, _ := askRemaining(t, b)
		if !ok {
			break
		}
		allowed++
	}
	t.Logf("rate limit: the fleet answered %d /ask requests of one client against a limit of %d a minute", allowed, limit)
	if allowed > limit+limit/10 {
		t.Errorf("the fleet answered %d requests of one client, limit %d", allowed, limit)
	}
}

// TestFleetDegraded: a storage the instance cannot write leaves it
// working alone, saying so in its status.
func TestFleetDegraded(t *testing.T) {
	o := newOrigin(t, 0)
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o444); err != nil {
		t.Fatal(err)
	}
	in := start(t, filepath.Join(blocked, "storage"), o)
	st := in.waitIndexed(t, 2*time.Minute)
	if st.Fleet == nil || st.Fleet.State != "degraded" || st.Fleet.Crawl == nil || st.Fleet.Crawl.Role != "alone" {
		t.Fatalf("fleet status %+v, want degraded and crawled alone", st.Fleet)
	}
	out, _ := os.ReadFile(in.log)
	if !strings.Contains(string(out), "the shared storage failed; this instance works alone") {
		t.Error("no WARN says the storage failed")
	}
}

// fleetTraffic sends GPTBot requests to each instance in turn and waits
// until the first instance's traffic.json counts all of them, split by
// instance.
func fleetTraffic(t *testing.T, fleet []*instance) {
	const perInstance = 20
	const ua = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	for i := range perInstance * len(fleet) {
		in := fleet[i%len(fleet)]
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d/p/%d", in.port, i%sitePages), nil)
		req.Header.Set("User-Agent", ua)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("instance %d: %s", in.port, resp.Status)
		}
	}
	sent := time.Now()
	type snapshot struct {
		Clients []struct {
			Client string `json:"client"`
			Totals struct {
				Requests int `json:"requests"`
			} `json:"totals"`
		} `json:"clients"`
		Fleet []struct {
			Instance string `json:"instance"`
			Totals   struct {
				Requests int `json:"requests"`
			} `json:"totals"`
		} `json:"fleet"`
	}
	var snap snapshot
	gptbot := 0
	for deadline := sent.Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		snap = snapshot{}
		if err := getJSON("http://"+fleet[0].admin+"/agent-ready/traffic.json", &snap); err != nil {
			t.Fatal(err)
		}
		gptbot = 0
		for _, c := range snap.Clients {
			if c.Client == "GPTBot" {
				gptbot += c.Totals.Requests
			}
		}
		if gptbot == perInstance*len(fleet) {
			break
		}
	}
	t.Logf("traffic: instance 1 counts %d of the fleet's %d GPTBot requests %s after the last (save interval 1s)",
		gptbot, perInstance*len(fleet), time.Since(sent).Round(100*time.Millisecond))
	if gptbot != perInstance*len(fleet) {
		t.Fatalf("instance 1 counts %d GPTBot requests, the fleet served %d; by instance %+v", gptbot, perInstance*len(fleet), snap.Fleet)
	}
	if len(snap.Fleet) != len(fleet) {
		t.Fatalf("breakdown of %d instances, want %d: %+v", len(snap.Fleet), len(fleet), snap.Fleet)
	}
	for _, p := range snap.Fleet {
		if p.Totals.Requests < perInstance {
			t.Errorf("instance %s: %d requests, want at least %d", p.Instance, p.Totals.Requests, perInstance)
		}
	}
}

// holderPID is the process id the crawl lock's holder wrote beside the
// lock in the file-system storage, 0 while none has.
func holderPID(storage string) int {
	pid := 0
	_ = filepath.WalkDir(storage, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "crawl.holder" {
			var h struct {
				PID int `json:"pid"`
			}
			if data, err := os.ReadFile(p); err == nil && json.Unmarshal(data, &h) == nil {
				pid = h.PID
			}
		}
		return nil
	})
	return pid
}

// TestFleetLeaderDies: the instance that holds the crawl lock is killed
// mid-crawl; once its lock goes stale (certmagic's file storage: 10 s
// without the holder refreshing it), another instance crawls, and both
// survivors end with the whole index.
func TestFleetLeaderDies(t *testing.T) {
	o := newOrigin(t, 150*time.Millisecond) // a crawl of a few seconds
	storage := t.TempDir()
	var fleet []*instance
	for range 3 {
		fleet = append(fleet, start(t, storage, o))
	}
	var leader *instance
	for deadline := time.Now().Add(time.Minute); leader == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		pid := holderPID(storage)
		for _, in := range fleet {
			if in.cmd.Process.Pid == pid {
				leader = in
			}
		}
	}
	if leader == nil {
		t.Fatal("no instance took the crawl lock")
	}
	if st, err := leader.index(); err != nil || st.LastSuccess != "" {
		t.Fatalf("the leader finished before it was killed: %+v %v", st, err)
	}
	leader.kill()
	killed := time.Now()
	for _, in := range fleet {
		if in != leader {
			st := in.waitIndexed(t, 2*time.Minute)
			t.Logf("instance %d: whole index (%d pages, %s) %s after the leader was killed",
				in.port, st.Pages, st.Fleet.Crawl.Role, time.Since(killed).Round(100*time.Millisecond))
		}
	}
}

// sameLLMsFull: every instance serves the fleet's one llms-full.txt, built
// once; its log says so.
func sameLLMsFull(t *testing.T, fleet []*instance) {
	t.Helper()
	var first []byte
	for _, in := range fleet {
		var body []byte
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/llms-full.txt", in.port))
			if err != nil {
				t.Fatal(err)
			}
			body, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && bytes.Contains(body, []byte("Page 39")) {
				break
			}
		}
		if first == nil {
			first = body
		}
		if !bytes.Contains(body, []byte("Page 39")) || !bytes.Equal(body, first) {
			t.Fatalf("instance %d: llms-full.txt of %d bytes, not the fleet's whole one of %d", in.port, len(body), len(first))
		}
	}
	built := 0
	for _, in := range fleet {
		out, _ := os.ReadFile(in.log)
		built += bytes.Count(out, []byte(`"llms-full.txt built"`))
	}
	if built != 1 {
		t.Errorf("llms-full.txt built %d times in the fleet, want once", built)
	}
}
