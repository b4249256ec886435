package caddymodule

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/internal/telemetry"
	"github.com/agentready/caddy-agentready/traffic"
)

// metrics names the collectors of package telemetry (Caddy's registry
// gets them in Provision) as the glue and its tests call them.
var metrics = struct {
	responses, failOpen, cache, rewrites *prometheus.CounterVec
	conversions                          prometheus.Counter
	index                                indexes
}{telemetry.M.Responses, telemetry.M.FailOpen, telemetry.M.Cache, telemetry.M.Rewrites, telemetry.M.Conversions, indexes{}}

// trafficMetrics names agent_requests_total and
// agent_requests_blocked_total.
var trafficMetrics = struct{ requests, blocked *prometheus.CounterVec }{telemetry.Agents.Requests, telemetry.Agents.Blocked}

// indexes reports the content indexes of the built-in MCP endpoints.
type indexes struct{}

func (indexes) add(site string, s *connect.Server)    { telemetry.M.Indexes.Add(site, s) }
func (indexes) remove(site string, s *connect.Server) { telemetry.M.Indexes.Remove(site, s) }

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

func cacheLookup(hit bool) { telemetry.CacheLookup(hit) }
