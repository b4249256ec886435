package caddymodule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"

	"github.com/agentready/caddy-agentready/selfscan"
)

func init() {
	caddy.RegisterModule(adminAPI{})
}

// adminAPI serves the self-score on Caddy's admin endpoint (by default
// localhost:2019, which only the machine itself can reach):
//
//	GET  /agent-ready/             the HTML report
//	GET  /agent-ready/report.json  the JSON report
//	GET  /agent-ready/report.md    the Markdown report
//	GET  /agent-ready/status       every site's state (score, running, time)
//	                               and content index (state, pages, refreshes)
//	POST /agent-ready/scan         scan again now
//	GET  /agent-ready/agents       the traffic view: who reads the site
//	GET  /agent-ready/traffic.json its counts (traffic.Snapshot)
//
// With several sites, `?site=<key>` picks one (keys are listed by
// /agent-ready/status); without it the first site is shown.
type adminAPI struct{}

// CaddyModule returns the Caddy module information.
func (adminAPI) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{
		ID:  "admin.api.agent_ready",
		New: func() caddy.Module { return new(adminAPI) },
	}
}

// Routes returns the admin routes of the self-score.
func (a adminAPI) Routes() []caddy.AdminRoute {
	return []caddy.AdminRoute{
		{Pattern: "/agent-ready/", Handler: caddy.AdminHandlerFunc(a.serve)},
	}
}

// adminScanTimeout bounds how long POST /agent-ready/scan waits for the scan
// it started; the scan itself goes on within its own timeout.
const adminScanTimeout = 2 * time.Minute

func (a adminAPI) serve(w http.ResponseWriter, r *http.Request) error {
	return serveSelfScore(w, r, strings.TrimPrefix(r.URL.Path, "/agent-ready/"), true)
}

// serveSelfScore answers one self-score resource (sub is the path below
// /agent-ready/). POST /scan is only offered when allowScan is set.
// Errors are caddy.APIErrors carrying the status to answer with.
func serveSelfScore(w http.ResponseWriter, r *http.Request, sub string, allowScan bool) error {
	if sub == "scan" && !allowScan {
		return caddy.APIError{HTTPStatus: http.StatusNotFound, Err: fmt.Errorf("no such resource: %s", r.URL.Path)}
	}
	if sub == "traffic.json" || sub == "agents" {
		return serveTrafficView(w, r, sub)
	}
	switch sub {
	case "", "report.json", "report.md", "status":
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			return caddy.APIError{HTTPStatus: http.StatusMethodNotAllowed, Err: fmt.Errorf("method %s not allowed", r.Method)}
		}
	case "scan":
		if r.Method != http.MethodPost {
			return caddy.APIError{HTTPStatus: http.StatusMethodNotAllowed, Err: fmt.Errorf("method %s not allowed", r.Method)}
		}
	default:
		return caddy.APIError{HTTPStatus: http.StatusNotFound, Err: fmt.Errorf("no such resource: %s", r.URL.Path)}
	}

	if sub == "status" {
		var all []status
		for _, s := range sitesSnapshot() {
			all = append(all, s.Status())
		}
		return writeJSON(w, http.StatusOK, map[string]any{"sites": all, "content_indexes": indexStatuses()})
	}

	site, err := pickSite(r)
	if err != nil {
		return err
	}
	if sub == "scan" {
		ctx, cancel := context.WithTimeout(r.Context(), adminScanTimeout)
		defer cancel()
		err := site.Run(selfscan.Now(ctx))
		if errors.Is(err, selfscan.ErrRunning) {
			return caddy.APIError{HTTPStatus: http.StatusConflict, Err: err}
		}
		if err != nil {
			return caddy.APIError{HTTPStatus: http.StatusBadGateway, Err: fmt.Errorf("scan failed: %v", err)}
		}
		return writeJSON(w, http.StatusOK, site.Status())
	}

	rendered := site.Rendered()
	st := site.Status()
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Agent-Ready-Scan-Running", fmt.Sprint(st.Running))
	if !st.Finished.IsZero() {
		w.Header().Set("Last-Modified", st.Finished.UTC().Format(http.TimeFormat))
	}
	if rendered == nil {
		// No complete scan yet: say so plainly, in the asked-for form.
		return writePending(w, sub, st)
	}
	switch sub {
	case "":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
		_, err = w.Write(withViewsNav(rendered["html"]))
	case "report.json":
		w.Header().Set("Content-Type", "application/json")
		_, err = w.Write(rendered["json"])
	case "report.md":
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		_, err = w.Write(rendered["md"])
	}
	return err
}

// pickSite finds the site named by ?site=, or the first one.
func pickSite(r *http.Request) (*selfscan.Site, error) {
	if key := r.URL.Query().Get("site"); key != "" {
		if s := lookupSite(key); s != nil {
			return s, nil
		}
		return nil, caddy.APIError{HTTPStatus: http.StatusNotFound, Err: fmt.Errorf("no site %q uses agent_ready", key)}
	}
	all := sitesSnapshot()
	if len(all) == 0 {
		return nil, caddy.APIError{HTTPStatus: http.StatusNotFound, Err: errors.New("no site uses agent_ready with self_scan in the running config")}
	}
	return all[0], nil
}

func writePending(w http.ResponseWriter, sub string, st status) error {
	msg := st.PendingMessage()
	switch sub {
	case "report.json":
		return writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": st, "message": msg})
	case "report.md":
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, err := fmt.Fprintf(w, "# Agent readiness\n\n%s\n", msg)
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Retry-After", "5")
	w.WriteHeader(http.StatusServiceUnavailable)
	_, err := fmt.Fprintf(w, "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Agent readiness</title><p>%s</p></html>\n", html.EscapeString(msg))
	return err
}

func writeJSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Interface guards
var _ caddy.AdminRouter = (*adminAPI)(nil)
