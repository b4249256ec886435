package caddymodule

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/internal/outsider"
)

// inProcessTransport is an http.RoundTripper that hands each request to an
// http.Handler in this process (Caddy's server for the site) instead of a
// socket. The self-scan, discovery, the content index and llms-full.txt
// use it, so their requests run through every middleware of the site and
// the real origin, like a visitor's, without depending on how the listener
// is bound. Each request arrives as an anonymous visitor's from outside
// (outsider.Request: a documentation address, no credentials, no forwarded
// headers, the site's scheme and the Host its block answers), so a page
// that a stranger may not read is never crawled, indexed or listed. Every
// request it carries is marked internal (see isInternal) in its context,
// which carries nothing else of the caller's.
type inProcessTransport struct {
	handler http.Handler
	site    outsider.Site
}

// RoundTrip implements http.RoundTripper. The response body streams from
// the handler through a pipe; closing it early stops the handler's writes.
func (t inProcessTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL == nil || req.URL.Host == "" {
		return nil, errors.New("in-process request without a host")
	}
	ctx := context.WithValue(outsider.Detach(req.Context()), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	ctx = context.WithValue(ctx, internalKey{}, true)
	if originOnly(req) {
		ctx = context.WithValue(ctx, originOnlyKey{}, true)
	}
	if isBackground(req.Context()) {
		ctx = context.WithValue(ctx, backgroundKey{}, true)
	}
	if pt := connect.PageTextFrom(req.Context()); pt != nil {
		ctx = connect.WithPageText(ctx, pt) // the index's Markdown request: see convertPage
	}
	in := outsider.Request(ctx, req, t.site)

	pr, pw := io.Pipe()
	rw := &pipeResponseWriter{header: make(http.Header), body: pw, ready: make(chan struct{})}
	go func() {
		defer func() {
			if v := recover(); v != nil && v != http.ErrAbortHandler {
				pw.CloseWithError(errors.New("handler panicked"))
			} else {
				pw.Close()
			}
			rw.markReady()
		}()
		t.handler.ServeHTTP(rw, in)
		rw.WriteHeader(http.StatusOK) // no-op when already written
	}()

	select {
	case <-rw.ready:
	case <-ctx.Done():
		pr.CloseWithError(ctx.Err())
		return nil, ctx.Err()
	}
	resp := &http.Response{
		Status:        strconv.Itoa(rw.status) + " " + http.StatusText(rw.status),
		StatusCode:    rw.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        rw.snapshot,
		Body:          pr,
		ContentLength: -1,
		Request:       req,
	}
	if cl, err := strconv.ParseInt(rw.snapshot.Get("Content-Length"), 10, 64); err == nil {
		resp.ContentLength = cl
	}
	if req.Method == http.MethodHead {
		pr.Close()
		resp.Body = http.NoBody
	}
	return resp, nil
}

// originOnlyKey marks, in a request's context, a request of the site's
// discovery (of its pages, or of its sitemap): agent_ready hands it to the
// next handler without answering it from its generated documents, so
// discovery reads the origin's own robots.txt and sitemaps. It lives in the context only: no client can set
// it.
type originOnlyKey struct{}

// originOnly reports whether r is a request of the site's discovery.
func originOnly(r *http.Request) bool {
	v, _ := r.Context().Value(originOnlyKey{}).(bool)
	return v
}

// originOnlyTransport marks each request it carries as discovery's (see
// originOnly).
type originOnlyTransport struct {
	http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t originOnlyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return t.RoundTripper.RoundTrip(req.WithContext(context.WithValue(req.Context(), originOnlyKey{}, true)))
}

// backgroundKey marks, in a request's context, a request of background
// work that no client waits for: the content index's and llms-full.txt's
// page fetches. Their conversions get backgroundConvertTimeout instead of
// convert_timeout (see convertPage). Context only: no client can set it.
type backgroundKey struct{}

// backgroundConvertTimeout bounds the conversion of a page fetched by
// background work: the fetch's own timeout (connect's FetchTimeout).
const backgroundConvertTimeout = 30 * time.Second

// isBackground reports whether ctx is a background request's.
func isBackground(ctx context.Context) bool {
	v, _ := ctx.Value(backgroundKey{}).(bool)
	return v
}

// backgroundTransport marks each request it carries as background work
// (see backgroundKey).
type backgroundTransport struct {
	http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t backgroundTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return t.RoundTripper.RoundTrip(req.WithContext(context.WithValue(req.Context(), backgroundKey{}, true)))
}

// pipeResponseWriter is the handler's side of an in-process exchange: the
// header is captured when it is written, the body goes into a pipe.
type pipeResponseWriter struct {
	header   http.Header
	snapshot http.Header
	body     *io.PipeWriter
	status   int
	once     sync.Once
	ready    chan struct{}
}

func (w *pipeResponseWriter) Header() http.Header { return w.header }

func (w *pipeResponseWriter) WriteHeader(status int) {
	if w.status != 0 || status < 200 {
		// 1xx are informational: the final status follows (RFC 9110 §15.2).
		return
	}
	w.status = status
	w.snapshot = w.header.Clone()
	w.markReady()
}

func (w *pipeResponseWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}

// Flush is a no-op: every Write already reaches the reader.
func (w *pipeResponseWriter) Flush() {}

func (w *pipeResponseWriter) markReady() {
	w.once.Do(func() {
		if w.status == 0 {
			w.status = http.StatusOK
			w.snapshot = w.header.Clone()
		}
		close(w.ready)
	})
}

// Interface guards
var (
	_ http.RoundTripper = inProcessTransport{}
	_ http.RoundTripper = originOnlyTransport{}
	_ http.RoundTripper = backgroundTransport{}
	_ http.Flusher      = (*pipeResponseWriter)(nil)
)
