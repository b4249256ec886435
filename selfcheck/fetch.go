package selfcheck

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Accept values the scanner sends. Only Accept shapes the answers it asks
// for, so only Accept is recorded in receipts (RFC 9110 §12.5.1).
const (
	acceptBrowser  = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	acceptAny      = "*/*"
	acceptMarkdown = "text/markdown"
	// acceptAgentTie is Claude Code's Accept: text/markdown tied with
	// text/html. STANDARD.md §6 and §10 (corrected 2026-12-02) give a tie
	// to Markdown, so markdown_representation asks with it too.
	acceptAgentTie = "text/markdown, text/html, */*"
	acceptJSON     = "application/json"
)

// request is what a check asks the fetcher for. The key of the fetch cache
// is method + URL + the shaping headers.
type request struct {
	method string
	url    string
	accept string
	header map[string]string
}

// key is the memoisation key of r.
func (r request) key() string {
	var b strings.Builder
	b.WriteString(r.method + " " + r.url + "\x00" + r.accept)
	for _, k := range slices.Sorted(maps.Keys(r.header)) {
		b.WriteString("\x00" + k + ":" + r.header[k])
	}
	return b.String()
}

// failKind classifies why no usable response came back.
type failKind string

const (
	failNone        failKind = ""
	failRefused     failKind = "connection refused"
	failTimeout     failKind = "timeout"
	failRedirect    failKind = "redirect loop"
	failTooMany     failKind = "too many redirects"
	failOversize    failKind = "body over the size cap"
	failTLS         failKind = "TLS error"
	failOffOrigin   failKind = "left the target's origin"
	failNetwork     failKind = "network error"
	failBadResponse failKind = "malformed response"
)

// response is one fetched answer, shared between every check that asks for
// the same request.
type response struct {
	req      request
	finalURL string
	status   int
	header   http.Header
	body     []byte
	kind     failKind
	err      error
}

// failed reports whether no usable answer came back (a transport failure,
// a redirect that never lands, or an oversize body).
func (r *response) failed() bool { return r.kind != failNone }

// unreachable reports whether the answer cannot be judged: failed, or a 5xx
// (RFC 9110 §15.6: the server failed, the resource says nothing).
func (r *response) unreachable() bool { return r.failed() || r.status >= 500 }

// ok reports a 2xx answer with a usable body.
func (r *response) ok() bool { return !r.failed() && r.status >= 200 && r.status < 300 }

// errText describes the failure for a receipt.
func (r *response) errText() string {
	switch {
	case r.kind == failNone && r.status >= 500:
		return fmt.Sprintf("server error %d", r.status)
	case r.kind == failNone:
		return ""
	case r.err != nil:
		return string(r.kind) + ": " + redactErr(r.err)
	default:
		return string(r.kind)
	}
}

// mediaType returns the lower-cased media type of the Content-Type header
// without parameters.
func (r *response) mediaType() string {
	ct := r.header.Get("Content-Type")
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// redactErr renders an error with any URL in it redacted.
func redactErr(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Op + " " + redactURL(ue.URL) + ": " + redactText(ue.Err.Error())
	}
	return redactText(err.Error())
}

var (
	errRedirectLoop = errors.New("redirect loop")
	errTooMany      = errors.New("too many redirects")
	errOffOrigin    = errors.New("request leaves the target's origin")
)

// fetcher makes every HTTP request of a scan: bounded concurrency, per-request
// timeouts covering the body, a body cap, redirect limits with loop
// detection, and a memoising cache with single flight so that every response
// is fetched once and shared between checks.
type fetcher struct {
	opts   Options
	origin *url.URL
	client *http.Client
	sem    chan struct{}

	mu    sync.Mutex
	calls map[string]*call

	requests atomic.Int64
	own      *http.Transport // the default transport, when the scan made it
}

// close releases the idle connections of a transport the scan made itself.
func (f *fetcher) close() {
	if f.own != nil {
		f.own.CloseIdleConnections()
	}
}

// call is one in-flight or finished request of the cache.
type call struct {
	done chan struct{}
	resp *response
}

// newFetcher builds the fetcher of a scan of origin.
func newFetcher(origin *url.URL, opts Options) *fetcher {
	f := &fetcher{opts: opts, origin: origin, sem: make(chan struct{}, opts.Concurrency), calls: map[string]*call{}}
	f.client = &http.Client{Transport: f.transport(), CheckRedirect: f.checkRedirect}
	return f
}

// transport wraps the configured transport with the scanner's User-Agent,
// the extra headers and the same-origin guard.
func (f *fetcher) transport() http.RoundTripper {
	base := f.opts.Transport
	if base == nil {
		f.own = &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
			TLSHandshakeTimeout:   10 * time.Second,
			MaxIdleConnsPerHost:   f.opts.Concurrency,
			IdleConnTimeout:       30 * time.Second,
			ForceAttemptHTTP2:     true,
			ExpectContinueTimeout: time.Second,
		}
		base = f.own
	}
	return &scannerTransport{base: base, f: f}
}

// scannerTransport decorates every request the scan sends, including the
// MCP probe's.
type scannerTransport struct {
	base http.RoundTripper
	f    *fetcher
}

// RoundTrip implements http.RoundTripper.
func (t *scannerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.f.opts.SameOriginOnly && !sameOrigin(req.URL, t.f.origin) {
		return nil, errOffOrigin
	}
	req = req.Clone(req.Context())
	for k, vs := range t.f.opts.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	// RFC 9110 §10.1.5: the User-Agent names the scanner and where to learn more.
	req.Header.Set("User-Agent", UserAgent)
	t.f.requests.Add(1)
	return t.base.RoundTrip(req)
}

// checkRedirect limits redirects and detects loops (RFC 9110 §15.4: a client
// ought to detect and intervene in cyclical redirections).
func (f *fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if f.opts.SameOriginOnly && !sameOrigin(req.URL, f.origin) {
		return errOffOrigin
	}
	for _, v := range via {
		if v.URL.String() == req.URL.String() {
			return errRedirectLoop
		}
	}
	if len(via) >= f.opts.MaxRedirects {
		return errTooMany
	}
	return nil
}

// httpClient returns a client sharing the scanner's transport and redirect
// policy, for probes that speak their own protocol (MCP).
func (f *fetcher) httpClient() *http.Client {
	return &http.Client{Transport: f.client.Transport, CheckRedirect: f.checkRedirect, Timeout: f.opts.RequestTimeout}
}

// get fetches url with the given Accept header.
func (f *fetcher) get(ctx context.Context, u, accept string) *response {
	return f.do(ctx, request{method: http.MethodGet, url: u, accept: accept})
}

// do returns the response to req, fetching it at most once per scan.
func (f *fetcher) do(ctx context.Context, req request) *response {
	k := req.key()
	f.mu.Lock()
	if c, ok := f.calls[k]; ok {
		f.mu.Unlock()
		select {
		case <-c.done:
			return c.resp
		case <-ctx.Done():
			return &response{req: req, kind: failTimeout, err: ctx.Err()}
		}
	}
	c := &call{done: make(chan struct{})}
	f.calls[k] = c
	f.mu.Unlock()
	c.resp = f.fetch(ctx, req)
	close(c.done)
	return c.resp
}

// fetch performs one request under the concurrency bound and the
// per-request timeout, reading at most MaxBodyBytes.
func (f *fetcher) fetch(ctx context.Context, req request) *response {
	resp := &response{req: req}
	select {
	case f.sem <- struct{}{}:
		defer func() { <-f.sem }()
	case <-ctx.Done():
		resp.kind, resp.err = failTimeout, ctx.Err()
		return resp
	}
	ctx, cancel := context.WithTimeout(ctx, f.opts.RequestTimeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, req.method, req.url, nil)
	if err != nil {
		resp.kind, resp.err = failNetwork, err
		return resp
	}
	if req.accept != "" {
		hr.Header.Set("Accept", req.accept)
	}
	for k, v := range req.header {
		hr.Header.Set(k, v)
	}
	if f.opts.SameOriginOnly && !sameOrigin(hr.URL, f.origin) {
		resp.kind, resp.err = failOffOrigin, errOffOrigin
		return resp
	}
	res, err := f.client.Do(hr)
	if err != nil {
		resp.kind, resp.err = classify(err), err
		return resp
	}
	defer res.Body.Close()
	resp.status, resp.header, resp.finalURL = res.StatusCode, res.Header, res.Request.URL.String()
	// Read one byte past the cap to tell "exactly at the cap" from "over it".
	body, err := io.ReadAll(io.LimitReader(res.Body, f.opts.MaxBodyBytes+1))
	switch {
	case err != nil:
		resp.kind, resp.err = classify(err), err
	case int64(len(body)) > f.opts.MaxBodyBytes:
		resp.kind = failOversize
		resp.err = fmt.Errorf("body exceeds %d bytes", f.opts.MaxBodyBytes)
		// Keep only an excerpt, copied so the oversize buffer can be freed.
		resp.body = append([]byte(nil), body[:min(len(body), excerptLimit)]...)
	default:
		resp.body = body
	}
	return resp
}

// classify names the kind of a transport error.
func classify(err error) failKind {
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var recErr tls.RecordHeaderError
	var netErr net.Error
	switch {
	case errors.Is(err, errRedirectLoop):
		return failRedirect
	case errors.Is(err, errTooMany):
		return failTooMany
	case errors.Is(err, errOffOrigin):
		return failOffOrigin
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return failTimeout
	case errors.Is(err, syscall.ECONNREFUSED):
		return failRefused
	case errors.As(err, &certErr), errors.As(err, &unknownAuth), errors.As(err, &hostErr), errors.As(err, &recErr):
		return failTLS
	case errors.As(err, &netErr) && netErr.Timeout():
		return failTimeout
	case strings.Contains(err.Error(), "tls:"), strings.Contains(err.Error(), "x509:"):
		return failTLS
	case strings.Contains(err.Error(), "malformed HTTP"):
		return failBadResponse
	}
	return failNetwork
}

// sameOrigin compares scheme, host and port (RFC 6454 §5), with default
// ports made explicit.
func sameOrigin(a, b *url.URL) bool {
	return a != nil && b != nil && strings.EqualFold(a.Scheme, b.Scheme) && hostPort(a) == hostPort(b)
}

// hostPort returns the lower-cased host with its explicit or default port.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return strings.ToLower(u.Hostname()) + ":" + port
}

// onOrigin reports whether raw parses as an absolute URL on origin.
func onOrigin(raw string, origin *url.URL) bool {
	u, err := url.Parse(strings.TrimSpace(raw))
	return err == nil && u.IsAbs() && sameOrigin(u, origin)
}

// finalURLOrReq returns the URL the answer came from, as a base for
// resolving references in it.
func (r *response) finalURLOrReq() *url.URL {
	raw := r.finalURL
	if raw == "" {
		raw = r.req.url
	}
	u, _ := url.Parse(raw)
	return u
}

// redacted replaces every credential a receipt would otherwise record.
const redacted = "[REDACTED]"

// credentialHeaders are header names that always carry credentials.
var credentialHeaders = map[string]bool{
	"authorization":       true,
	"proxy-authorization": true,
	"cookie":              true,
	"set-cookie":          true,
	"x-api-key":           true,
	"api-key":             true,
	"apikey":              true,
	"x-auth-token":        true,
	"x-csrf-token":        true,
	"mcp-session-id":      true,
}

// credentialWords mark a header or query parameter as credential-like when
// they appear anywhere in its lower-cased name.
var credentialWords = []string{"token", "secret", "password", "passwd", "api-key", "api_key", "apikey", "signature", "credential", "session"}

// credentialParams are query parameters that carry credentials by name
// (OAuth 2.0 RFC 6749 §4.1.2 `code`, signed URLs' `sig`, `key`…).
var credentialParams = map[string]bool{
	"token": true, "access_token": true, "refresh_token": true, "id_token": true,
	"key": true, "api_key": true, "apikey": true, "sig": true, "signature": true,
	"code": true, "password": true, "pass": true, "pwd": true, "secret": true,
	"client_secret": true, "auth": true, "jwt": true, "x-amz-signature": true,
	"x-amz-credential": true, "x-goog-signature": true, "x-goog-credential": true,
}

// credentialNameWords mark a header as a credential when one of the words
// of its name (split at '-' and '_') is one of them: X-Auth-Token,
// X-Client-Secret, X-Session-Id. Whole words, not substrings, so that a
// header about credentials is not taken for one: X-Markdown-Tokens is a
// count, Access-Control-Allow-Credentials a boolean.
var credentialNameWords = map[string]bool{
	"token": true, "secret": true, "password": true, "passwd": true,
	"apikey": true, "signature": true, "credential": true, "session": true,
	"sessionid": true, "jwt": true, "csrf": true, "xsrf": true,
}

// metadataHeaders carry names or counts of credentials, never one: CORS
// lists header names (Fetch §3.2.3), WebSocket keys are per-handshake
// nonces (RFC 6455 §4.2.2), X-Markdown-Tokens counts tokens of text.
var metadataHeaders = map[string]bool{
	"access-control-allow-credentials": true,
	"access-control-allow-headers":     true,
	"access-control-expose-headers":    true,
	"access-control-request-headers":   true,
	"sec-websocket-key":                true,
	"sec-websocket-accept":             true,
	"x-markdown-tokens":                true,
}

// isCredentialHeader reports whether a header named name must be redacted;
// extra lists further names (Options.Redact).
func isCredentialHeader(name string, extra []string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, e := range extra {
		if strings.EqualFold(e, n) {
			return true
		}
	}
	if credentialHeaders[n] {
		return true
	}
	if metadataHeaders[n] {
		return false
	}
	words := strings.FieldsFunc(n, func(r rune) bool { return r == '-' || r == '_' })
	for i, w := range words {
		if credentialNameWords[w] || w == "key" && i > 0 && (words[i-1] == "api" || words[i-1] == "access" || words[i-1] == "secret") {
			return true
		}
	}
	return false
}

// isCredentialParam reports whether a query parameter must be redacted.
func isCredentialParam(name string) bool {
	n := strings.ToLower(name)
	if credentialParams[n] {
		return true
	}
	for _, w := range credentialWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// redactHeaderValue returns value, or the redaction marker when the header
// carries credentials.
func redactHeaderValue(name, value string, extra []string) string {
	if isCredentialHeader(name, extra) {
		return redacted
	}
	return redactText(value)
}

// redactURL removes user information and token-like query parameters from a
// URL. A string that does not parse is returned with its query dropped.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.IndexAny(raw, "?#"); i >= 0 {
			return raw[:i] + "?" + redacted
		}
		return raw
	}
	if u.User != nil {
		// RFC 3986 §3.2.1: user information may hold a password; never keep it.
		u.User = url.User("REDACTED")
	}
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			name, _, _ := strings.Cut(p, "=")
			if dec, err := url.QueryUnescape(name); err == nil {
				name = dec
			}
			if isCredentialParam(name) {
				parts[i] = url.QueryEscape(name) + "=" + redacted
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	return u.String()
}

// itoa is strconv.Itoa, named short for the renderers.
func itoa(i int) string { return strconv.Itoa(i) }

// Credentials inside free text (body excerpts, error messages): token-like
// query parameters, JSON members and bearer tokens.
var (
	textParamRe  = regexp.MustCompile(`(?i)\b([a-z0-9_.-]*(?:token|secret|password|passwd|signature|credential|session|api_key|apikey|api-key)[a-z0-9_.-]*|code|key|sig|pass|pwd|auth|jwt)=([^&\s"'<>]+)`)
	textJSONRe   = regexp.MustCompile(`(?i)("[a-z0-9_.-]*(?:token|secret|password|passwd|signature|credential|api_key|apikey|api-key)[a-z0-9_.-]*"\s*:\s*)"[^"]*"`)
	textBearerRe = regexp.MustCompile(`(?i)\b(bearer|basic)\s+[a-z0-9._~+/=-]+`)
)

// redactText removes credentials from free text.
func redactText(s string) string {
	s = textParamRe.ReplaceAllString(s, "$1="+redacted)
	s = textJSONRe.ReplaceAllString(s, `$1"`+redacted+`"`)
	return textBearerRe.ReplaceAllString(s, "$1 "+redacted)
}
