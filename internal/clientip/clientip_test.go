package clientip

import (
	"net/http"
	"net/netip"
	"testing"
)

func TestStrict(t *testing.T) {
	proxies := netip.MustParsePrefix("10.0.0.0/8")
	trusted := func(a netip.Addr) bool { return proxies.Contains(a) }
	names := []string{"X-Forwarded-For"}
	for _, tc := range []struct {
		name   string
		header []string
		peer   string
		want   string
	}{
		{"the proxy's entry, not the client's forgery", []string{"192.0.2.66, 203.0.113.7"}, "10.0.0.1:4000", "203.0.113.7"},
		{"behind two proxies", []string{"203.0.113.7, 10.0.0.2"}, "10.0.0.1:4000", "203.0.113.7"},
		{"several header lines", []string{"192.0.2.66", "203.0.113.7:5555, 10.0.0.2"}, "10.0.0.1:4000", "203.0.113.7"},
		{"IPv6 with a zone and port", []string{"[2001:db8::1%eth0]:443"}, "10.0.0.1:4000", "2001:db8::1"},
		{"garbage skipped", []string{"203.0.113.7, not-an-ip"}, "10.0.0.1:4000", "203.0.113.7"},
		{"all trusted: the peer", []string{"10.0.0.3, 10.0.0.2"}, "10.0.0.1:4000", "10.0.0.1"},
		{"no header: the peer, unmapped", nil, "[::ffff:198.51.100.4]:80", "198.51.100.4"},
	} {
		h := http.Header{}
		for _, v := range tc.header {
			h.Add("X-Forwarded-For", v)
		}
		if got := Strict(h, names, tc.peer, trusted); got.String() != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	if got := Peer("@"); got.IsValid() {
		t.Errorf("a Unix socket's peer: %s", got)
	}
}
