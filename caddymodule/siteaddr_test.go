package caddymodule

import (
	"fmt"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/caddyserver/caddy/v2/modules/caddytls"
)

func TestOriginFromHosts(t *testing.T) {
	plain := &caddyhttp.Server{Listen: []string{":18400"}}
	tls := &caddyhttp.Server{Listen: []string{":443"}, TLSConnPolicies: caddytls.ConnectionPolicies{{}}}
	tlsOther := &caddyhttp.Server{Listen: []string{"127.0.0.1:8443"}, TLSConnPolicies: caddytls.ConnectionPolicies{{}}}
	http80 := &caddyhttp.Server{Listen: []string{":80"}}
	for _, tc := range []struct {
		name  string
		hosts []string
		srv   *caddyhttp.Server
		want  string
		why   string // a part of the reason
	}{
		{"an ip address", []string{"127.0.0.1"}, plain, "http://127.0.0.1:18400", "host 127.0.0.1"},
		{"a name on https", []string{"example.com"}, tls, "https://example.com", "host example.com"},
		{"https on another port", []string{"example.com"}, tlsOther, "https://example.com:8443", "host example.com"},
		{"http on 80", []string{"example.com"}, http80, "http://example.com", "host example.com"},
		{"several hosts: the first", []string{"example.com", "www.example.com"}, tls, "https://example.com", "its hosts: example.com, www.example.com"},
		{"a wildcard after a name", []string{"*.example.com", "example.com"}, tls, "https://example.com", "host example.com"},
		{"a wildcard only", []string{"*.example.com"}, tls, "https://www.example.com", "wildcard *.example.com, as www.example.com"},
		{"ipv6", []string{"::1"}, plain, "http://[::1]:18400", "host ::1"},
		{"ipv6 on a default port", []string{"::1"}, http80, "http://[::1]", "host ::1"},
		{"placeholders cannot be scanned", []string{"{env.HOST}"}, plain, "", ""},
		{"no host", nil, plain, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, why := originFromHosts(tc.hosts, tc.srv)
			if got != tc.want || !strings.Contains(why, tc.why) {
				t.Errorf("originFromHosts(%v) = %q, %q; want %q, …%s…", tc.hosts, got, why, tc.want, tc.why)
			}
		})
	}
}

// TestIntegrationSelfScanSiteAddress: with neither self_scan target nor
// site.origin, the self-scan finds its site from the site block that holds
// agent_ready, among others on the same server, and the status and the
// report say which address it scanned and why. The scan reads the real
// site (the demo's pricing table), not an empty answer of no site block.
func TestIntegrationSelfScanSiteAddress(t *testing.T) {
	origin := newOrigin(t)
	proxy := strings.TrimPrefix(origin.URL, "http://")
	block := func(addr string) string {
		return addr + ` {
	agent_ready {
		config ../examples/site.yaml
		self_scan {
			delay 50ms
			timeout 30s
		}
	}
	reverse_proxy ` + proxy + `
}
`
	}
	other := "http://other.test:{port} {\n\trespond \"another site\"\n}\n"
	for _, tc := range []struct {
		name, caddyfile, target, why string
	}{
		{"an ip address", block("http://127.0.0.1:{port}"), "http://127.0.0.1:{port}/", "host 127.0.0.1"},
		{"after another site block", other + block("http://shop.test:{port}"), "http://shop.test:{port}/", "host shop.test"},
		{"before another site block", block("http://shop.test:{port}") + other, "http://shop.test:{port}/", "host shop.test"},
		{"several hosts", block("http://shop.test:{port}, http://www.shop.test:{port}"), "http://shop.test:{port}/", "its hosts: shop.test, www.shop.test"},
		{"a wildcard", other + block("http://*.shop.test:{port}"), "http://www.shop.test:{port}/", "wildcard *.shop.test, as www.shop.test"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			port := freePort(t)
			fill := strings.NewReplacer("{port}", fmt.Sprint(port))
			_, admin := runCaddyAt(t, port, "{\n\tadmin 127.0.0.1:{admin}\n\tpersist_config off\n\tdefault_bind 127.0.0.1\n}\n"+tc.caddyfile)
			st := waitReport(t, admin)
			if want := fill.Replace(tc.target); st.Target != want || !strings.Contains(st.Why, tc.why) {
				t.Errorf("target %q (%s), want %q (…%s…)", st.Target, st.Why, want, tc.why)
			}
			if st.Score == nil || *st.Score < 60 {
				t.Errorf("score %v: the scan did not read the site", st.Score)
			}
			_, md := get(t, "GET", admin+"/agent-ready/report.md")
			if !strings.Contains(md, "Address scanned: "+fill.Replace(tc.target)+" (") {
				t.Errorf("the report does not say which address it scanned:\n%.400s", md)
			}
		})
	}
}
