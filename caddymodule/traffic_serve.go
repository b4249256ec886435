package caddymodule

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/agentready/caddy-agentready/internal/telemetry"
	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/traffic"
)

// The request path of the traffic view: classify the client (no
// allocation for a browser), check its claim without waiting (traffic's
// verifier), enforce the policy when asked, and after the response count
// what went out. The classification, the verification and the decision are
// package traffic's; this file only carries them through Caddy.

// trafficVar is the request variable (Caddy's per-request vars) through
// which the negotiation observer reports the form and tokens of a response
// to the trafficWriter of its request.
const trafficVar = "agent_ready.traffic"

// trafficWriter sits in front of the client's ResponseWriter and keeps
// what the traffic counts need: the status, the body bytes, the form (from
// the response's Content-Type: text/html or text/markdown; a generated
// document, the MCP endpoint and /ask are set by who serves them) and,
// from the observer, the Markdown's tokens and source size. It is pooled:
// counting a request allocates nothing of its own.
type trafficWriter struct {
	http.ResponseWriter
	status    int
	bytes     int64
	form      traffic.Form
	tokens    int64
	htmlBytes int64
}

var trafficWriterPool = sync.Pool{New: func() any { return new(trafficWriter) }}

// WriteHeader keeps the first final status and the form it is sent as.
func (tw *trafficWriter) WriteHeader(code int) {
	if tw.status == 0 && code >= 200 {
		tw.final(code)
	}
	tw.ResponseWriter.WriteHeader(code)
}

// final records the final status and, unless known, the form from the
// response's media type.
func (tw *trafficWriter) final(code int) {
	tw.status = code
	if tw.form != traffic.FormOther {
		return
	}
	if ct := tw.ResponseWriter.Header()["Content-Type"]; len(ct) > 0 {
		switch {
		case hasPrefixFold(ct[0], "text/html"):
			tw.form = traffic.FormHTML
		case hasPrefixFold(ct[0], "text/markdown"):
			tw.form = traffic.FormMarkdown
		}
	}
}

// hasPrefixFold reports whether s begins with the lower-case prefix, ASCII
// case ignored (media types are case-insensitive, RFC 9110 §8.3.1).
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// Write counts the body bytes.
func (tw *trafficWriter) Write(p []byte) (int, error) {
	if tw.status == 0 {
		tw.final(http.StatusOK)
	}
	n, err := tw.ResponseWriter.Write(p)
	tw.bytes += int64(n)
	return n, err
}

// ReadFrom counts the bytes copied (file_server's sendfile path).
func (tw *trafficWriter) ReadFrom(r io.Reader) (int64, error) {
	if tw.status == 0 {
		tw.final(http.StatusOK)
	}
	var n int64
	var err error
	if rf, ok := tw.ResponseWriter.(io.ReaderFrom); ok {
		n, err = rf.ReadFrom(r)
	} else {
		n, err = io.Copy(tw.ResponseWriter, r)
	}
	tw.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the client's writer (Flush,
// Hijack, deadlines).
func (tw *trafficWriter) Unwrap() http.ResponseWriter { return tw.ResponseWriter }

// requestTraffic is the trafficWriter of a request being counted, or nil.
func requestTraffic(r *http.Request) *trafficWriter {
	tw, _ := caddyhttp.GetVar(r.Context(), trafficVar).(*trafficWriter)
	return tw
}

// outerTrafficWriter finds, below w, the trafficWriter of the client's
// request that a Markdown suffix URL re-entered the server with.
func outerTrafficWriter(w http.ResponseWriter) *trafficWriter {
	for range 16 {
		if tw, ok := w.(*trafficWriter); ok {
			return tw
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return nil
		}
		w = u.Unwrap()
	}
	return nil
}

// serveTraffic serves a request that is counted or subject to the crawler
// policy.
func (ar *AgentReady) serveTraffic(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	t := ar.traffic
	if negotiate.SuffixRequest(r) {
		// The page a Markdown suffix URL names, back from the top of the
		// route chain: the client's request was classified and is counted;
		// this one only reports its form to it.
		if tw := outerTrafficWriter(w); tw != nil {
			caddyhttp.SetVar(r.Context(), trafficVar, tw)
		}
		return ar.serve(w, r, next)
	}
	// The header map is read directly: the keys are canonical already, and
	// Header.Get would canonicalize them again (450 instructions).
	var ua, sig string
	if v := r.Header["User-Agent"]; len(v) > 0 {
		ua = v[0]
	}
	if v := r.Header["Signature-Agent"]; len(v) > 0 {
		sig = v[0]
	}
	c := t.classifier.ClassifySigned(ua, sig)
	v := traffic.Unverified
	if c.Agent != nil {
		v = t.site.verifier.Verify(clientAddr(r), c)
	}
	if t.policy.Enforce != traffic.EnforceOff {
		if d := traffic.Decide(t.policy, c, v); d.Block && r.URL.Path != "/robots.txt" {
			n := t.block(w, r, c, d)
			t.record(r, c, v, traffic.FormOther, http.StatusForbidden, n, 0, 0, true)
			return nil
		}
	}
	if !t.counting {
		return ar.serve(w, r, next)
	}
	tw := trafficWriterPool.Get().(*trafficWriter)
	*tw = trafficWriter{ResponseWriter: w}
	// The request's variables, looked up once (each lookup walks the
	// context): the observer and the document server find tw there.
	vars, _ := r.Context().Value(caddyhttp.VarsCtxKey).(map[string]any)
	if vars != nil {
		vars[trafficVar] = tw
	}
	if ar.connect != nil && ar.connect.Handles(r.URL.Path) {
		tw.form = traffic.FormMCP
		if r.URL.Path == t.askPath {
			tw.form = traffic.FormAsk
		}
	}
	caddyhttp.SetVar(r.Context(), trafficVar, tw)
	err := ar.serve(tw, r, next)
	if vars != nil {
		delete(vars, trafficVar)
	}
	status := tw.status
	if status == 0 {
		status = errorStatus(err)
	}
	t.record(r, c, v, tw.form, status, tw.bytes, tw.tokens, tw.htmlBytes, false)
	*tw = trafficWriter{}
	trafficWriterPool.Put(tw)
	return err
}

// errorStatus is the status an error of the next handler will be answered
// with.
func errorStatus(err error) int {
	if err == nil {
		return 0
	}
	var herr caddyhttp.HandlerError
	if errors.As(err, &herr) && herr.StatusCode != 0 {
		return herr.StatusCode
	}
	return http.StatusInternalServerError
}

// record counts one answered request: in the site's store (no address, no
// query) and in the agent_requests_total metric (a refused one also in
// agent_requests_blocked_total).
func (t *siteTraffic) record(r *http.Request, c traffic.Classification, v traffic.Verification, form traffic.Form,
	status int, bytes, tokens, htmlBytes int64, blocked bool) {
	if !t.counting {
		return
	}
	path := r.URL.Path
	if u := clientURL(r); u != nil {
		path = u.Path // as the client asked, before any rewrite
	}
	t.site.store.Record(traffic.Event{Client: c, Verification: v, Form: form, Status: status, Path: path,
		Bytes: bytes, Tokens: tokens, HTMLBytes: htmlBytes, Blocked: blocked})
	telemetry.Agents.Count(c, form, v, blocked)
}

// block answers 403 to a request the crawler policy refuses: the
// Content-Signal of the policy and a short plain-text body saying why,
// where the policy is and whom to contact. It returns the body's size.
func (t *siteTraffic) block(w http.ResponseWriter, r *http.Request, c traffic.Classification, d traffic.Decision) int64 {
	policy := t.policyURL
	if policy == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		policy = scheme + "://" + r.Host + "/robots.txt"
	}
	body := traffic.BlockBody(c, d, policy, t.contact)
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "no-store")
	if t.signal != "" {
		h.Set("Content-Signal", t.signal)
	}
	w.WriteHeader(http.StatusForbidden)
	if r.Method == http.MethodHead {
		return 0
	}
	n, _ := io.WriteString(w, body)
	return int64(n)
}
