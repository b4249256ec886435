package siteaddr

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Reach is how the module's own requests reach the site block that holds
// the handler. They name the site by its origin (Own: the self_scan
// target, site.origin, ...), and go to the block's server in process, where
// Caddy routes them by their Host: an origin whose host the block does not
// answer (the public host of a site behind a CDN whose origin host is
// another) would get the server's empty 200, and the index, the sitemap
// and the self-score would judge nothing.
type Reach struct {
	// Host is the Host header the own requests send instead of the
	// origin's host, with a port where the server's is not the default of
	// its scheme; "" when the block answers the origin's host.
	Host string
	// Why says, when Host is set, why it is that one.
	Why string
	// Warning says, when the block names no host the module can send, that
	// its own requests may not reach the site, and how to fix it; "" when
	// they do.
	Warning string
}

// ReachHost works out the Host the own requests send for origin, given the
// hosts the site block answers (nil: any host, as a `:8080` block does) and
// its server. The origin's own host is kept when the block answers it
// (Answers); else the block's first host that can be named (FromHosts:
// a concrete host, else a wildcard's www), on the server's port; else,
// when the block names only placeholders, the origin's host, with a
// warning.
func ReachHost(origin string, hosts []string, srv Server) Reach {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || len(hosts) == 0 || Answers(hosts, u.Hostname()) {
		return Reach{}
	}
	if to, _ := FromHosts(hosts, srv); to != "" {
		tu, err := url.Parse(to)
		if err == nil {
			return Reach{
				Host: tu.Host,
				Why: fmt.Sprintf("the site block does not answer %s (its hosts: %s): the module's own requests ask for %s",
					u.Hostname(), strings.Join(hosts, ", "), tu.Host),
			}
		}
	}
	return Reach{Warning: fmt.Sprintf("the module's own requests (self-scan, discovery, content index, llms-full.txt) "+
		"ask for %s, and the site block that holds agent_ready answers only %s, which the module cannot name: "+
		"they may get an empty answer; give the site block a plain host name, or set `self_scan { target <a URL the block answers> }`",
		u.Host, strings.Join(hosts, ", "))}
}

// Answers reports whether a site block with these hosts answers a request
// for host, the way Caddy's host matcher does: case-insensitively, a `*`
// label standing for exactly one label. Hosts with placeholders are not
// known until a request comes, and never answer here.
func Answers(hosts []string, host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	for _, pattern := range hosts {
		pattern = strings.ToLower(pattern)
		if strings.ContainsAny(pattern, "{}") {
			continue
		}
		if pattern == host {
			return true
		}
		if !strings.Contains(pattern, "*") {
			continue
		}
		want, got := strings.Split(pattern, "."), strings.Split(host, ".")
		if len(want) != len(got) {
			continue
		}
		match := true
		for i := range want {
			if want[i] != "*" && want[i] != got[i] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
