package caddymodule

// The names the tests knew before the glue's logic moved out of
// caddymodule (to internal/telemetry and pages), kept for the tests only.

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/agentready/caddy-agentready/discover"
	"github.com/agentready/caddy-agentready/internal/telemetry"
)

// metrics names the collectors of package telemetry as the tests read
// them (Caddy's registry gets them in Provision).
var metrics = struct {
	responses, failOpen, cache, rewrites *prometheus.CounterVec
	conversions                          prometheus.Counter
}{telemetry.M.Responses, telemetry.M.FailOpen, telemetry.M.Cache, telemetry.M.Rewrites, telemetry.M.Conversions}

// trafficMetrics names agent_requests_total and
// agent_requests_blocked_total.
var trafficMetrics = struct{ requests, blocked *prometheus.CounterVec }{telemetry.Agents.Requests, telemetry.Agents.Blocked}

// set stores a discovery result as the site's page list, found now.
func (p *pageList) set(res *discover.Result) { p.Set(res, time.Now()) }
