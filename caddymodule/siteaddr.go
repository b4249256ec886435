package caddymodule

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
)

// ownOrigin is the address the module reaches its own site at (the
// self-scan, the content index and llms.auto_list read the site there), and
// why it is that one, for the report: the self_scan target, the YAML's
// site.origin, the host of the site block that holds this handler on the
// server's port, or the server's first listener.
func (ar *AgentReady) ownOrigin(srv *caddyhttp.Server) (origin, why string, err error) {
	if ar.SelfScan != nil && ar.SelfScan.Target != "" {
		u, err := url.Parse(ar.SelfScan.Target)
		if err != nil || !u.IsAbs() || u.Host == "" {
			return "", "", fmt.Errorf("self_scan target: want an absolute URL, got %q", ar.SelfScan.Target)
		}
		return u.Scheme + "://" + u.Host, "the self_scan target of the configuration", nil
	}
	if ar.site.Info.Origin != "" {
		return ar.site.Info.Origin, "site.origin of the site's YAML", nil
	}
	if origin, why := originFromHosts(siteHosts(srv), srv); origin != "" {
		return origin, why, nil
	}
	origin = targetFromListeners(srv.Listen)
	return origin, "the server's listener " + strings.Join(srv.Listen, " ") + ": the site names no host", nil
}

// agentReadyHandler finds this module in a route's handler JSON.
var agentReadyHandler = regexp.MustCompile(`"handler"\s*:\s*"agent_ready"`)

// siteHosts returns the hosts that the route of srv holding this handler
// matches (the site block's addresses, `example.com, www.example.com`), or
// nil. It is called while the handler is provisioned: Caddy sets up the
// server's routes in order, their matchers first, and lets go of each
// route's handler JSON once its handlers are loaded, so the route being set
// up is the first one whose handler JSON is still there. Should that JSON
// not name this module (a handler in handle_errors, a Caddy that provisions
// otherwise), no host is guessed.
func siteHosts(srv *caddyhttp.Server) []string {
	for _, rt := range srv.Routes {
		if rt.HandlersRaw == nil {
			continue
		}
		for _, raw := range rt.HandlersRaw {
			if agentReadyHandler.Match(raw) {
				return matchedHosts(rt.MatcherSets)
			}
		}
		return nil
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

// originFromHosts picks the origin to scan among a site block's hosts, on
// the server's scheme and port: the first concrete host (a name or an IP
// address), else the first wildcard with its wildcard label as "www"
// (`*.example.com` answers www.example.com too). Hosts with placeholders
// cannot be scanned.
func originFromHosts(hosts []string, srv *caddyhttp.Server) (origin, why string) {
	var pick string
	for _, h := range hosts {
		if h != "" && !strings.ContainsAny(h, "*{}") {
			pick = h
			break
		}
	}
	how := "host"
	if pick == "" {
		for _, h := range hosts {
			if rest, ok := strings.CutPrefix(h, "*."); ok && !strings.ContainsAny(rest, "*{}") {
				pick, how = "www."+rest, "wildcard "+h+", as"
				break
			}
		}
	}
	if pick == "" {
		return "", ""
	}
	scheme, port := serverScheme(srv)
	host := pick
	if strings.Contains(host, ":") {
		host = "[" + host + "]" // an IPv6 address
	}
	if port != 0 && !(scheme == "http" && port == 80) && !(scheme == "https" && port == 443) {
		host = net.JoinHostPort(pick, strconv.Itoa(port))
	}
	why = fmt.Sprintf("the %s %s of the site block that holds agent_ready, on the server's port", how, pick)
	if len(hosts) > 1 {
		why = fmt.Sprintf("%s (its hosts: %s)", why, strings.Join(hosts, ", "))
	}
	return scheme + "://" + host, why
}

// serverScheme is the scheme and port of srv's first TCP listener: https
// when the server has TLS connection policies or listens on 443.
func serverScheme(srv *caddyhttp.Server) (scheme string, port int) {
	scheme = "http"
	for _, l := range srv.Listen {
		na, err := caddy.ParseNetworkAddress(l)
		if err != nil || na.IsUnixNetwork() || na.IsFdNetwork() {
			continue
		}
		port = int(na.StartPort)
		break
	}
	if len(srv.TLSConnPolicies) > 0 || port == 443 {
		scheme = "https"
	}
	return scheme, port
}

// targetFromListeners derives the self-scan's URL from the server's first
// listener: `:8080` becomes `http://localhost:8080`.
func targetFromListeners(listen []string) string {
	for _, l := range listen {
		na, err := caddy.ParseNetworkAddress(l)
		if err != nil || na.IsUnixNetwork() || na.IsFdNetwork() {
			continue
		}
		host := na.Host
		if host == "" || host == "0.0.0.0" || host == "::" {
			host = "localhost"
		}
		scheme := "http"
		if na.StartPort == 443 {
			scheme = "https"
		}
		return scheme + "://" + net.JoinHostPort(host, strconv.Itoa(int(na.StartPort)))
	}
	return ""
}
