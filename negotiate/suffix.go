package negotiate

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// The response path: the Markdown suffix URL (/pricing/md) and the page
// request it is served as. It needs only the Handler.

// pagePath splits a request path into the page it names and whether it
// carried the Markdown suffix: "/pricing/md" -> "/pricing", "/md" -> "/".
// A page whose path ends in a slash (a directory index) has its suffix URL
// end in a slash too, so the two never collide: "/docs/md/" -> "/docs/",
// while "/docs/md" names "/docs".
func (h *Handler) pagePath(path string) (string, bool) {
	if h.suffix == "" {
		return path, false
	}
	if strings.HasSuffix(path, h.suffix+"/") {
		return strings.TrimSuffix(path, h.suffix+"/") + "/", true
	}
	if !strings.HasSuffix(path, h.suffix) {
		return path, false
	}
	page := strings.TrimSuffix(path, h.suffix)
	if page == "" {
		page = "/"
	}
	return page, true
}

// suffixKey marks, in a request's context, a request for a page that a
// client asked for through the Markdown suffix.
type suffixKey struct{}

// SuffixRequest reports whether r is the page request that Handler.Reenter
// was given for a suffix URL: it gets the Markdown form, and only a page's
// HTML has one.
func SuffixRequest(r *http.Request) bool {
	v, _ := r.Context().Value(suffixKey{}).(bool)
	return v
}

// pageRequest is the request for the page a suffix URL names: the same
// request with the page's path (and request URI, which front controllers
// such as PHP's read instead of the path), asking for Markdown, marked so
// that it is served as the suffix form.
func pageRequest(r *http.Request, page string) *http.Request {
	r2 := r.Clone(context.WithValue(r.Context(), suffixKey{}, true))
	setEscapedPath(r2.URL, page)
	r2.RequestURI = r2.URL.RequestURI()
	r2.Header.Set("Accept", suffixAccept)
	return r2
}

// suffixAccept is the Accept of a page asked for through the suffix: the
// Markdown form, or the HTML to convert into it.
const suffixAccept = "text/markdown, text/html;q=0.9"

// setEscapedPath sets the path of u from its escaped form, keeping the
// escaping when it differs from the default one.
func setEscapedPath(u *url.URL, escaped string) {
	p, err := url.PathUnescape(escaped)
	if err != nil {
		return // cannot happen: escaped was cut from a parsed path
	}
	u.Path, u.RawPath = p, escaped
	if u.EscapedPath() != escaped {
		u.RawPath = ""
	}
}
