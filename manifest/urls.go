package manifest

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// parseOrigin parses scheme://host[:port] with nothing after it but an
// optional "/" (RFC 6454 §4: an origin is scheme, host and port).
func parseOrigin(s string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSuffix(s, "/"))
	if err != nil {
		return nil, fmt.Errorf("invalid origin %q: %v", s, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("want an absolute origin such as https://example.com, got %q", s)
	}
	if u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, errors.New("an origin has no path, query, fragment or user info: " + s)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	// RFC 3986 §6.2.3: the scheme's default port is the same origin.
	if (u.Scheme == "https" && u.Port() == "443") || (u.Scheme == "http" && u.Port() == "80") {
		u.Host = u.Hostname()
	}
	return u, nil
}

// sameOrigin compares scheme, host and port (RFC 6454 §5).
func sameOrigin(a, b *url.URL) bool {
	norm := func(u *url.URL) string {
		port := u.Port()
		if port == "" {
			port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
		}
		return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
	}
	return norm(a) == norm(b)
}

// abs resolves a site-relative path against the origin; absolute URLs pass
// through unchanged, and "" stays "".
func (r *resolved) abs(u string) string {
	if u == "" || !strings.HasPrefix(u, "/") || strings.HasPrefix(u, "//") {
		return u
	}
	return r.origin + u
}
