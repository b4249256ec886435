package caddymodule

import (
	"fmt"
	"net/http"

	"github.com/agentready/caddy-agentready/selfscan"
	"github.com/agentready/caddy-agentready/traffic/view"
)

// serveTrafficView answers GET /agent-ready/traffic.json (the site's
// traffic.Snapshot) and GET /agent-ready/agents (the Agents view, beside
// the score, rendered by traffic/view). With several sites, ?site= picks
// one.
func serveTrafficView(w http.ResponseWriter, r *http.Request, sub string) error {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return selfscan.HTTPError{Status: http.StatusMethodNotAllowed, Err: fmt.Errorf("method %s not allowed", r.Method)}
	}
	site, others, err := trafficSites.Pick(r.URL.Query().Get("site"))
	if err != nil {
		return selfscan.HTTPError{Status: http.StatusNotFound, Err: err}
	}
	snap := site.View(r.Context())
	w.Header().Set("Cache-Control", "no-store")
	if sub == "traffic.json" {
		return selfscan.WriteJSON(w, http.StatusOK, snap)
	}
	return selfscan.WriteHTML(w, view.Render(site.Key(), snap, others))
}

// withViewsNav puts the link to the Agents view at the top of the score's
// page, when some site counts traffic.
func withViewsNav(page []byte) []byte {
	if len(trafficSites.List()) == 0 {
		return page
	}
	return view.WithNav(page)
}
