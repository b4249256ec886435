package outsider

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"testing"
	"time"
)

// TestRemoteAddrIsAStranger: the own requests' address is one that no
// matcher meant for trusted clients takes in: not loopback, private,
// link-local, unspecified, nor in Caddy's private_ranges.
func TestRemoteAddrIsAStranger(t *testing.T) {
	host, port, err := net.SplitHostPort(RemoteAddr)
	if err != nil || port == "" || port == "0" {
		t.Fatalf("RemoteAddr %q: want host:port with a real port (%v)", RemoteAddr, err)
	}
	ip := netip.MustParseAddr(host)
	if ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() || ip.IsMulticast() {
		t.Errorf("%s is an address some matcher trusts", ip)
	}
	// Caddy's private_ranges (modules/caddyhttp.PrivateRangesCIDR).
	for _, cidr := range []string{"192.168.0.0/16", "172.16.0.0/12", "10.0.0.0/8", "127.0.0.1/8", "fd00::/8", "::1/128"} {
		if netip.MustParsePrefix(cidr).Contains(ip) {
			t.Errorf("%s is in private_ranges (%s)", ip, cidr)
		}
	}
	if !netip.MustParsePrefix("192.0.2.0/24").Contains(ip) {
		t.Errorf("%s is not a documentation address (RFC 5737)", ip)
	}
}

func TestRequest(t *testing.T) {
	site := Site{Hosts: map[string]string{"public.example": "origin.example:8443"}}
	for _, tc := range []struct {
		name     string
		url      string
		site     Site
		host     string
		tls      bool
		sni      string
		viaProxy bool
	}{
		{"plain http, host as named", "http://127.0.0.1:8080/a?b=c", Site{}, "127.0.0.1:8080", false, "", false},
		{"https site: a TLS state", "https://example.com/a", Site{TLS: true}, "example.com", true, "example.com", false},
		{"a mapped host: the site block's", "https://public.example/a", site, "origin.example:8443", false, "", false},
		{"a mapped host, any case and port", "https://Public.Example:443/a", site, "origin.example:8443", false, "", false},
		{"an unmapped host: as named", "https://other.example/a", site, "other.example", false, "", false},
		{"TLS names the host sent", "https://public.example/a", Site{TLS: true, Hosts: site.Hosts}, "origin.example:8443", true, "origin.example", false},
		{"ipv6", "http://[::1]:8080/", Site{TLS: true}, "[::1]:8080", true, "::1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, tc.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range []string{"Authorization", "Proxy-Authorization", "Cookie", "Forwarded", "X-Forwarded-For",
				"X-Forwarded-Host", "X-Forwarded-Proto", "X-Forwarded-Uri", "X-Real-IP", "True-Client-IP", "CF-Connecting-IP", "Via"} {
				req.Header.Set(h, "x")
			}
			req.Header["x-forwarded-port"] = []string{"1"} // not canonical
			req.Header.Set("Accept", "text/markdown")
			req.Header.Set("If-None-Match", `"e"`)
			req.RemoteAddr = "127.0.0.1:1234"
			in := Request(context.Background(), req, tc.site)
			if in.RemoteAddr != RemoteAddr {
				t.Errorf("RemoteAddr %q", in.RemoteAddr)
			}
			if in.Host != tc.host {
				t.Errorf("Host %q, want %q", in.Host, tc.host)
			}
			if in.RequestURI != req.URL.RequestURI() {
				t.Errorf("RequestURI %q", in.RequestURI)
			}
			if len(in.Header) != 2 || in.Header.Get("Accept") != "text/markdown" || in.Header.Get("If-None-Match") != `"e"` {
				t.Errorf("headers: %v, want only Accept and If-None-Match", in.Header)
			}
			if len(req.Header) != 15 {
				t.Errorf("the caller's request was changed: %v", req.Header)
			}
			if (in.TLS != nil) != tc.tls {
				t.Fatalf("TLS %v, want %v", in.TLS, tc.tls)
			}
			if in.TLS != nil && (!in.TLS.HandshakeComplete || in.TLS.ServerName != tc.sni) {
				t.Errorf("TLS state %+v, want a complete handshake for %q", in.TLS, tc.sni)
			}
			if in.Body == nil || in.ProtoMajor != 1 {
				t.Errorf("body %v, proto %s", in.Body, in.Proto)
			}
		})
	}
}

type key struct{}

func TestDetach(t *testing.T) {
	parent, cancel := context.WithTimeout(context.WithValue(context.Background(), key{}, "client"), time.Hour)
	ctx := Detach(parent)
	if ctx.Value(key{}) != nil || ctx.Value(http.LocalAddrContextKey) != nil {
		t.Error("a value of the triggering request came along")
	}
	if _, ok := ctx.Deadline(); !ok {
		t.Error("the parent's deadline is lost")
	}
	cancel()
	<-ctx.Done()
	if ctx.Err() == nil {
		t.Error("no error once the parent ended")
	}
}
