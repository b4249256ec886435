package connect_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"

	"github.com/agentready/caddy-agentready/connect"
)

// siteSource is a two-page Source; a real one fetches pages through the
// server's handler chain and converts them to Markdown.
type siteSource struct{}

func (siteSource) Pages(context.Context) ([]string, error) {
	return []string{"https://example.com/", "https://example.com/pricing"}, nil
}

func (siteSource) Fetch(_ context.Context, u string, prev connect.Validators) (*connect.Page, error) {
	if prev.ETag == `"1"` {
		return nil, connect.ErrNotModified // the origin answered 304
	}
	title := map[string]string{"https://example.com/": "Home", "https://example.com/pricing": "Pricing"}[u]
	return &connect.Page{URL: u, Title: title, Language: "en",
		Markdown: []byte("# " + title + "\n\nPlans start at 9 EUR a month."), Validators: connect.Validators{ETag: `"1"`}}, nil
}

func Example() {
	srv, err := connect.New(connect.Options{Origin: "https://example.com"}, siteSource{}, nil)
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	// Start indexes in the background; Refresh indexes now.
	if err := srv.Refresh(context.Background()); err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if srv.Handles(r.URL.Path) {
			srv.ServeHTTP(w, r)
			return
		}
		http.NotFound(w, r)
	}))
	ts := httptest.NewServer(mux)
	defer ts.Close()

	resp, err := http.Get(ts.URL + "/ask?query=" + url.QueryEscape("pricing plans"))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"))
	fmt.Println(string(body))
	fmt.Println(srv.Stats().Pages, "pages")
	// Output:
	// 200 application/json
	// {"@context":"https://schema.org","query":"pricing plans","results":[{"@type":"WebPage","name":"Pricing","url":"https://example.com/pricing","description":"Plans start at 9 EUR a month.","section":"Pricing","snippet":"Plans start at 9 EUR a month.","inLanguage":"en"},{"@type":"WebPage","name":"Home","url":"https://example.com/","description":"Plans start at 9 EUR a month.","section":"Home","snippet":"Plans start at 9 EUR a month.","inLanguage":"en"}]}
	// 2 pages
}
