package caddymodule

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// The fixed cost agent_ready adds to a request, without the network: the
// whole handler (generated documents, negotiation, headers, metrics)
// around a next handler that answers from memory as reverse_proxy would
// (its headers, then the body in one write). "plain" is next alone, the
// floor; the other cases are what issue #15 measures under load with
// bench/proxy/run.sh overhead. Allocations per request are the stable
// figure on a shared machine; run with
//
//	go test ./caddymodule -run '^$' -bench ServeHTTPOverhead -benchmem

// benchAcceptHTML is the Accept of a browser's navigation.
const benchAcceptHTML = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"

// benchHandler provisions agent_ready from a Caddyfile block, as a user
// would write it, with the demo site's YAML.
func benchHandler(b *testing.B, extra string) *AgentReady {
	b.Helper()
	yaml, err := filepath.Abs("../examples/site.yaml")
	if err != nil {
		b.Fatal(err)
	}
	ar := new(AgentReady)
	block := "agent_ready {\n\tconfig " + yaml + "\n\tself_scan off\n" + extra + "}"
	if err := ar.UnmarshalCaddyfile(caddyfile.NewTestDispenser(block)); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := caddy.NewContext(caddy.Context{Context: context.Background()})
	b.Cleanup(cancel)
	if err := ar.Provision(ctx); err != nil {
		b.Fatal(err)
	}
	if err := ar.Validate(); err != nil {
		b.Fatal(err)
	}
	// Caddy's default log level, not the debug logger a Context without a
	// config gives tests.
	ar.logger = zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), zapcore.AddSync(io.Discard), zap.InfoLevel))
	ar.neg.Observer = observer{logger: ar.logger, counting: ar.traffic != nil && ar.traffic.Counting}
	return ar
}

// benchOrigin is a next handler that answers as reverse_proxy does: the
// origin's headers, then the body in writes of at most 32 KiB (its copy
// buffer). A static origin sends a length and validators; chunked is a
// dynamic origin's answer, without them.
func benchOrigin(page []byte, contentType string, chunked bool) caddyhttp.Handler {
	length := strconv.Itoa(len(page))
	return caddyhttp.HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		h := w.Header()
		h["Content-Type"] = []string{contentType}
		if !chunked {
			h["Content-Length"] = []string{length}
			h["Etag"] = []string{`"bench-1"`}
			h["Last-Modified"] = []string{"Thu, 01 Jan 2026 00:00:00 GMT"}
			h["Accept-Ranges"] = []string{"bytes"}
		}
		w.WriteHeader(http.StatusOK)
		for p := page; len(p) > 0; {
			n := min(len(p), 32<<10)
			if _, err := w.Write(p[:n]); err != nil {
				return err
			}
			p = p[n:]
		}
		return nil
	})
}

// benchWriter keeps the status and header map of a response and drops its
// body. Its map is cleared between requests (keeping its buckets, so map
// growth is not counted against the handler).
type benchWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *benchWriter) Header() http.Header { return w.h }
func (w *benchWriter) WriteHeader(s int)   { w.status = s }
func (w *benchWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	return len(p), nil
}

// benchRequest is a GET of path with accept, in the context a Caddy server
// gives its requests (replacer, variables, original request).
func benchRequest(path, accept string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "http://bench.test"+path, nil)
	r.Header.Set("Accept", accept)
	r.Header.Set("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) bench")
	r.Header.Set("Accept-Encoding", "gzip, deflate, br")
	return caddyhttp.PrepareRequest(r, caddy.NewReplacer(), httptest.NewRecorder(), nil)
}

// benchPage is an HTML page of size bytes with a head to annotate.
func benchPage(size int) []byte {
	const head = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Bench</title>\n</head>\n<body>\n<main>\n"
	const tail = "</main>\n</body>\n</html>\n"
	var b strings.Builder
	b.WriteString(head)
	for b.Len() < size-len(tail)-64 {
		b.WriteString("<p>Widgets render on every page that embeds them; <a href=\"/pricing\">pricing</a>.</p>\n")
	}
	b.WriteString(strings.Repeat(" ", max(0, size-len(tail)-b.Len())))
	b.WriteString(tail)
	return []byte(b.String())
}

func BenchmarkServeHTTPOverhead(b *testing.B) {
	headersOnly := benchHandler(b, "\tinject off\n\thead_link off\n")
	annotated := benchHandler(b, "")
	firstSight := benchHandler(b, "\trewrite_cache off\n")
	css := benchOrigin([]byte("body{}"), "text/css", false)
	type benchCase struct {
		name   string
		ar     *AgentReady // nil: next alone
		next   caddyhttp.Handler
		accept string
	}
	var cases []benchCase
	for _, size := range []struct {
		name string
		n    int
	}{{"1k", 1 << 10}, {"60k", 60 << 10}, {"1m", 1 << 20}} {
		page := benchPage(size.n)
		html := benchOrigin(page, "text/html; charset=utf-8", false)
		cases = append(cases,
			benchCase{size.name + "/plain", nil, html, benchAcceptHTML},
			benchCase{size.name + "/headers only", headersOnly, html, benchAcceptHTML},
			benchCase{size.name + "/annotated from a plan", annotated, html, benchAcceptHTML},
			benchCase{size.name + "/annotated at first sight", firstSight, html, benchAcceptHTML},
			benchCase{size.name + "/chunked plain", nil, benchOrigin(page, "text/html; charset=utf-8", true), benchAcceptHTML},
			benchCase{size.name + "/chunked annotated", annotated, benchOrigin(page, "text/html; charset=utf-8", true), benchAcceptHTML},
			benchCase{size.name + "/markdown warm", annotated, html, "text/markdown"},
		)
	}
	cases = append(cases, benchCase{"not html", annotated, css, "text/css,*/*;q=0.1"})
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			r := benchRequest("/pricing", tc.accept)
			w := &benchWriter{h: http.Header{}}
			serve := func() error {
				clear(w.h)
				w.status, w.n = 0, 0
				if tc.ar == nil {
					return tc.next.ServeHTTP(w, r)
				}
				return tc.ar.ServeHTTP(w, r, tc.next)
			}
			benchLoop(b, w, serve)
		})
	}
}

// benchLoop times serve, which answers into w, after three warm-up
// requests (the rewrite plan, the conversion cache: admitted the second
// time a page is converted) and a check that they answered 200 with a body.
func benchLoop(b *testing.B, w *benchWriter, serve func() error) {
	b.Helper()
	for range 3 {
		if err := serve(); err != nil {
			b.Fatal(err)
		}
	}
	if w.status != http.StatusOK || w.n == 0 {
		b.Fatalf("status %d, %d bytes", w.status, w.n)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := serve(); err != nil {
			b.Fatal(err)
		}
	}
}
