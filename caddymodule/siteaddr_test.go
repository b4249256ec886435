package caddymodule

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/internal/siteaddr"
)

// TestListeners: the TCP listeners among a server's listen addresses, as
// siteaddr takes them (TestFromListeners and TestFromHosts there).
func TestListeners(t *testing.T) {
	for _, tc := range []struct {
		listen []string
		want   []siteaddr.Listener
	}{
		{[]string{":8080"}, []siteaddr.Listener{{Host: "", Port: 8080}}},
		{[]string{"127.0.0.1:9000"}, []siteaddr.Listener{{Host: "127.0.0.1", Port: 9000}}},
		{[]string{"tcp/:443"}, []siteaddr.Listener{{Host: "", Port: 443}}},
		{[]string{"unix//run/caddy.sock", "fd/3", "[::1]:8081", ":8082-8085"}, []siteaddr.Listener{{Host: "::1", Port: 8081}, {Host: "", Port: 8082}}},
		{nil, nil},
	} {
		if got := listeners(tc.listen); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("listeners(%v) = %v, want %v", tc.listen, got, tc.want)
		}
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
