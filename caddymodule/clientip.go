package caddymodule

import (
	"net/http"
	"net/netip"
	"net/url"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/agentready/caddy-agentready/internal/clientip"
)

// clientAddr is the client's address for per-client decisions (the rate
// limit, the agent verifier), read the way Caddy's trusted_proxies_strict
// reads forwarded addresses (package clientip).
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
		return clientip.Strict(r.Header, srv.ClientIPHeaders, r.RemoteAddr, func(a netip.Addr) bool { return trustedProxy(srv, a) })
	}
	if a, err := netip.ParseAddr(ip); err == nil {
		return a
	}
	return clientip.Peer(r.RemoteAddr)
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
