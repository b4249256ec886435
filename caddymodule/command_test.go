package caddymodule

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
)

// TestRunConvertMatchesHandler: `caddy agent-ready convert` prints what the
// handler serves for the same page and settings.
func TestRunConvertMatchesHandler(t *testing.T) {
	opts := convert.Options{Prune: pruneSelectors(nil, true), JSONLD: true, FrontMatter: true}
	page := filepath.Join("..", "examples", "site", "pricing.html")
	var out, errOut bytes.Buffer
	err := runConvert(nil, &out, &errOut, convertArgs{URL: "https://acme.example/pricing", File: page, Tokens: true, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := convert.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	html, _ := negotiate.ToUTF8(raw, "text/html")
	u, _ := url.Parse("https://acme.example/pricing")
	want, err := conv.Convert(html, u, http.Header{})
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want.Markdown) {
		t.Errorf("convert output differs from the converter's")
	}
	if !strings.Contains(out.String(), "canonical: https://acme.example/pricing\n") {
		t.Errorf("--url not used for the canonical URL:\n%.300s", out.String())
	}
	if !strings.HasPrefix(errOut.String(), "tokens: ") {
		t.Errorf("--tokens printed %q", errOut.String())
	}
}

func TestRunConvertErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args convertArgs
		in   string
		want string
	}{
		{"relative url", convertArgs{URL: "/pricing"}, "<p>x</p>", "need an absolute URL"},
		{"missing file", convertArgs{URL: "http://x/", File: "does-not-exist.html"}, "", "opening input"},
		{"bad selector", convertArgs{URL: "http://x/", Options: convert.Options{ContentSelectors: []string{"main["}}}, "<p>x</p>", "main["},
		{"empty page", convertArgs{URL: "http://x/"}, "<html><body></body></html>", "converting"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := runConvert(strings.NewReader(tc.in), &out, &errOut, tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestConversionAdmission: conversions wait for their share of the bytes in
// flight, and give up with their client.
func TestConversionAdmission(t *testing.T) {
	conv, err := convert.New(convert.Options{FrontMatter: true})
	if err != nil {
		t.Fatal(err)
	}
	ar := &AgentReady{conv: conv, inflightMax: 1 << 10, inflight: semaphore.NewWeighted(1 << 10)}
	page := []byte("<html><head><title>T</title></head><body><main><p>" + strings.Repeat("words ", 100) + "</p></main></body></html>")
	u, _ := url.Parse("http://x/p")

	if err := ar.inflight.Acquire(context.Background(), 1<<10); err != nil { // another conversion holds every byte
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := ar.convertPage(page, negotiate.Page{URL: u, Header: http.Header{}, Context: ctx}); err == nil || !strings.Contains(err.Error(), "conversion slot") {
		t.Fatalf("a conversion ran past the bound: %v", err)
	}
	ar.inflight.Release(1 << 10)
	got, err := ar.convertPage(page, negotiate.Page{URL: u, Header: http.Header{}, Context: context.Background()})
	if err != nil || !strings.Contains(string(got.Markdown), "words words") {
		t.Fatalf("with the bytes free: %v", err)
	}
	// A page larger than the bound still converts (alone).
	big := []byte("<html><body><main><p>" + strings.Repeat("more words ", 1000) + "</p></main></body></html>")
	if _, err := ar.convertPage(big, negotiate.Page{URL: u, Header: http.Header{}, Context: context.Background()}); err != nil {
		t.Fatalf("a page over the bound: %v", err)
	}
}
