package siteaddr

import (
	"strings"
	"testing"
)

func TestReachHost(t *testing.T) {
	plain := Server{Listeners: []Listener{{"", 8080}}}
	tls := Server{Listeners: []Listener{{"", 443}}, TLS: true}
	for _, tc := range []struct {
		name    string
		origin  string
		hosts   []string
		srv     Server
		host    string // Reach.Host
		warning string // a part of Reach.Warning
	}{
		{"a :port block answers any host", "https://www.example.com", nil, plain, "", ""},
		{"the block answers the origin's host", "https://example.com", []string{"example.com"}, tls, "", ""},
		{"in any case, with a port", "https://Example.COM:8443", []string{"example.com"}, tls, "", ""},
		{"among several", "https://www.example.com", []string{"example.com", "www.example.com"}, tls, "", ""},
		{"by a wildcard", "https://shop.example.com", []string{"*.example.com"}, tls, "", ""},
		{"a CDN's origin host", "https://www.example.com", []string{"origin.example.net"}, plain, "origin.example.net:8080", ""},
		{"a CDN's origin host on 443", "https://www.example.com", []string{"origin.example.net"}, tls, "origin.example.net", ""},
		{"a wildcard one label deep only", "https://a.b.example.com", []string{"*.example.com"}, tls, "www.example.com", ""},
		{"an IP address block", "https://www.example.com", []string{"127.0.0.1"}, plain, "127.0.0.1:8080", ""},
		{"placeholders only: a warning", "https://www.example.com", []string{"{env.SITE_HOST}"}, plain, "", "{env.SITE_HOST}"},
		{"no origin", "", []string{"example.com"}, plain, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ReachHost(tc.origin, tc.hosts, tc.srv)
			if got.Host != tc.host {
				t.Errorf("Host %q, want %q (%+v)", got.Host, tc.host, got)
			}
			if got.Host != "" && !strings.Contains(got.Why, got.Host) {
				t.Errorf("the reason does not name the host sent: %q", got.Why)
			}
			if tc.warning == "" && got.Warning != "" || tc.warning != "" && !strings.Contains(got.Warning, tc.warning) {
				t.Errorf("warning %q, want one naming %q", got.Warning, tc.warning)
			}
			if got.Warning != "" && !strings.Contains(got.Warning, "self_scan") {
				t.Errorf("the warning gives no fix: %q", got.Warning)
			}
		})
	}
}

func TestAnswers(t *testing.T) {
	for _, tc := range []struct {
		hosts []string
		host  string
		want  bool
	}{
		{[]string{"example.com"}, "example.com", true},
		{[]string{"Example.com"}, "EXAMPLE.com", true},
		{[]string{"example.com"}, "example.com:8080", true},
		{[]string{"example.com"}, "www.example.com", false},
		{[]string{"*.example.com"}, "www.example.com", true},
		{[]string{"*.example.com"}, "example.com", false},
		{[]string{"*.*.example.com"}, "a.b.example.com", true},
		{[]string{"::1"}, "[::1]", true},
		{[]string{"::1"}, "[::1]:8080", true},
		{[]string{"{http.request.host}"}, "example.com", false},
		{nil, "example.com", false},
	} {
		if got := Answers(tc.hosts, tc.host); got != tc.want {
			t.Errorf("Answers(%v, %q) = %v, want %v", tc.hosts, tc.host, got, tc.want)
		}
	}
}
