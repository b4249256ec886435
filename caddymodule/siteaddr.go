package caddymodule

import (
	"encoding/json"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/agentready/caddy-agentready/internal/siteaddr"
)

// ownOrigin is the address the module reaches its own site at, and why
// (siteaddr.Own): from the self_scan target, the YAML's site.origin, the
// site block that holds this handler in srv, or srv's listeners.
func (ar *AgentReady) ownOrigin(srv *caddyhttp.Server) (origin, why string, err error) {
	s := siteaddr.Sources{
		SiteOrigin: ar.site.Info.Origin,
		Hosts:      siteHosts(srv),
		Server: siteaddr.Server{
			Listen:    srv.Listen,
			Listeners: listeners(srv.Listen),
			TLS:       len(srv.TLSConnPolicies) > 0,
		},
	}
	if ar.SelfScan != nil {
		s.SelfScanTarget = ar.SelfScan.Target
	}
	return siteaddr.Own(s)
}

// siteHosts returns the hosts that the route of srv holding this handler
// matches (the site block's addresses, `example.com, www.example.com`), or
// nil. It is called while the handler is provisioned; siteaddr.OwnRoute
// says which route that is.
func siteHosts(srv *caddyhttp.Server) []string {
	handlers := make([][]json.RawMessage, len(srv.Routes))
	for i, rt := range srv.Routes {
		handlers[i] = rt.HandlersRaw
	}
	if i := siteaddr.OwnRoute(handlers); i >= 0 {
		return matchedHosts(srv.Routes[i].MatcherSets)
	}
	return nil
}

// matchedHosts lists the hosts of the host matchers of sets, in order.
func matchedHosts(sets caddyhttp.MatcherSets) []string {
	var hosts []string
	for _, set := range sets {
		for _, m := range set {
			if mh, ok := m.(*caddyhttp.MatchHost); ok {
				hosts = append(hosts, *mh...)
			}
		}
	}
	return hosts
}

// listeners are the TCP listeners among a server's listen addresses, in
// order: Unix sockets, file descriptors and addresses that do not parse
// are left out.
func listeners(listen []string) []siteaddr.Listener {
	var out []siteaddr.Listener
	for _, l := range listen {
		na, err := caddy.ParseNetworkAddress(l)
		if err != nil || na.IsUnixNetwork() || na.IsFdNetwork() {
			continue
		}
		out = append(out, siteaddr.Listener{Host: na.Host, Port: int(na.StartPort)})
	}
	return out
}
