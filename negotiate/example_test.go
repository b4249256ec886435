package negotiate_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/agentready/caddy-agentready/negotiate"
)

// A Handler in front of a plain net/http site: an agent gets Markdown, a
// browser the HTML with the discovery headers.
func ExampleHandler() {
	site := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Etag", `"v1"`)
		io.WriteString(w, "<html><head><title>Pricing</title></head><body><h1>Pricing</h1></body></html>")
	})
	h := &negotiate.Handler{
		Convert: func(html []byte, page negotiate.Page) (*negotiate.Converted, error) {
			// The real converter lives in negotiate/convert.
			return &negotiate.Converted{Markdown: []byte("# Pricing\n"), Tokens: 3}, nil
		},
	}
	if err := h.Provision(); err != nil {
		panic(err)
	}
	serve := func(accept string) *http.Response {
		r := httptest.NewRequest(http.MethodGet, "http://example.com/pricing", nil)
		r.Header.Set("Accept", accept)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r, func(w http.ResponseWriter, r *http.Request) error {
			site.ServeHTTP(w, r)
			return nil
		})
		return w.Result()
	}

	agent := serve("text/markdown, text/html;q=0.9")
	body, _ := io.ReadAll(agent.Body)
	fmt.Println(agent.Header.Get("Content-Type"), agent.Header.Get("Etag"), agent.Header.Get("Vary"))
	fmt.Print(string(body))

	browser := serve("text/html,*/*;q=0.8")
	body, _ = io.ReadAll(browser.Body)
	fmt.Println(browser.Header.Get("Content-Type"), browser.Header.Get("Vary"))
	for _, l := range browser.Header.Values("Link") {
		fmt.Println(l)
	}
	fmt.Println(bytes.Contains(body, []byte(`<link rel="alternate" type="text/markdown" href="/pricing/md"></head>`)))
	// Output:
	// text/markdown; charset=utf-8 "v1-md" Accept
	// # Pricing
	// text/html; charset=utf-8 Accept
	// </llms.txt>; rel="describedby"; type="text/plain"
	// </agents.json>; rel="alternate"; type="application/json"
	// </pricing/md>; rel="alternate"; type="text/markdown"
	// true
}
