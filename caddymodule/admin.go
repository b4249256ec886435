package caddymodule

import (
	"errors"
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

func (a adminAPI) serve(w http.ResponseWriter, r *http.Request) error {
	return serveSelfScore(w, r, strings.TrimPrefix(r.URL.Path, "/agent-ready/"), true)
}

// serveSelfScore answers one self-score resource (sub is the path below
// /agent-ready/): the score's (package selfscan) or the traffic view's.
// POST /scan is only offered when allowScan is set. Errors are
// caddy.APIErrors carrying the status to answer with.
func serveSelfScore(w http.ResponseWriter, r *http.Request, sub string, allowScan bool) error {
	var err error
	if sub == "traffic.json" || sub == "agents" {
		err = serveTrafficView(w, r, sub)
	} else {
		res := selfscan.Resources{Sites: sitesSnapshot, Indexes: func() any { return indexStatuses() }, Nav: withViewsNav,
			AllowScan: allowScan, ScanTimeout: 2 * time.Minute}
		err = res.Serve(w, r, sub)
	}
	var herr selfscan.HTTPError
	if errors.As(err, &herr) {
		return caddy.APIError{HTTPStatus: herr.Status, Err: herr.Err}
	}
	return err
}

// Interface guards
var _ caddy.AdminRouter = (*adminAPI)(nil)
