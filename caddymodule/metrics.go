package caddymodule

import (
	"net/http"

	"github.com/agentready/caddy-agentready/internal/telemetry"
	"github.com/agentready/caddy-agentready/traffic"
)

// countDocument counts a generated document served, leaving the
// self-scan's own requests out.
func countDocument(r *http.Request, path string) {
	if !isInternal(r) {
		telemetry.Document(path)
		if tw := requestTraffic(r); tw != nil {
			tw.Form = traffic.FormDiscovery
		}
	}
}
