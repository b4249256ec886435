package caddymodule

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
)

// clientAddr is the client's address for per-client decisions (the rate
// limit, the agent verifier), read the way Caddy's trusted_proxies_strict
// reads forwarded addresses: right to left, skipping trusted proxies, the
// first untrusted address is the client's. A client can prepend any
// address it likes to X-Forwarded-For; only the entries the trusted
// proxies appended count.
//
// Where the server is strict, or the peer is not a trusted proxy, this is
// Caddy's own client_ip variable. Without trusted_proxies_strict, Caddy's
// client_ip is the leftmost valid entry, which the client chose; then the
// headers are read again here, right to left, and each entry is judged by
// the server's own trusted_proxies (an address is trusted when the server
// would trust a connection from it). Outside a Caddy server it is the
// connection's peer. It is never stored.
func clientAddr(r *http.Request) netip.Addr {
	ctx := r.Context()
	ip, _ := caddyhttp.GetVar(ctx, caddyhttp.ClientIPVarKey).(string)
	trusted, _ := caddyhttp.GetVar(ctx, caddyhttp.TrustedProxyVarKey).(bool)
	srv, _ := ctx.Value(caddyhttp.ServerCtxKey).(*caddyhttp.Server)
	if trusted && srv != nil && srv.TrustedProxiesStrict == 0 {
		return strictClientAddr(r, srv)
	}
	if a, err := netip.ParseAddr(ip); err == nil {
		return a
	}
	return peerAddr(r)
}

// strictClientAddr reads srv's client IP headers right to left and returns
// the first valid address srv does not trust as a proxy; the peer when
// every entry is trusted or none is valid (as Caddy's
// strictUntrustedClientIp does).
func strictClientAddr(r *http.Request, srv *caddyhttp.Server) netip.Addr {
	for _, name := range srv.ClientIPHeaders {
		parts := strings.Split(strings.Join(r.Header.Values(name), ","), ",")
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
			if !trustedProxy(srv, a) {
				return a
			}
		}
	}
	return peerAddr(r)
}

// trustedProxy asks srv whether it trusts a connection from a: Caddy keeps
// its trusted_proxies ranges unexported, so a request from a, with no
// forwarded headers, is prepared by srv as a real one would be.
func trustedProxy(srv *caddyhttp.Server, a netip.Addr) bool {
	probe := &http.Request{Method: http.MethodGet, URL: &url.URL{}, Header: http.Header{},
		RemoteAddr: netip.AddrPortFrom(a, 0).String()}
	probe = caddyhttp.PrepareRequest(probe, caddy.NewEmptyReplacer(), nil, srv)
	t, _ := caddyhttp.GetVar(probe.Context(), caddyhttp.TrustedProxyVarKey).(bool)
	return t
}

// peerAddr is the connection's peer address, the zero Addr when there is
// none (a Unix socket).
func peerAddr(r *http.Request) netip.Addr {
	if ap, err := netip.ParseAddrPort(r.RemoteAddr); err == nil {
		return ap.Addr().Unmap()
	}
	return netip.Addr{}
}
