package cdn_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The Accept headers of the clients in the tests, as they send them.
const (
	chromeAccept  = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"
	firefoxAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	curlAccept    = "*/*"
	agentAccept   = "text/markdown"
	agent2Accept  = "text/markdown, text/html;q=0.9"
)

// The forms a response can come in.
const (
	formHTML     = "html"
	formMarkdown = "markdown"
)

// reply is what the cache answered.
type reply struct {
	status int
	header http.Header
	body   string
	form   string // formHTML, formMarkdown or a description of anything else
	cache  string // the X-Cache header: HIT, MISS, REVALIDATED…
}

// client asks like a browser does: with Accept-Encoding: gzip (Go's
// transport adds it and inflates the answer) and without cookies.
var client = &http.Client{
	Timeout: 20 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	},
}

// fetch sends GET url with the given Accept and classifies the answer.
func fetch(t *testing.T, url, accept string) reply {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", accept)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		t.Fatalf("reading %s: %v", url, err)
	}
	r := reply{status: resp.StatusCode, header: resp.Header, body: string(body)}
	r.form = formOf(resp.StatusCode, resp.Header.Get("Content-Type"), r.body)
	r.cache = resp.Header.Get("X-Cache")
	return r
}

// formOf tells the two forms apart by what a client acts on: the type it
// renders by and the bytes it renders. Anything else is described.
func formOf(status int, contentType, body string) string {
	switch {
	case status != http.StatusOK:
		return "status " + http.StatusText(status)
	case strings.HasPrefix(contentType, "text/markdown") && strings.HasPrefix(body, "---\n") && !strings.Contains(body, "<html"):
		return formMarkdown
	case strings.HasPrefix(contentType, "text/html") && strings.Contains(strings.ToLower(body[:min(len(body), 512)]), "<html"):
		return formHTML
	}
	return "other: " + contentType + " " + body[:min(len(body), 40)]
}

func TestFormOf(t *testing.T) {
	const (
		md   = "---\ntitle: Pricing\n---\n\n# Pricing\n"
		page = "<!doctype html>\n<html lang=en><head><title>Pricing</title></head><body></body></html>"
	)
	for _, tc := range []struct {
		name        string
		status      int
		contentType string
		body        string
		want        string
	}{
		{"markdown", 200, "text/markdown; charset=utf-8", md, formMarkdown},
		{"html", 200, "text/html; charset=utf-8", page, formHTML},
		{"html labelled markdown", 200, "text/markdown; charset=utf-8", "---\n" + page, "other: "},
		{"markdown labelled html", 200, "text/html; charset=utf-8", md, "other: "},
		{"json", 200, "application/json", `{"html":"<html>"}`, "other: "},
		{"not found", 404, "text/html", page, "status Not Found"},
		{"empty", 200, "", "", "other: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Anything else is described; only its prefix is fixed.
			if got := formOf(tc.status, tc.contentType, tc.body); !strings.HasPrefix(got, tc.want) || (tc.want != "other: " && got != tc.want) {
				t.Errorf("formOf = %q, want %q", got, tc.want)
			}
		})
	}
}
