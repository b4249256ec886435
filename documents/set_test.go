package documents

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"testing"
)

// appendOrigin writes originOf's answer for an ASCII host, and declines
// any other (strings.ToLower lowers more than ASCII letters).
func TestAppendOrigin(t *testing.T) {
	for _, tc := range []struct {
		host string
		tls  bool
		ok   bool
	}{
		{"example.com", false, true},
		{"Example.COM:8080", true, true},
		{"[::1]:443", true, true},
		{"", false, true},
		{"ÉXAMPLE.com", false, false},
	} {
		r := httptest.NewRequest(http.MethodGet, "http://x/", nil)
		r.Host = tc.host
		if tc.tls {
			r.TLS = &tls.ConnectionState{}
		}
		got, ok := appendOrigin(nil, r)
		if ok != tc.ok || ok && string(got) != originOf(r) {
			t.Errorf("%q: %q, %v; want %q, %v", tc.host, got, ok, originOf(r), tc.ok)
		}
	}
}
