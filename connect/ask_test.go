package connect

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestAskEndpoint(t *testing.T) {
	_, ts := newTestServer(t, Options{MaxQueryLength: 100}, nil)
	tests := []struct {
		name       string
		method     string
		query      string
		wantStatus int
		wantType   string
		golden     string
	}{
		{name: "answer", query: "?query=" + url.QueryEscape("studio plan pricing"), wantStatus: 200, wantType: "application/json", golden: "ask_pricing.golden.json"},
		{name: "no match", query: "?query=zeppelin", wantStatus: 200, wantType: "application/json", golden: "ask_empty.golden.json"},
		{name: "limit", query: "?query=the&limit=1", wantStatus: 200, wantType: "application/json"},
		{name: "HEAD", method: http.MethodHead, query: "?query=kiln", wantStatus: 200, wantType: "application/json"},
		{name: "missing query", query: "", wantStatus: 400, wantType: "application/problem+json"},
		{name: "blank query", query: "?query=%20%20", wantStatus: 400, wantType: "application/problem+json"},
		{name: "query over the limit", query: "?query=" + strings.Repeat("x", 101), wantStatus: 400, wantType: "application/problem+json"},
		{name: "huge query", query: "?query=" + strings.Repeat("kiln+", 20000), wantStatus: 400, wantType: "application/problem+json"},
		{name: "invalid UTF-8", query: "?query=%ff%fe", wantStatus: 400, wantType: "application/problem+json"},
		{name: "bad limit", query: "?query=kiln&limit=-3", wantStatus: 400, wantType: "application/problem+json"},
		{name: "POST", method: http.MethodPost, query: "?query=kiln", wantStatus: 405, wantType: "application/problem+json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(cmpOr(tt.method, http.MethodGet), ts.URL+DefaultAskPath+tt.query, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.wantStatus || resp.Header.Get("Content-Type") != tt.wantType {
				t.Fatalf("%d %s, want %d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), tt.wantStatus, tt.wantType, body)
			}
			if tt.wantStatus == 405 && resp.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("Allow = %q", resp.Header.Get("Allow"))
			}
			if tt.golden != "" {
				golden(t, tt.golden, body)
			}
			if tt.wantStatus == 200 && tt.method == "" {
				var out AskResponse
				if err := json.Unmarshal(body, &out); err != nil || out.Results == nil {
					t.Fatalf("not an ask answer: %v %s", err, body)
				}
				for _, r := range out.Results {
					if r.Type != "WebPage" || r.Name == "" || r.URL == "" || r.Description == "" {
						t.Errorf("incomplete item %+v", r)
					}
				}
			}
		})
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
