package sites

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/fleet"
	"github.com/agentready/caddy-agentready/manifest"
	"github.com/agentready/caddy-agentready/traffic"
)

// memStorage is a Storage in memory.
type memStorage struct {
	mu    sync.Mutex
	data  []byte
	saves int
	saved chan struct{} // told of each save, when set
}

func (m *memStorage) Load() ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.data == nil {
		return nil, fmt.Errorf("memory: %w", fs.ErrNotExist)
	}
	return m.data, nil
}

func (m *memStorage) Save(data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.data, m.saves = append([]byte(nil), data...), m.saves+1
	if m.saved != nil {
		m.saved <- struct{}{}
	}
	return nil
}

func (m *memStorage) String() string { return "memory" }

func (m *memStorage) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.saves
}

// ticker is a clock for the save loop: each wait returns a channel the
// test fires.
type ticker struct{ c chan time.Time }

func (t ticker) after(time.Duration) <-chan time.Time { return t.c }

var gptbot = traffic.Classify("Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)")

func requests(snap traffic.Snapshot) uint64 { return snap.Totals.Requests }

// The counts survive a restart through the storage: saved periodically
// and at Destruct, read back by the next Site of the same storage.
func TestSiteSavesAndRestores(t *testing.T) {
	mem, tick := &memStorage{saved: make(chan struct{}, 1)}, ticker{make(chan time.Time)}
	s := New("https://a.test", Config{Storage: mem, After: tick.after})
	s.SetSaveInterval(time.Minute)
	s.Store().Record(traffic.Event{Client: gptbot, Form: traffic.FormMarkdown, Status: 200, Path: "/a"})
	tick.c <- time.Now() // one period
	<-mem.saved
	if mem.count() != 1 {
		t.Fatalf("%d saves after one period, want 1", mem.count())
	}
	s.Store().Record(traffic.Event{Client: gptbot, Form: traffic.FormHTML, Status: 200, Path: "/b"})
	if err := s.Destruct(); err != nil {
		t.Fatal(err)
	}
	<-mem.saved
	mem.saved = nil
	again := New("https://a.test", Config{Storage: mem})
	defer again.Destruct()
	if n := requests(again.Snapshot(context.Background())); n != 2 {
		t.Errorf("restored %d requests, want 2", n)
	}
}

// A save interval <= 0 saves only at Destruct; a broken file starts from
// zero.
func TestSiteSavesAtStopOnly(t *testing.T) {
	mem, tick := &memStorage{data: []byte("{not json")}, ticker{make(chan time.Time)}
	s := New("https://a.test", Config{Storage: mem, After: tick.after})
	s.SetSaveInterval(-1)
	if n := requests(s.Snapshot(context.Background())); n != 0 {
		t.Fatalf("a broken file gave %d requests", n)
	}
	tick.c <- time.Now()
	tick.c <- time.Now()
	if mem.count() != 0 {
		t.Fatalf("%d saves with saving at stop only", mem.count())
	}
	if err := s.Destruct(); err != nil || mem.count() != 1 {
		t.Fatalf("Destruct: %v, %d saves", err, mem.count())
	}
}

// A fleet's instances each publish their counts and read the sum.
func TestSiteFleetSums(t *testing.T) {
	shared := new(fleet.Memory)
	var all []*Site
	for _, id := range []string{"a", "b"} {
		f, err := fleet.New(fleet.Config{Storage: shared, Site: "https://a.test", Instance: id})
		if err != nil {
			t.Fatal(err)
		}
		s := New("https://a.test", Config{Storage: new(memStorage)})
		s.SetFleet(f)
		s.Store().Record(traffic.Event{Client: gptbot, Form: traffic.FormHTML, Status: 200, Path: "/"})
		if err := s.Save(); err != nil {
			t.Fatal(err)
		}
		all = append(all, s)
	}
	for _, s := range all {
		if n := requests(s.View(context.Background())); n != 2 {
			t.Errorf("the fleet's view: %d requests, want 2", n)
		}
		s.Destruct()
	}
}

func TestFileStorage(t *testing.T) {
	f := FileIn(t.TempDir(), "https://a.test")
	if !strings.HasPrefix(filepath.Base(string(f)), "traffic-") || filepath.Base(filepath.Dir(string(f))) != "agent_ready" {
		t.Errorf("file %s", f)
	}
	if _, err := f.Load(); !os.IsNotExist(err) {
		t.Fatalf("load before any save: %v", err)
	}
	if err := f.Save([]byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := f.Save([]byte("two")); err != nil {
		t.Fatal(err)
	}
	if got, err := f.Load(); err != nil || string(got) != "two" {
		t.Errorf("load: %q, %v", got, err)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(string(f)), ".traffic-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// The registry keeps a site while a config uses it, and destructs it
// (saving its counts) when the last lets go.
func TestRegistry(t *testing.T) {
	var r Registry
	mem := new(memStorage)
	made := 0
	create := func(key string) func() *Site {
		return func() *Site { made++; return New(key, Config{Storage: mem}) }
	}
	a := r.Use("https://b.test", create("https://b.test"))
	if again := r.Use("https://b.test", create("https://b.test")); again != a || made != 1 {
		t.Fatalf("a reload made a new site (%d made)", made)
	}
	r.Use("https://a.test", create("https://a.test"))
	if site, others, err := r.Pick(""); err != nil || site.Key() != "https://a.test" || len(others) != 1 || others[0] != "https://b.test" {
		t.Errorf("Pick(\"\"): %v %v %v", site, others, err)
	}
	if _, _, err := r.Pick("https://c.test"); err == nil || !strings.Contains(err.Error(), `no site "https://c.test"`) {
		t.Errorf("Pick of an unknown site: %v", err)
	}
	for _, key := range []string{"https://b.test", "https://a.test"} {
		if err := r.Release(key); err != nil {
			t.Fatal(err)
		}
	}
	if len(r.List()) != 1 || mem.count() != 1 {
		t.Fatalf("after one release each: %d sites, %d saves", len(r.List()), mem.count())
	}
	if err := r.Release("https://b.test"); err != nil || len(r.List()) != 0 || mem.count() != 2 {
		t.Fatalf("last release: %v, %d sites, %d saves", err, len(r.List()), mem.count())
	}
	if _, _, err := r.Pick(""); err == nil {
		t.Error("Pick with no site")
	}
	if err := r.Release("https://b.test"); err == nil {
		t.Error("a release of a site not in use")
	}
}

func TestUseRefusesAndBlocks(t *testing.T) {
	site := New("https://a.test", Config{})
	defer site.Destruct()
	m, err := manifest.Parse([]byte("site:\n  name: Acme\n  origin: https://acme.example\ncontacts:\n  email: web@acme.example\npolicy:\n  training: disallow\n  enforce: claimed\n"), "site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	u := NewUse(site, UseConfig{Site: m, ContentSignal: "ai-train=no", Counting: true})
	h := http.Header{"User-Agent": {"Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"}}
	c := u.Classify(h)
	if c.Agent == nil || c.Agent.Name != "GPTBot" {
		t.Fatalf("classified %+v", c)
	}
	if _, block := u.Refuse(c, traffic.Unverified, "/robots.txt"); block {
		t.Error("robots.txt refused")
	}
	d, block := u.Refuse(c, traffic.Unverified, "/pricing")
	if !block {
		t.Fatal("a claimed training crawler not refused under enforce: claimed")
	}
	for _, method := range []string{http.MethodGet, http.MethodHead} {
		w := httptest.NewRecorder()
		n := u.Block(w, httptest.NewRequest(method, "/pricing", nil), c, d)
		if w.Code != 403 || w.Header().Get("Content-Signal") != "ai-train=no" || int(n) != w.Body.Len() {
			t.Errorf("%s: %d %v, %d bytes said, %d written", method, w.Code, w.Header(), n, w.Body.Len())
		}
		if method == http.MethodGet && (!strings.Contains(w.Body.String(), "https://acme.example/robots.txt") ||
			!strings.Contains(w.Body.String(), "mailto:web@acme.example")) {
			t.Errorf("body says neither the policy nor the contact:\n%s", w.Body)
		}
	}
	u.Record(traffic.Event{Client: c, Status: 403, Path: "/pricing", Blocked: true})
	if snap := site.Snapshot(context.Background()); snap.Totals.Blocked != 1 {
		t.Errorf("blocked %d, want 1", snap.Totals.Blocked)
	}
	off := NewUse(site, UseConfig{Site: m})
	off.Record(traffic.Event{Client: c, Status: 200, Path: "/"})
	if snap := site.Snapshot(context.Background()); snap.Totals.Requests != 1 {
		t.Errorf("a Use that does not count counted: %d requests", snap.Totals.Requests)
	}
}
