// Package inproc carries HTTP requests to an http.Handler in this process
// instead of over a socket: the module's own requests to its site (the
// self-scan, discovery, the content index, llms-full.txt) run through every
// middleware of the site and the real origin, like a visitor's, without
// depending on how the listener is bound. It imports no Caddy.
package inproc

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"

	"github.com/agentready/caddy-agentready/internal/outsider"
)

// Transport is an http.RoundTripper that hands each request to Handler.
// Each request arrives as an anonymous visitor's from outside
// (outsider.Request: a documentation address, no credentials, no
// forwarded headers, the site's scheme and the Host its block answers), so
// a page that a stranger may not read is never crawled, indexed or listed.
// Its context carries nothing of the caller's but what Carry copies.
type Transport struct {
	// Handler serves the requests (in the Caddy module, the site's own
	// server). Required.
	Handler http.Handler
	// Site is how the requests visit the site: its scheme and the Host
	// its block answers (see outsider.Site).
	Site outsider.Site
	// Carry returns ctx, the handler's request context, with what of the
	// caller's request context (caller) the handler may read, and any
	// marks of the requests. Default: none.
	Carry func(caller, ctx context.Context) context.Context
}

// RoundTrip implements http.RoundTripper. The response body streams from
// the handler through a pipe; closing it early stops the handler's writes.
func (t Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL == nil || req.URL.Host == "" {
		return nil, errors.New("in-process request without a host")
	}
	ctx := context.WithValue(outsider.Detach(req.Context()), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if t.Carry != nil {
		ctx = t.Carry(req.Context(), ctx)
	}
	in := outsider.Request(ctx, req, t.Site)

	pr, pw := io.Pipe()
	rw := &pipeResponseWriter{header: make(http.Header), body: pw, ready: make(chan struct{})}
	go serve(t.Handler, rw, in, pw)

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

// serve runs h for in, and closes the pipe when it returns (with an error
// when it panicked).
func serve(h http.Handler, rw *pipeResponseWriter, in *http.Request, pw *io.PipeWriter) {
	defer func() {
		if v := recover(); v != nil && v != http.ErrAbortHandler {
			pw.CloseWithError(errors.New("handler panicked"))
		} else {
			pw.Close()
		}
		rw.markReady()
	}()
	h.ServeHTTP(rw, in)
	rw.WriteHeader(http.StatusOK) // no-op when already written
}

// Mark is an http.RoundTripper that sets K to true in the context of each
// request it carries: a mark that lives in the context only, so no client
// can set it.
type Mark[K comparable] struct {
	http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t Mark[K]) RoundTrip(req *http.Request) (*http.Response, error) {
	var k K
	return t.RoundTripper.RoundTrip(req.WithContext(context.WithValue(req.Context(), k, true)))
}

// Marked reports whether ctx holds the mark K (see Mark).
func Marked[K comparable](ctx context.Context) bool {
	var k K
	v, _ := ctx.Value(k).(bool)
	return v
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
	_ http.RoundTripper = Transport{}
	_ http.RoundTripper = Mark[struct{}]{}
	_ http.Flusher      = (*pipeResponseWriter)(nil)
)
