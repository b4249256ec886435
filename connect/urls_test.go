package connect

import (
	"net/url"
	"strings"
	"testing"
)

func TestNormalizePageURL(t *testing.T) {
	tests := []struct {
		in, want string // want "" = refused
	}{
		{in: "/pricing", want: testOrigin + "/pricing"},
		{in: testOrigin, want: testOrigin + "/"},
		{in: "HTTPS://Shop.Example:443/Docs/?a=1#top", want: testOrigin + "/Docs/?a=1"},
		{in: "  /padded  ", want: testOrigin + "/padded"},
		{in: "/caf%C3%A9", want: testOrigin + "/caf%C3%A9"},
		{in: "/a%2Fb", want: testOrigin + "/a%2Fb"},
		{in: "https://shop.example:8443/x"},
		{in: "https://shop.example.evil.example/x"},
		{in: "http://shop.example/x"},
		{in: "//evil.example/x"},
		{in: "javascript:alert(1)"},
		{in: "mailto:hello@shop.example"},
		{in: "x"},
		{in: ""},
		{in: "/a/../b"},
		{in: "/a/./b"},
		{in: "/a/%2e%2E/b"},
		{in: "/a/.%2e"},
		{in: "/a%2f..%2fb"},
		{in: "/a\\b"},
		{in: "/a\nb"},
		{in: "/" + strings.Repeat("a", maxURLLength)},
		{in: "https://user:pw@shop.example/"},
		{in: "/%zz"},
	}
	for _, tt := range tests {
		got, err := normalizePageURL(testOrigin, tt.in)
		if tt.want == "" {
			if err == nil {
				t.Errorf("normalizePageURL(%q) = %q, want refused", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("normalizePageURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestParseOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"https://Example.COM":      "https://example.com",
		"https://example.com/":     "https://example.com",
		"http://example.com:80":    "http://example.com",
		"https://example.com:443":  "https://example.com",
		"https://example.com:8443": "https://example.com:8443",
		"https://[::1]:443":        "https://[::1]",
		"http://127.0.0.1:8080":    "http://127.0.0.1:8080",
	} {
		if got, err := parseOrigin(in); err != nil || got != want {
			t.Errorf("parseOrigin(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// FuzzNormalizePageURL checks that an accepted URL is on the origin, free of
// dot segments, and a fixed point of normalisation.
func FuzzNormalizePageURL(f *testing.F) {
	for _, s := range []string{"/a", testOrigin + "/b?c#d", "//x", "/%2e%2e", "HTTPS://SHOP.EXAMPLE:443", "/a/b/../c", "\\\\x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := normalizePageURL(testOrigin, in)
		if err != nil {
			return
		}
		if !strings.HasPrefix(got, testOrigin+"/") {
			t.Fatalf("%q -> %q leaves the origin", in, got)
		}
		u, err := url.Parse(got)
		if err != nil || hasDotSegment(u.EscapedPath()) {
			t.Fatalf("%q -> %q: %v or dot segments", in, got, err)
		}
		again, err := normalizePageURL(testOrigin, got)
		if err != nil || again != got {
			t.Fatalf("%q -> %q -> %q, %v: not idempotent", in, got, again, err)
		}
	})
}
