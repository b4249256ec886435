// Package clientip reads a request's client address out of forwarded
// headers the way Caddy's trusted_proxies_strict does: right to left,
// skipping trusted proxies, the first untrusted address is the client's.
// A client can prepend any address it likes to X-Forwarded-For; only the
// entries the trusted proxies appended count. Which proxies are trusted
// is the caller's to say (the glue asks Caddy's server). It imports no
// Caddy package.
package clientip

import (
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
)

// Strict reads the headers named, right to left, and returns the first
// valid address trusted does not trust as a proxy; the peer (of
// remoteAddr) when every entry is trusted or none is valid, as Caddy's
// strictUntrustedClientIp does.
func Strict(h http.Header, names []string, remoteAddr string, trusted func(netip.Addr) bool) netip.Addr {
	for _, name := range names {
		parts := strings.Split(strings.Join(h.Values(name), ","), ",")
		for _, part := range slices.Backward(parts) {
			host, _, err := net.SplitHostPort(strings.TrimSpace(part))
			if err != nil {
				host = part
			}
			host, _, _ = strings.Cut(strings.TrimSpace(host), "%")
			a, err := netip.ParseAddr(host)
			if err != nil {
				continue
			}
			if !trusted(a) {
				return a
			}
		}
	}
	return Peer(remoteAddr)
}

// Peer is the address of a connection's peer (http.Request.RemoteAddr),
// the zero Addr when there is none (a Unix socket).
func Peer(remoteAddr string) netip.Addr {
	if ap, err := netip.ParseAddrPort(remoteAddr); err == nil {
		return ap.Addr().Unmap()
	}
	return netip.Addr{}
}
