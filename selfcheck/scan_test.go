package selfcheck

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"
)

func TestAgentReadySiteScoresFull(t *testing.T) {
	r := scanHandler(t, agentReadySite(t), Options{})
	if r.Score != 100 {
		for _, c := range r.Checks {
			t.Logf("%-30s %-15s %s", c.ID, c.Verdict, c.Missing)
		}
		t.Fatalf("agent-ready site scored %v, want 100", r.Score)
	}
	if len(r.Routes) != 2 || !strings.HasSuffix(r.Routes[1], "/pricing") {
		t.Errorf("routes = %v, want the home page and /pricing from the sitemap", r.Routes)
	}
	for _, c := range r.sectionChecks(SectionOptional) {
		if c.Verdict != Optional || c.Found == nil || !*c.Found {
			t.Errorf("optional %s: verdict %s found %v, want OPTIONAL found (%s)", c.ID, c.Verdict, c.Found, c.Receipt.Note)
		}
	}
	if len(r.Unverified) != 1 || r.Unverified[0].ID != "execution_tested" || r.Unverified[0].Verdict != Unverified {
		t.Errorf("unverified = %+v, want execution_tested UNVERIFIED", r.Unverified)
	}
}

// TestBareSiteScoresLowHonestly: a bare file_server site earns honest FAILs
// (404 is FAIL, never COULD_NOT_CHECK).
func TestBareSiteScoresLowHonestly(t *testing.T) {
	r := scanHandler(t, bareSite(), Options{})
	if r.Score > 15 {
		t.Errorf("bare site scored %v, want a low score", r.Score)
	}
	if len(r.CouldNotCheck) != 0 {
		t.Errorf("bare site: could_not_check = %v, want none (404 is an honest FAIL)", r.CouldNotCheck)
	}
	for _, id := range []string{"sitemap", "llms_txt", "capability_manifest", "markdown_representation", "security_contact", "human_handoff"} {
		if c := r.checkByID(id); c.Verdict != Fail {
			t.Errorf("bare site %s = %s, want FAIL", id, c.Verdict)
		}
	}
}

func TestScanPagesOption(t *testing.T) {
	s := agentReadySite(t)
	for _, tc := range []struct {
		pages int
		want  int
	}{{0, 2}, {-1, 1}, {1, 2}} {
		r := scanHandler(t, s, Options{Pages: tc.pages})
		if len(r.Routes) != tc.want {
			t.Errorf("Pages %d: %d routes %v, want %d", tc.pages, len(r.Routes), r.Routes, tc.want)
		}
	}
}

func TestScanBadTarget(t *testing.T) {
	for _, target := range []string{"", "ftp://x.test/", "/relative", "http://", "::bad"} {
		if r, err := Scan(context.Background(), target, Options{}); err == nil || r != nil {
			t.Errorf("Scan(%q) = %v, %v; want nil report and an error", target, r, err)
		}
	}
}

// TestScanProgress: Progress sees every check once, ending at the total.
func TestScanProgress(t *testing.T) {
	var mu sync.Mutex
	var calls, last int
	r := scanHandler(t, bareSite(), Options{Progress: func(d, total int) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if d > last {
			last = d
		}
		if total != 35 {
			t.Errorf("progress total %d, want 35", total)
		}
	}})
	if calls != len(r.Checks) || last != 35 {
		t.Errorf("progress called %d times up to %d, want 35", calls, last)
	}
}

// TestEveryResponseFetchedOnce: the fetch cache shares each answer (the
// MCP probe's POSTs are distinct JSON-RPC messages, not fetches).
func TestEveryResponseFetchedOnce(t *testing.T) {
	s := agentReadySite(t)
	scanHandler(t, s, Options{})
	if len(s.hits) < 20 {
		t.Fatalf("only %d distinct requests seen", len(s.hits))
	}
	for k, n := range s.hits {
		if n != 1 && !strings.HasPrefix(k, "POST ") {
			t.Errorf("%s fetched %d times, want once", k, n)
		}
	}
}

// TestUserAgentAndHeader: every request names the scanner and carries
// Options.Header; the header never reaches a receipt.
func TestUserAgentAndHeader(t *testing.T) {
	s := agentReadySite(t)
	var mu sync.Mutex
	var bad []string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.UserAgent() != UserAgent || r.Header.Get("X-Self-Scan") != "secret-marker" {
			bad = append(bad, r.URL.Path)
		}
		s.ServeHTTP(w, r)
	})
	r := scanHandler(t, h, Options{Header: http.Header{"X-Self-Scan": {"secret-marker"}}, Redact: []string{"X-Self-Scan"}, Concurrency: 1})
	if len(bad) > 0 {
		t.Errorf("requests without the scanner's User-Agent or header: %v", bad)
	}
	j, _ := r.JSON()
	if strings.Contains(string(j), "secret-marker") {
		t.Error("Options.Header value leaked into the report")
	}
}

// TestScanLeavesNoGoroutines: a finished scan closes what it opened.
func TestScanLeavesNoGoroutines(t *testing.T) {
	srv := httptest.NewServer(bareSite())
	defer srv.Close()
	before := goleak.IgnoreCurrent()
	scanURL(t, srv.URL, Options{})
	// The server stays up: only the scan's own idle connections may go.
	goleak.VerifyNone(t, before)
}

// TestHomeRedirectRebasesTheOrigin: an http→https hop on the home page
// makes the https origin the site's (documents are asked there).
func TestHomeRedirectRebasesTheOrigin(t *testing.T) {
	tlsSrv := httptest.NewTLSServer(agentReadySite(t))
	defer tlsSrv.Close()
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, tlsSrv.URL+r.URL.Path, http.StatusMovedPermanently)
	}))
	defer plain.Close()
	r := scanURL(t, plain.URL, Options{Transport: tlsSrv.Client().Transport})
	if c := r.checkByID("llms_txt"); c.Verdict != Pass || !strings.HasPrefix(c.Receipt.Request.URL, tlsSrv.URL) {
		t.Errorf("llms_txt %s asked at %s, want PASS at %s", c.Verdict, c.Receipt.Request.URL, tlsSrv.URL)
	}
	if len(r.Routes) != 2 || !strings.HasPrefix(r.Routes[1], tlsSrv.URL) {
		t.Errorf("routes %v, want the sitemap page on the https origin", r.Routes)
	}
	// With SameOriginOnly the hop is refused: nothing can be scanned.
	if _, err := Scan(context.Background(), plain.URL, Options{Transport: tlsSrv.Client().Transport, SameOriginOnly: true}); err == nil || !strings.Contains(err.Error(), "origin") {
		t.Errorf("same-origin scan across a redirect: err = %v", err)
	}
}
