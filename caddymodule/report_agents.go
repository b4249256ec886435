package caddymodule

import (
	"fmt"
	"net/http"

	"github.com/caddyserver/caddy/v2"

	"github.com/agentready/caddy-agentready/traffic/view"
)

// serveTrafficView answers GET /agent-ready/traffic.json (the site's
// traffic.Snapshot) and GET /agent-ready/agents (the Agents view, beside
// the score). With several sites, ?site= picks one.
func serveTrafficView(w http.ResponseWriter, r *http.Request, sub string) error {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return caddy.APIError{HTTPStatus: http.StatusMethodNotAllowed, Err: fmt.Errorf("method %s not allowed", r.Method)}
	}
	sites := trafficSitesSnapshot()
	var site *trafficSite
	if key := r.URL.Query().Get("site"); key != "" {
		for _, s := range sites {
			if s.key == key {
				site = s
			}
		}
		if site == nil {
			return caddy.APIError{HTTPStatus: http.StatusNotFound, Err: fmt.Errorf("no site %q counts traffic", key)}
		}
	} else if len(sites) > 0 {
		site = sites[0]
	}
	if site == nil {
		return caddy.APIError{HTTPStatus: http.StatusNotFound, Err: fmt.Errorf("no site counts traffic in the running config")}
	}
	snap := site.snapshot(r.Context())
	st := site.verifier.Stats()
	snap.Verifier = &st
	w.Header().Set("Cache-Control", "no-store")
	if sub == "traffic.json" {
		return writeJSON(w, http.StatusOK, snap)
	}
	var others []string
	for _, s := range sites {
		if s != site {
			others = append(others, s.key)
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
	_, err := w.Write(view.Render(site.key, snap, others))
	return err
}

// withViewsNav puts the link to the Agents view at the top of the score's
// page, when some site counts traffic.
func withViewsNav(page []byte) []byte {
	if len(trafficSitesSnapshot()) == 0 {
		return page
	}
	return view.WithNav(page)
}
