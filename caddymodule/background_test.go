package caddymodule

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
)

// TestBackgroundConvertBudget: a conversion whose convert_timeout has run
// out stops for a client's request, and completes for background work
// (the content index, llms-full.txt), which no client waits for.
func TestBackgroundConvertBudget(t *testing.T) {
	s := convert.Settings{ConversionCache: -1}
	if err := s.Provision(); err != nil {
		t.Fatal(err)
	}
	conv, err := newConverter(s, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	ar := &AgentReady{conv: conv}
	html := []byte("<html><head><title>t</title></head><body><main><p>hello</p></main></body></html>")
	for _, tc := range []struct {
		name       string
		background bool
		wantErr    bool
	}{{"client", false, true}, {"background", true, false}} {
		ctx := context.Background()
		if tc.background {
			ctx = context.WithValue(ctx, backgroundKey{}, true)
		}
		ctx, cancel := context.WithDeadline(ctx, time.Now().Add(-time.Second)) // the budget is spent
		_, err := ar.convertPage(html, negotiate.Page{URL: mustURL("http://localhost/"), Header: http.Header{}, Context: ctx})
		cancel()
		if (err != nil) != tc.wantErr {
			t.Errorf("%s: err = %v, want error %v", tc.name, err, tc.wantErr)
		}
	}
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}
