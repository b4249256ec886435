package caddymodule

import (
	"errors"
	"net/http"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/traffic"
	"github.com/agentready/caddy-agentready/traffic/sites"
)

// The request path of the traffic view: classify the client (no
// allocation for a browser), check its claim without waiting (traffic's
// verifier), enforce the policy when asked, and after the response count
// what went out. The classification, the verification, the decision and
// the counting are packages traffic's and traffic/sites'; this file only
// carries them through Caddy.

// trafficVar is the request variable (Caddy's per-request vars) through
// which the negotiation observer reports the form and tokens of a response
// to the sites.Writer of its request.
const trafficVar = "agent_ready.traffic"

// requestTraffic is the sites.Writer of a request being counted, or nil.
func requestTraffic(r *http.Request) *sites.Writer {
	tw, _ := caddyhttp.GetVar(r.Context(), trafficVar).(*sites.Writer)
	return tw
}

// serveTraffic serves a request that is counted or subject to the crawler
// policy.
func (ar *AgentReady) serveTraffic(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	t := ar.traffic
	if negotiate.SuffixRequest(r) {
		// The page a Markdown suffix URL names, back from the top of the
		// route chain: the client's request was classified and is counted;
		// this one only reports its form to it.
		if tw := sites.Outer(w); tw != nil {
			caddyhttp.SetVar(r.Context(), trafficVar, tw)
		}
		return ar.serve(w, r, next)
	}
	c := t.Classify(r.Header)
	v := traffic.Unverified
	if c.Agent != nil {
		v = t.Site.Verifier().Verify(clientAddr(r), c)
	}
	if d, block := t.Refuse(c, v, r.URL.Path); block {
		n := t.Block(w, r, c, d)
		t.Record(traffic.Event{Client: c, Verification: v, Status: http.StatusForbidden, Path: clientPath(r), Bytes: n, Blocked: true})
		return nil
	}
	if !t.Counting {
		return ar.serve(w, r, next)
	}
	tw := sites.NewWriter(w)
	// The request's variables, looked up once (each lookup walks the
	// context): the observer and the document server find tw there.
	vars, _ := r.Context().Value(caddyhttp.VarsCtxKey).(map[string]any)
	if vars != nil {
		vars[trafficVar] = tw
	}
	if ar.connect != nil && ar.connect.Handles(r.URL.Path) {
		tw.Form = traffic.FormMCP
		if r.URL.Path == t.AskPath {
			tw.Form = traffic.FormAsk
		}
	}
	err := ar.serve(tw, r, next)
	if vars != nil {
		delete(vars, trafficVar)
	}
	status := tw.Status
	if status == 0 {
		status = errorStatus(err)
	}
	t.Record(traffic.Event{Client: c, Verification: v, Form: tw.Form, Status: status, Path: clientPath(r),
		Bytes: tw.Bytes, Tokens: tw.Tokens, HTMLBytes: tw.HTMLBytes})
	tw.Release()
	return err
}

// clientPath is the path of r as the client asked, before any rewrite.
func clientPath(r *http.Request) string {
	if u := clientURL(r); u != nil {
		return u.Path
	}
	return r.URL.Path
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
