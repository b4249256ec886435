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

// TestFullOrder: index, search and listing pages are left out by their
// address, the rest goes shallowest first in the given order.
func TestFullOrder(t *testing.T) {
	in := []string{
		"https://d.example/genindex-A.html",
		"https://d.example/library/csv.html",
		"https://d.example/about.html",
		"https://d.example/search.html",
		"https://d.example/py-modindex.html",
		"https://d.example/",
		"https://d.example/tutorial/index.html",
		"https://d.example/genindex.html",
		"https://d.example/blog/?q=x",
		"https://d.example/tags/",
		"https://d.example/library/index.html",
	}
	want := []string{
		"https://d.example/",
		"https://d.example/about.html",
		"https://d.example/tutorial/index.html",
		"https://d.example/library/index.html",
		"https://d.example/library/csv.html",
	}
	if got := FullOrder(in); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("FullOrder:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLinkOnly: a page whose words are mostly link text is an index.
func TestLinkOnly(t *testing.T) {
	for _, c := range []struct {
		md   string
		want bool
	}{
		{"# Index\n\n- [abs()](a.html)\n- [all()](b.html)\n- [any()](c.html)\n- [ascii()](d.html)\n", true},
		{"", true},
		{"# CSV\n\nThe csv module reads and writes tabular data in comma separated form. See [the tutorial](t.html).", false},
		{"Use the csv module.", false},
	} {
		if got := linkOnly([]byte(c.md)); got != c.want {
			t.Errorf("linkOnly(%q) = %v, want %v", c.md, got, c.want)
		}
	}
}

// TestBuildLLMsFullKeepsContent: under a cap that holds one page, the
// content page is the one kept, not the index pages listed before it.
func TestBuildLLMsFullKeepsContent(t *testing.T) {
	index := []byte(strings.Repeat("- [entry](x.html)\n", 40))
	pages := map[string]*FullPage{
		"https://d.example/genindex-A.html":  {Title: "Index A", Markdown: index},
		"https://d.example/contents.html":    {Title: "Contents", Markdown: index},
		"https://d.example/library/csv.html": {Title: "csv", Markdown: []byte(strings.Repeat("The csv module reads tables. ", 60))},
	}
	fetch := func(_ context.Context, u string) (*FullPage, error) {
		p := pages[u]
		if p == nil {
			return nil, errors.New("404")
		}
		p.URL = u
		return p, nil
	}
	urls := []string{"https://d.example/genindex-A.html", "https://d.example/contents.html", "https://d.example/library/csv.html"}
	body, st := BuildLLMsFull(context.Background(), "Docs", urls, 4096, fetch)
	if !strings.Contains(string(body), "## csv") || strings.Contains(string(body), "## Index A") || strings.Contains(string(body), "## Contents") {
		t.Errorf("the content page is not the one kept:\n%s", body)
	}
	if st.Included != 1 || st.Skipped != 2 {
		t.Errorf("stats %+v", st)
	}
}
