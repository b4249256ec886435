package negotiate

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/textproto"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// testMarkdown is what fakeConvert answers.
const testMarkdown = "# Pricing\n\nPlans and prices.\n"

const testPage = `<!DOCTYPE html>
<html><head><title>Pricing</title></head>
<body><main><h1>Pricing</h1><p>Plans and prices.</p></main></body></html>
`

// convertCall records what a fake converter was given.
type convertCall struct {
	html string
	url  string
}

// fakeConverter answers a fixed Markdown and records its calls.
type fakeConverter struct {
	mu    sync.Mutex
	calls []convertCall
	fn    func(html []byte, p Page) (*Converted, error)
}

func (f *fakeConverter) convert(html []byte, p Page) (*Converted, error) {
	f.mu.Lock()
	f.calls = append(f.calls, convertCall{html: string(html), url: p.URL.String()})
	f.mu.Unlock()
	if f.fn != nil {
		return f.fn(html, p)
	}
	return &Converted{Markdown: []byte(testMarkdown), Tokens: 7}, nil
}

func (f *fakeConverter) called() []convertCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// recorder is an Observer that keeps the events as strings.
type recorder struct {
	mu     sync.Mutex
	events []string
}

func (o *recorder) add(e string) {
	o.mu.Lock()
	o.events = append(o.events, e)
	o.mu.Unlock()
}
func (o *recorder) Served(_ *http.Request, form string) { o.add("served:" + form) }
func (o *recorder) Converted(_ *http.Request, _ time.Duration, in, out, tokens int) {
	o.add(fmt.Sprintf("converted:%d:%d:%d", in, out, tokens))
}
func (o *recorder) FailOpen(_ *http.Request, reason string, err error) {
	if err == nil {
		reason += ":nil-error"
	}
	o.add("failopen:" + reason)
}
func (o *recorder) Rewrote(_ *http.Request, fromPlan bool) {
	o.add(fmt.Sprintf("rewrote:plan=%v", fromPlan))
}
func (o *recorder) list() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.events)
}

// stack is an origin server, the handler in front of it (a second server,
// reaching the origin through proxyNext unless next is given) and the
// client's view of the exchange.
type stack struct {
	t         *testing.T
	origin    *httptest.Server
	front     *httptest.Server
	handler   *Handler
	conv      *fakeConverter
	obs       *recorder
	originReq chan *http.Request
	nextErr   chan error
}

type stackConfig struct {
	opts   Options
	inject func(r *http.Request) *Injection
	conv   func(html []byte, p Page) (*Converted, error)
	origin http.HandlerFunc // serves behind proxyNext
	next   Next             // replaces the proxy and origin when set
	public string           // Handler.Origin
}

func newStack(t *testing.T, cfg stackConfig) *stack {
	t.Helper()
	s := &stack{t: t, conv: &fakeConverter{fn: cfg.conv}, obs: &recorder{},
		originReq: make(chan *http.Request, 4), nextErr: make(chan error, 4)}
	s.handler = &Handler{Options: cfg.opts, Convert: s.conv.convert, Inject: cfg.inject, Observer: s.obs, Origin: cfg.public}
	if err := s.handler.Provision(); err != nil {
		t.Fatalf("Provision: %v", err)
	}
	next := cfg.next
	if next == nil {
		s.origin = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.originReq <- r.Clone(context.Background())
			cfg.origin(w, r)
		}))
		t.Cleanup(s.origin.Close)
		next = proxyNext(s.origin.URL)
	}
	s.front = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		err := s.handler.ServeHTTP(w, r, next)
		s.nextErr <- err
		if err != nil {
			// What Caddy's default error handling does with an error (after
			// a streamed response, net/http logs a superfluous WriteHeader).
			http.Error(w, "error handler: "+err.Error(), http.StatusBadGateway)
		}
	}))
	s.front.Config.ErrorLog = log.New(io.Discard, "", 0)
	s.front.Start()
	t.Cleanup(s.front.Close)
	return s
}

// lastOriginRequest returns the request the origin saw.
func (s *stack) lastOriginRequest() *http.Request {
	s.t.Helper()
	select {
	case r := <-s.originReq:
		return r
	case <-time.After(5 * time.Second):
		s.t.Fatal("the origin saw no request")
		return nil
	}
}

// result is the client's view of a response.
type result struct {
	status  int
	header  http.Header
	body    []byte
	bodyErr error
	length  int64
	info    []int // 1xx statuses received
}

// do sends a request to the handler with a real client.
func (s *stack) do(method, path string, header http.Header) *result {
	s.t.Helper()
	res := &result{}
	trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, _ textproto.MIMEHeader) error {
		res.info = append(res.info, code)
		return nil
	}}
	ctx, cancel := context.WithTimeout(httptrace.WithClientTrace(context.Background(), trace), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, s.front.URL+path, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := testClient.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	res.status, res.header, res.length = resp.StatusCode, resp.Header, resp.ContentLength
	res.body, res.bodyErr = io.ReadAll(resp.Body)
	return res
}

// testClient neither decompresses nor follows redirects: it sees the bytes.
var testClient = &http.Client{
	Transport: &http.Transport{DisableCompression: true, TLSClientConfig: &tls.Config{}},
	CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	},
}

// hopHeaders are not forwarded by a proxy (RFC 9110 §7.6.1).
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// proxyNext is a small reverse proxy in the shape of Caddy's: it forwards
// 1xx responses, flushes after every chunk and returns copy errors.
func proxyNext(origin string) Next {
	transport := &http.Transport{DisableCompression: true}
	return func(w http.ResponseWriter, r *http.Request) error {
		trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
			for k, v := range h {
				w.Header()[k] = v
			}
			w.WriteHeader(code)
			return nil
		}}
		u := origin + r.URL.EscapedPath()
		if r.URL.RawQuery != "" {
			u += "?" + r.URL.RawQuery
		}
		req, err := http.NewRequestWithContext(httptrace.WithClientTrace(r.Context(), trace), r.Method, u, nil)
		if err != nil {
			return err
		}
		req.Header = r.Header.Clone()
		for _, h := range hopHeaders {
			req.Header.Del(h)
		}
		resp, err := transport.RoundTrip(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		for _, h := range hopHeaders {
			resp.Header.Del(h)
		}
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		rc := http.NewResponseController(w)
		buf := make([]byte, 8<<10)
		for {
			n, err := resp.Body.Read(buf)
			if n > 0 {
				if _, werr := w.Write(buf[:n]); werr != nil {
					return werr
				}
				_ = rc.Flush()
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("reading origin body: %w", err)
			}
		}
	}
}

// htmlOrigin serves body as an HTML page with the given extra headers.
func htmlOrigin(body string, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Add(header[i], header[i+1])
		}
		if w.Header().Get("Content-Length") == "" && w.Header().Get("Content-Encoding") == "" {
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		}
		if r.Method != http.MethodHead {
			io.WriteString(w, body)
		}
	}
}

// Checks on a result.

func (res *result) wantStatus(t *testing.T, want int) {
	t.Helper()
	if res.status != want {
		t.Errorf("status = %d, want %d (body %.200q)", res.status, want, res.body)
	}
}

func (res *result) wantHeader(t *testing.T, name, want string) {
	t.Helper()
	if got := strings.Join(res.header.Values(name), ", "); got != want {
		t.Errorf("%s = %q, want %q", name, got, want)
	}
}

func (res *result) wantVary(t *testing.T, want bool) {
	t.Helper()
	if got := hasToken(res.header.Values("Vary"), "Accept"); got != want {
		t.Errorf("Vary = %q, naming Accept: %v, want %v", res.header.Values("Vary"), got, want)
	}
}

func (res *result) wantBody(t *testing.T, want string) {
	t.Helper()
	if res.bodyErr != nil {
		t.Errorf("reading body: %v", res.bodyErr)
	}
	if string(res.body) != want {
		t.Errorf("body = %.300q (%d bytes), want %.300q (%d bytes)", res.body, len(res.body), want, len(want))
	}
}

// discoveryLinks are the three Link values for /pricing with the defaults.
var discoveryLinks = []string{
	`</llms.txt>; rel="describedby"; type="text/plain"`,
	`</agents.json>; rel="alternate"; type="application/json"`,
	`</pricing/md>; rel="alternate"; type="text/markdown"`,
}

func (res *result) wantLinks(t *testing.T, want ...string) {
	t.Helper()
	got := res.header.Values("Link")
	if !slices.Equal(got, want) {
		t.Errorf("Link = %q, want %q", got, want)
	}
}

func wantEvents(t *testing.T, s *stack, want ...string) {
	t.Helper()
	got := s.obs.list()
	if !slices.Equal(got, want) {
		t.Errorf("observer events = %q, want %q", got, want)
	}
}

func wantConverted(t *testing.T, s *stack, n int) []convertCall {
	t.Helper()
	calls := s.conv.called()
	if len(calls) != n {
		t.Errorf("converter called %d times, want %d", len(calls), n)
	}
	return calls
}

func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

// gzipString compresses s; usable in a package-level table.
func gzipString(s string) string {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(s))
	zw.Close()
	return buf.String()
}
