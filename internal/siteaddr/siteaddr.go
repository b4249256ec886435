// Package siteaddr works out the address the module reaches its own site
// at (the self-scan, the content index and llms.auto_list read the site
// there), and why it is that one, for the report. It is given plain
// values: the glue (caddymodule/siteaddr.go) reads them from Caddy's
// server and routes.
package siteaddr

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Listener is a TCP listener of the server (Unix sockets and file
// descriptors are left out): the host it binds ("" for every interface)
// and its first port.
type Listener struct {
	Host string
	Port int
}

// Server is what the choice needs of the HTTP server that holds the
// handler.
type Server struct {
	// Listen is the server's listen addresses as configured, for the
	// reason given when the origin comes from them.
	Listen []string
	// Listeners is the TCP listeners among Listen, in order.
	Listeners []Listener
	// TLS reports whether the server has TLS connection policies.
	TLS bool
}

// Sources are where the origin may come from, first wins.
type Sources struct {
	// SelfScanTarget is the self_scan target of the configuration.
	SelfScanTarget string
	// SiteOrigin is site.origin of the site's YAML.
	SiteOrigin string
	// Hosts are the hosts of the site block that holds the handler (see
	// OwnRoute).
	Hosts []string
	// Server is the server the handler belongs to.
	Server Server
}

// Own is the origin the module reaches its own site at, and why: the
// self_scan target, the YAML's site.origin, the host of the site block
// that holds this handler on the server's port, or the server's first
// listener. It is "" when none of them gives one.
func Own(s Sources) (origin, why string, err error) {
	if s.SelfScanTarget != "" {
		u, err := url.Parse(s.SelfScanTarget)
		if err != nil || !u.IsAbs() || u.Host == "" {
			return "", "", fmt.Errorf("self_scan target: want an absolute URL, got %q", s.SelfScanTarget)
		}
		return u.Scheme + "://" + u.Host, "the self_scan target of the configuration", nil
	}
	if s.SiteOrigin != "" {
		return s.SiteOrigin, "site.origin of the site's YAML", nil
	}
	if origin, why := FromHosts(s.Hosts, s.Server); origin != "" {
		return origin, why, nil
	}
	origin = FromListeners(s.Server.Listeners)
	return origin, "the server's listener " + strings.Join(s.Server.Listen, " ") + ": the site names no host", nil
}

// agentReadyHandler finds this module in a route's handler JSON.
var agentReadyHandler = regexp.MustCompile(`"handler"\s*:\s*"agent_ready"`)

// OwnRoute returns the index of the route, among a server's routes given
// by their handler JSON, that holds the handler being provisioned, or -1.
// Caddy sets up the server's routes in order, their matchers first, and
// lets go of each route's handler JSON (nil) once its handlers are loaded,
// so the route being set up is the first one whose handler JSON is still
// there. Should that JSON not name this module (a handler in
// handle_errors, a Caddy that provisions otherwise), no route is guessed.
func OwnRoute(handlers [][]json.RawMessage) int {
	for i, raws := range handlers {
		if raws == nil {
			continue
		}
		for _, raw := range raws {
			if agentReadyHandler.Match(raw) {
				return i
			}
		}
		return -1
	}
	return -1
}

// FromHosts picks the origin to scan among a site block's hosts, on the
// server's scheme and port: the first concrete host (a name or an IP
// address), else the first wildcard with its wildcard label as "www"
// (`*.example.com` answers www.example.com too). Hosts with placeholders
// cannot be scanned.
func FromHosts(hosts []string, srv Server) (origin, why string) {
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
	scheme, port := Scheme(srv)
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

// Scheme is the scheme and port of srv's first TCP listener: https when
// the server has TLS connection policies or listens on 443.
func Scheme(srv Server) (scheme string, port int) {
	scheme = "http"
	if len(srv.Listeners) > 0 {
		port = srv.Listeners[0].Port
	}
	if srv.TLS || port == 443 {
		scheme = "https"
	}
	return scheme, port
}

// FromListeners derives the self-scan's URL from the server's first TCP
// listener: `:8080` becomes `http://localhost:8080`.
func FromListeners(listeners []Listener) string {
	if len(listeners) == 0 {
		return ""
	}
	l := listeners[0]
	host := l.Host
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	scheme := "http"
	if l.Port == 443 {
		scheme = "https"
	}
	return scheme + "://" + net.JoinHostPort(host, strconv.Itoa(l.Port))
}
