package siteaddr

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFromHosts(t *testing.T) {
	plain := Server{Listeners: []Listener{{"", 18400}}}
	tls := Server{Listeners: []Listener{{"", 443}}, TLS: true}
	tlsOther := Server{Listeners: []Listener{{"127.0.0.1", 8443}}, TLS: true}
	http80 := Server{Listeners: []Listener{{"", 80}}}
	for _, tc := range []struct {
		name  string
		hosts []string
		srv   Server
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
		{"no tcp listener: no port", []string{"example.com"}, Server{}, "http://example.com", "host example.com"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, why := FromHosts(tc.hosts, tc.srv)
			if got != tc.want || !strings.Contains(why, tc.why) {
				t.Errorf("FromHosts(%v) = %q, %q; want %q, …%s…", tc.hosts, got, why, tc.want, tc.why)
			}
		})
	}
}

func TestFromListeners(t *testing.T) {
	for _, tc := range []struct {
		listeners []Listener
		want      string
	}{
		{[]Listener{{"", 8080}}, "http://localhost:8080"},
		{[]Listener{{"127.0.0.1", 9000}}, "http://127.0.0.1:9000"},
		{[]Listener{{"", 443}}, "https://localhost:443"},
		{[]Listener{{"0.0.0.0", 8081}}, "http://localhost:8081"},
		{[]Listener{{"::1", 8081}, {"", 8080}}, "http://[::1]:8081"},
		{nil, ""},
	} {
		if got := FromListeners(tc.listeners); got != tc.want {
			t.Errorf("FromListeners(%v) = %q, want %q", tc.listeners, got, tc.want)
		}
	}
}

// TestOwn: the sources in order, the first that gives an origin wins.
func TestOwn(t *testing.T) {
	srv := Server{Listen: []string{":8080"}, Listeners: []Listener{{"", 8080}}}
	for _, tc := range []struct {
		name    string
		in      Sources
		want    string
		why     string // a part of the reason
		wantErr bool
	}{
		{"the self_scan target, its origin only", Sources{SelfScanTarget: "https://shop.test/a?b", SiteOrigin: "https://other.test", Hosts: []string{"h.test"}, Server: srv}, "https://shop.test", "self_scan target", false},
		{"a relative self_scan target", Sources{SelfScanTarget: "/pricing", Server: srv}, "", "", true},
		{"site.origin", Sources{SiteOrigin: "https://other.test", Hosts: []string{"h.test"}, Server: srv}, "https://other.test", "site.origin", false},
		{"the site block's host", Sources{Hosts: []string{"h.test"}, Server: srv}, "http://h.test:8080", "host h.test", false},
		{"the listener", Sources{Hosts: []string{"{env.HOST}"}, Server: srv}, "http://localhost:8080", "the server's listener :8080", false},
		{"nothing", Sources{}, "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, why, err := Own(tc.in)
			if (err != nil) != tc.wantErr || got != tc.want || !strings.Contains(why, tc.why) {
				t.Errorf("Own = %q, %q, %v; want %q, …%s…, error %v", got, why, err, tc.want, tc.why, tc.wantErr)
			}
		})
	}
}

func TestOwnRoute(t *testing.T) {
	ours := json.RawMessage(`{"handler": "agent_ready", "config": "site.yaml"}`)
	other := json.RawMessage(`{"handler":"reverse_proxy"}`)
	for _, tc := range []struct {
		name     string
		handlers [][]json.RawMessage
		want     int
	}{
		{"the first route", [][]json.RawMessage{{ours, other}, {other}}, 0},
		{"after routes already loaded", [][]json.RawMessage{nil, nil, {other, ours}}, 2},
		{"the route being set up is another's", [][]json.RawMessage{nil, {other}, {ours}}, -1},
		{"no route", nil, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := OwnRoute(tc.handlers); got != tc.want {
				t.Errorf("OwnRoute = %d, want %d", got, tc.want)
			}
		})
	}
}
