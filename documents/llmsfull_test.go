package documents

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestBuildLLMsFull: pages in order with their front matter as a heading
// line and their source URL; a page that fails is left out; the budget
// cuts before the page that would pass it, says so at the top and the end,
// and fetches nothing past it.
func TestBuildLLMsFull(t *testing.T) {
	pages := map[string]*FullPage{
		"https://a.example/":    {URL: "https://a.example/", Title: "Home", Description: "The\nhome page.", Markdown: []byte("\n# Home\n\nWelcome.\n")},
		"https://a.example/csv": {URL: "https://a.example/csv", Title: "Read and write CSV", Markdown: []byte("Use the csv module.")},
		"https://a.example/big": {URL: "https://a.example/big", Title: "Big", Markdown: []byte(strings.Repeat("x", 9000))},
		"https://a.example/end": {URL: "https://a.example/end", Title: "End", Markdown: []byte("end")},
	}
	var fetched []string
	fetch := func(_ context.Context, u string) (*FullPage, error) {
		fetched = append(fetched, u)
		if p, ok := pages[u]; ok {
			return p, nil
		}
		return nil, errors.New("status 404")
	}
	urls := []string{"https://a.example/", "https://a.example/gone", "https://a.example/csv", "https://a.example/big", "https://a.example/end"}

	body, st := BuildLLMsFull(context.Background(), "Acme\nDocs", urls, 1<<20, fetch)
	got := string(body)
	for _, want := range []string{
		"# Acme Docs\n\n> The Markdown of the site's 4 pages",
		"---\n\n## Home\n\nSource: https://a.example/\n\n> The home page.\n\n# Home\n\nWelcome.\n\n",
		"## Read and write CSV\n\nSource: https://a.example/csv\n\nUse the csv module.\n\n",
		"## End\n\nSource: https://a.example/end\n\nend\n\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("llms-full.txt lacks %q:\n%s", want, got)
		}
	}
	if st.Included != 4 || st.Failed != 1 || st.Cut || st.Listed != 5 || st.Bytes != len(body) || strings.Contains(got, "Cut") {
		t.Errorf("stats %+v", st)
	}

	fetched = nil
	body, st = BuildLLMsFull(context.Background(), "Acme", urls, 4096, fetch)
	got = string(body)
	if !st.Cut || st.Included != 2 || int64(len(body)) > 4096 {
		t.Errorf("cut at 4096: stats %+v, %d bytes", st, len(body))
	}
	if !strings.Contains(got, "This file was cut at 4096 bytes") || !strings.HasSuffix(got, "[Cut here: llms-full.txt is limited to 4096 bytes; 2 of 5 pages included.]\n") || strings.Contains(got, "## Big") {
		t.Errorf("the cut is not said:\n%s", got)
	}
	if strings.Join(fetched, " ") != "https://a.example/ https://a.example/gone https://a.example/csv https://a.example/big" {
		t.Errorf("fetched %q", fetched)
	}
}

// TestServeLLMsFull: 503 with Retry-After until built, then the file with
// its validators and 304.
func TestServeLLMsFull(t *testing.T) {
	s := newSet(t, siteYAML)
	do := func(hdr ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "https://acme.example/llms-full.txt", nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		rec := httptest.NewRecorder()
		if handled, err := s.Serve(rec, req, origin(404, "", nil)); !handled || err != nil {
			t.Fatalf("handled %v, err %v", handled, err)
		}
		return rec
	}
	if rec := do(); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Errorf("before it is built: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	s.SetLLMsFull([]byte("# Acme\n"), time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	rec := do()
	if rec.Code != 200 || rec.Body.String() != "# Acme\n" || rec.Header().Get("Content-Type") != "text/markdown; charset=utf-8" ||
		rec.Header().Get("Last-Modified") != "Fri, 02 Jan 2026 03:04:05 GMT" {
		t.Fatalf("built: %d %q %v", rec.Code, rec.Body.String(), rec.Header())
	}
	if nm := do("If-None-Match", rec.Header().Get("ETag")); nm.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: %d", nm.Code)
	}
}
