// Package outsider builds the requests the module sends to its own site
// (discovery, the content index, llms-full.txt, the self-scan, the check
// of the declared URLs) the way an anonymous visitor from outside sends
// them, so that every matcher and handler in front of the module judges
// them as it judges a stranger: a page a stranger cannot read is never
// crawled, indexed, listed or served. The glue (caddymodule/transport.go)
// hands the requests it builds to the site's server in process.
package outsider

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"strings"
	"time"
)

// RemoteAddr is the client address of every own request: 192.0.2.1, from
// TEST-NET-1 (RFC 5737 §3), an address set aside for documentation that no
// network routes. It is neither loopback nor private (RFC 1918), link-local
// or unique-local, so `remote_ip 127.0.0.1/8`, `remote_ip private_ranges`,
// `trusted_proxies private_ranges` and an auth service that trusts
// localhost all see a stranger. It has a port, as a real connection's
// address has (`net.SplitHostPort` must succeed for Caddy to read it).
const RemoteAddr = "192.0.2.1:49152"

// Site is what an own request takes from the site it visits.
type Site struct {
	// TLS reports whether the server serves the site over TLS: the request
	// then arrives with a TLS connection state, as an outside visitor's
	// over https does, so `{http.request.scheme}` is https and a
	// redirect to https does not send it round in a loop.
	TLS bool
	// Hosts maps a host the module names its site by (site.origin's, the
	// self_scan target's), lower case and without a port, to the Host
	// header the site block answers (see siteaddr.Reach), where they
	// differ. Other hosts are sent as the URL names them.
	Hosts map[string]string
}

// Request returns a copy of req, in ctx, as an anonymous visitor from
// outside sends it to the site: from RemoteAddr; with no credentials
// (Authorization, Proxy-Authorization, Cookie) and none of the headers by
// which a proxy forwards a client's address or scheme (Forwarded,
// X-Forwarded-*, X-Real-IP and the like); with a TLS connection state when
// the site is served over TLS; with the Host the site block answers. ctx
// should be Detach's, so that nothing of the request that triggered the
// work (its connection, its TLS state, its client address) comes along.
func Request(ctx context.Context, req *http.Request, s Site) *http.Request {
	in := req.Clone(ctx)
	in.RemoteAddr = RemoteAddr
	in.RequestURI = req.URL.RequestURI()
	in.Host = s.host(req.URL.Host)
	in.Proto, in.ProtoMajor, in.ProtoMinor = "HTTP/1.1", 1, 1
	for k := range in.Header {
		if Identifying(http.CanonicalHeaderKey(k)) {
			delete(in.Header, k)
		}
	}
	in.TLS = nil
	if s.TLS {
		in.TLS = &tls.ConnectionState{
			Version:            tls.VersionTLS13,
			HandshakeComplete:  true,
			CipherSuite:        tls.TLS_AES_128_GCM_SHA256,
			NegotiatedProtocol: "http/1.1",
			ServerName:         hostname(in.Host),
		}
	}
	if in.Body == nil {
		in.Body = http.NoBody
	}
	return in
}

// host is the Host header for a URL's host: the site block's, when s maps
// it.
func (s Site) host(urlHost string) string {
	if h, ok := s.Hosts[strings.ToLower(hostname(urlHost))]; ok {
		return h
	}
	return urlHost
}

// hostname is host without its port and IPv6 brackets.
func hostname(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
}

// identifying are the headers, besides the X-Forwarded- family, that carry
// credentials or a client's address as a proxy forwards it.
var identifying = map[string]bool{
	"Authorization":       true,
	"Proxy-Authorization": true,
	"Cookie":              true,
	"Forwarded":           true, // RFC 7239
	"Via":                 true,
	"X-Real-Ip":           true,
	"X-Client-Ip":         true,
	"X-Cluster-Client-Ip": true,
	"True-Client-Ip":      true,
	"Cf-Connecting-Ip":    true,
	"Fastly-Client-Ip":    true,
	"X-Original-Url":      true,
	"X-Rewrite-Url":       true,
}

// Identifying reports whether the header named k (canonical form) carries
// credentials, or a client's address, host or scheme as a proxy forwards
// it: an own request never sends one.
func Identifying(k string) bool {
	return identifying[k] || strings.HasPrefix(k, "X-Forwarded-")
}

// Detach returns a context that ends when parent ends and carries none of
// its values: the connection, TLS state and client address of a request
// that triggered the work stay behind. The caller adds back the marks it
// needs.
func Detach(parent context.Context) context.Context {
	return detached{parent}
}

type detached struct{ parent context.Context }

func (d detached) Deadline() (time.Time, bool) { return d.parent.Deadline() }
func (d detached) Done() <-chan struct{}       { return d.parent.Done() }
func (d detached) Err() error                  { return d.parent.Err() }
func (d detached) Value(any) any               { return nil }

// Interface guards
var _ context.Context = detached{}
