package caddymodule

import (
	"encoding/json"
	"net/url"
	"strings"
	"sync"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/internal/outsider"
	"github.com/agentready/caddy-agentready/internal/siteaddr"
)

// ownOrigin is the address the module reaches its own site at, and why
// (siteaddr.Own): from the self_scan target, the YAML's site.origin, the
// site block that holds this handler in srv, or srv's listeners.
func (ar *AgentReady) ownOrigin(srv *caddyhttp.Server) (origin, why string, err error) {
	s := siteaddr.Sources{
		SiteOrigin: ar.site.Info.Origin,
		Hosts:      siteHosts(srv),
		Server:     server(srv),
	}
	if ar.SelfScan != nil {
		s.SelfScanTarget = ar.SelfScan.Target
	}
	return siteaddr.Own(s)
}

// ownSite is how the module's own requests visit its site at origin (see
// outsider.Site): over TLS when the server serves the site over TLS, with
// the Host the site block answers when it does not answer origin's
// (siteaddr.ReachHost: the public host of a site behind a CDN whose origin
// host is another). The reach says which Host, or warns that none can be
// named.
func ownSite(srv *caddyhttp.Server, origin string) (outsider.Site, siteaddr.Reach) {
	s := server(srv)
	scheme, _ := siteaddr.Scheme(s)
	site := outsider.Site{TLS: scheme == "https"}
	reach := siteaddr.ReachHost(origin, siteHosts(srv), s)
	if u, err := url.Parse(origin); err == nil && reach.Host != "" {
		site.Hosts = map[string]string{strings.ToLower(u.Hostname()): reach.Host}
	}
	return site, reach
}

// reachWarned holds the reach warnings already logged, so that each is
// logged once per process rather than with every config reload.
var reachWarned sync.Map

// logReach logs how the own requests reach the site: at info when they
// send another Host than origin's, and once at warn when they may not
// reach it at all.
func (ar *AgentReady) logReach(origin string, reach siteaddr.Reach) {
	if reach.Host != "" {
		ar.logger.Info("own requests reach the site under another host",
			zap.String("origin", origin), zap.String("host", reach.Host), zap.String("why", reach.Why))
	}
	if reach.Warning == "" {
		return
	}
	if _, seen := reachWarned.LoadOrStore(origin+"\n"+reach.Warning, true); !seen {
		ar.logger.Warn("own requests may not reach the site", zap.String("origin", origin), zap.String("problem", reach.Warning))
	}
}

// server is what siteaddr needs of srv.
func server(srv *caddyhttp.Server) siteaddr.Server {
	return siteaddr.Server{
		Listen:    srv.Listen,
		Listeners: listeners(srv.Listen),
		TLS:       len(srv.TLSConnPolicies) > 0,
	}
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
