package pages

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/internal/inproc"
	"github.com/agentready/caddy-agentready/manifest"
)

// fakeClock fires every wait at once, moving its time on by the wait, and
// records the waits.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	c.now = c.now.Add(d)
	ch := make(chan time.Time, 1)
	ch <- c.now
	return ch
}

func (c *fakeClock) recorded() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.waits)
}

// fakeDocs records what the documents are told.
type fakeDocs struct {
	mu      sync.Mutex
	pages   []manifest.PageInfo
	sitemap string
	none    bool
	found   bool
	full    []byte
}

func (d *fakeDocs) SetPages(p []manifest.PageInfo) { d.mu.Lock(); d.pages = p; d.mu.Unlock() }
func (d *fakeDocs) SetSitemap(path string, none bool) {
	d.mu.Lock()
	d.sitemap, d.none, d.found = path, none, true
	d.mu.Unlock()
}
func (d *fakeDocs) SetLLMsFull(body []byte, _ time.Time) { d.mu.Lock(); d.full = body; d.mu.Unlock() }

// site is a small origin: robots.txt (refused the first `down` times it is
// asked for), three pages that link to each other, each with a Markdown
// form, and optionally its own sitemap.
type site struct {
	mu      sync.Mutex
	down    int
	sitemap bool
	asked   []string
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.asked = append(s.asked, r.URL.Path)
	if r.URL.Path == "/robots.txt" && s.down > 0 {
		s.down--
		s.mu.Unlock()
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	sitemap := s.sitemap
	s.mu.Unlock()
	titles := map[string]string{"/": "Home", "/guide": "Guide", "/faq": "FAQ"}
	switch title, ok := titles[r.URL.Path]; {
	case r.URL.Path == "/robots.txt":
		io.WriteString(w, "User-agent: *\nAllow: /\n")
	case r.URL.Path == "/sitemap.xml" && sitemap:
		w.Header().Set("Content-Type", "application/xml")
		io.WriteString(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://site.test/guide</loc></url></urlset>`)
	case !ok:
		http.NotFound(w, r)
	case strings.Contains(r.Header.Get("Accept"), "text/markdown"):
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		fmt.Fprintf(w, "---\ntitle: %s\n---\n\n# %s\n\nAll about %s.\n", title, title, strings.ToLower(title))
	default:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>%s</title></head><body><main><h1>%s</h1><p>All about it.</p><a href="/guide">g</a> <a href="/faq">f</a></main></body></html>`, title, title)
	}
}

func parseSite(t *testing.T, yaml string) *manifest.Site {
	t.Helper()
	s, err := manifest.Parse([]byte("site:\n  name: Site\n"+yaml), "site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// newPages is the Pages of s at http://site.test, on a fake clock.
func newPages(t *testing.T, h http.Handler, s *manifest.Site) (*Pages, *fakeDocs, *fakeClock) {
	t.Helper()
	docs, clock := &fakeDocs{}, &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	p, err := New(Config{Origin: "http://site.test", Transport: inproc.Transport{Handler: h}, Site: s,
		Docs: docs, List: &List{}, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p, docs, clock
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// TestRetrySchedule: a discovery that meets a site that does not answer is
// retried after 2 s, then twice as late each time, until the site answers;
// Ready closes after the first attempt, and only the answered list is
// published.
func TestRetrySchedule(t *testing.T) {
	for _, tc := range []struct {
		down int
		want []time.Duration
	}{
		{0, nil},
		{1, []time.Duration{2 * time.Second}},
		{4, []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second}},
	} {
		p, docs, clock := newPages(t, &site{down: tc.down}, parseSite(t, "llms:\n  auto_list:\n    enabled: true\n"))
		p.Retry()
		if !isClosed(p.Ready()) {
			t.Errorf("down %d: not ready after the retries", tc.down)
		}
		if got := clock.recorded(); !slices.Equal(got, tc.want) {
			t.Errorf("down %d: waits %v, want %v", tc.down, got, tc.want)
		}
		if len(docs.pages) != 3 {
			t.Errorf("down %d: the documents list %d pages, want 3", tc.down, len(docs.pages))
		}
	}
}

// TestBackoffCap: no retry waits longer than ListFresh.
func TestBackoffCap(t *testing.T) {
	p := &Pages{cfg: Config{RetryMin: DefaultRetryMin}}
	for n, want := range map[int]time.Duration{1: 2 * time.Second, 3: 8 * time.Second, 11: 2048 * time.Second, 12: ListFresh, 40: ListFresh} {
		if got := p.backoff(n); got != want {
			t.Errorf("backoff(%d) = %v, want %v", n, got, want)
		}
	}
}

// TestAfterSitemap: the sitemap finder's result decides whether the pages
// are crawled (only when the origin has no sitemap, the generated one is
// served and nothing else discovers them), and Ready closes in every case.
func TestAfterSitemap(t *testing.T) {
	for _, tc := range []struct {
		name      string
		sitemap   bool
		yaml      string
		wantPages int
		wantNone  bool
	}{
		{"own sitemap: its list, no crawl", true, "", 0, false},
		{"no sitemap: crawled", false, "", 3, false},
		{"no sitemap, ours off: no crawl, none answers", false, "documents:\n  sitemap_xml: off\n", 0, true},
		{"index on: the index discovers", false, "connect:\n  enabled: true\n", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, docs, _ := newPages(t, &site{sitemap: tc.sitemap}, parseSite(t, tc.yaml))
			p.FindSitemap(context.Background())
			if !p.Crawl() {
				if isClosed(p.Ready()) {
					t.Error("ready before the content index's first discovery")
				}
			} else {
				<-p.Ready() // the test's timeout, if never
			}
			if !docs.found || docs.none != tc.wantNone || (docs.sitemap != "") != tc.sitemap {
				t.Errorf("sitemap %q none %v (told %v)", docs.sitemap, docs.none, docs.found)
			}
			if len(docs.pages) != tc.wantPages {
				t.Errorf("%d pages listed, want %d", len(docs.pages), tc.wantPages)
			}
		})
	}
}

// TestSitemapRetry: a robots.txt that does not answer sends the finder
// back after a backoff; Ready does not wait for it.
func TestSitemapRetry(t *testing.T) {
	p, docs, clock := newPages(t, &site{down: 2}, parseSite(t, ""))
	p.FindSitemap(context.Background())
	if !isClosed(p.Ready()) {
		t.Error("not ready after a failed find")
	}
	deadline := time.Now().Add(time.Minute)
	for {
		docs.mu.Lock()
		n := len(docs.pages)
		docs.mu.Unlock()
		if n == 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := clock.recorded(); !slices.Equal(got, []time.Duration{2 * time.Second, 4 * time.Second}) {
		t.Errorf("waits %v", got)
	}
	if len(docs.pages) != 3 {
		t.Errorf("%d pages after the retries, want 3", len(docs.pages))
	}
}

// TestSitemapNoneRules: whether no sitemap answers on the site.
func TestSitemapNoneRules(t *testing.T) {
	for _, tc := range []struct {
		path   string
		status int
		ours   bool
		want   bool
	}{
		{"/wp-sitemap.xml", 302, true, false},
		{"", 404, true, false},
		{"", 404, false, true},
		{"", 302, true, true},
		{"", 500, true, true},
		{"", 0, true, true},
	} {
		if got := sitemapNone(tc.path, tc.status, tc.ours); got != tc.want {
			t.Errorf("path %q, /sitemap.xml %d (ours served %v): none = %v, want %v", tc.path, tc.status, tc.ours, got, tc.want)
		}
	}
}
