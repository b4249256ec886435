// Package canon reads HTTP header fields without the cost of net/http's
// canonicalization, for the request path.
package canon

import "net/http"

// Get is h.Get(key) for a key written in canonical form, as net/http
// keeps the keys of the headers it parses ("Etag", "Content-Type"): http.Header.Get
// canonicalizes its argument on every call (about 390 instructions for
// Content-Type), which the request path asks for several times a
// response.
func Get(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}
