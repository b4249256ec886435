package caddymodule

import "github.com/agentready/caddy-agentready/traffic"

// trafficSite is what the integration tests read of a site's traffic
// state (package traffic/sites holds it).
type trafficSite struct {
	key      string
	verifier *traffic.Verifier
}

// trafficSitesSnapshot lists the sites' traffic states by key.
func trafficSitesSnapshot() []trafficSite {
	var out []trafficSite
	for _, s := range trafficSites.List() {
		out = append(out, trafficSite{s.Key(), s.Verifier()})
	}
	return out
}
