package selfscan

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func resources(sites ...*Site) Resources {
	return Resources{
		Sites:       func() []*Site { return sites },
		Indexes:     func() any { return []string{"index"} },
		Nav:         func(p []byte) []byte { return append([]byte("<nav>"), p...) },
		ScanTimeout: time.Minute,
	}
}

func serve(t *testing.T, res Resources, method, target string) (*httptest.ResponseRecorder, error) {
	t.Helper()
	w := httptest.NewRecorder()
	r := httptest.NewRequest(method, target, nil)
	return w, res.Serve(w, r, strings.TrimPrefix(r.URL.Path, "/agent-ready/"))
}

func statusOf(err error) int {
	var herr HTTPError
	if errors.As(err, &herr) {
		return herr.Status
	}
	return 0
}

// The errors of the resources: each with the status it is answered with.
func TestServeErrors(t *testing.T) {
	site := newTestSiteScan(tinySite(nil), 20*time.Second)
	res := resources(site)
	for _, tc := range []struct {
		res            Resources
		method, target string
		want           int
	}{
		{res, "POST", "/agent-ready/report.json", http.StatusMethodNotAllowed},
		{res, "GET", "/agent-ready/nothing", http.StatusNotFound},
		{res, "POST", "/agent-ready/scan", http.StatusNotFound}, // not offered
		{Resources{Sites: res.Sites, AllowScan: true}, "GET", "/agent-ready/scan", http.StatusMethodNotAllowed},
		{res, "GET", "/agent-ready/?site=https://other.test/", http.StatusNotFound},
		{resources(), "GET", "/agent-ready/", http.StatusNotFound},
	} {
		if _, err := serve(t, tc.res, tc.method, tc.target); statusOf(err) != tc.want {
			t.Errorf("%s %s: %v, want %d", tc.method, tc.target, err, tc.want)
		}
	}
}

// Before the first scan each form says so with a 503; after it, each form
// is the report's, the page with its navigation.
func TestServeReport(t *testing.T) {
	site := newTestSiteScan(tinySite(nil), 20*time.Second)
	res := resources(site)
	for _, sub := range []string{"", "report.json", "report.md"} {
		w, err := serve(t, res, "GET", "/agent-ready/"+sub)
		if err != nil || w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "No self-scan has completed yet") {
			t.Errorf("%q before a scan: %v %d %s", sub, err, w.Code, w.Body)
		}
	}
	res.AllowScan = true
	w, err := serve(t, res, "POST", "/agent-ready/scan?site=http://tiny.test/")
	var st Status
	if err != nil || json.Unmarshal(w.Body.Bytes(), &st) != nil || st.Score == nil {
		t.Fatalf("scan: %v %s", err, w.Body)
	}
	for sub, want := range map[string]string{"": "<nav>", "report.json": `"score"`, "report.md": "# "} {
		w, err := serve(t, res, "GET", "/agent-ready/"+sub)
		if err != nil || w.Code != 200 || !strings.Contains(w.Body.String(), want) {
			t.Errorf("%q: %v %d %.80s", sub, err, w.Code, w.Body)
		}
		if w.Header().Get("Last-Modified") == "" || w.Header().Get("X-Agent-Ready-Scan-Running") != "false" {
			t.Errorf("%q: headers %v", sub, w.Header())
		}
	}
	w, _ = serve(t, res, "GET", "/agent-ready/status")
	var all struct {
		Sites   []Status
		Indexes []string `json:"content_indexes"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &all); err != nil || len(all.Sites) != 1 || len(all.Indexes) != 1 {
		t.Errorf("status: %v %s", err, w.Body)
	}
}

// A scan asked for while one runs is a conflict.
func TestServeScanConflict(t *testing.T) {
	block := make(chan struct{})
	site := newTestSiteScan(tinySite(block), 20*time.Second)
	done := make(chan error, 1)
	go func() { done <- site.Run(context.Background()) }()
	for !site.Status().Running {
		time.Sleep(5 * time.Millisecond)
	}
	res := resources(site)
	res.AllowScan = true
	if _, err := serve(t, res, "POST", "/agent-ready/scan"); statusOf(err) != http.StatusConflict {
		t.Errorf("scan while one runs: %v", err)
	}
	close(block)
	<-done
}
