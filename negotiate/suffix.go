package negotiate

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
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
// client asked for through the Markdown suffix. Its value is a suffixMark.
type suffixKey struct{}

// suffixMark says how far a suffix URL's page request has come: the
// page's own request (Handler.Reenter's), or the one after the origin's
// add-a-slash redirect was followed. Each is made once, so one client
// request enters the route chain at most twice more and is answered once.
type suffixMark uint8

const (
	markPage     suffixMark = iota + 1 // the page the suffix URL names
	markFollowed                       // the page after its slash redirect
)

// SuffixRequest reports whether r is the page request that Handler.Reenter
// was given for a suffix URL: it gets the Markdown form, and only a page's
// HTML has one. It answers for a request asked while the Reenter call that
// was given it is under way (the route chain serving it, as Reenter must);
// asked after that call returned, it reports false.
func SuffixRequest(r *http.Request) bool {
	return markOf(r) != 0
}

func markOf(r *http.Request) suffixMark {
	if reentering.Load() == 0 {
		return 0 // no request is marked now: the context is not walked
	}
	m, _ := r.Context().Value(suffixKey{}).(suffixMark)
	return m
}

// reentering counts the calls of Handler.Reenter under way. A marked
// request exists only inside one: reentry makes it for that call, and
// Reenter serves it before returning (the route chain runs in the
// caller's goroutine). While none is under way no request can be marked,
// and markOf answers without walking the request's context, about 500
// instructions each of the three times a request asks (twice in Caddy's
// glue).
var reentering atomic.Int64

// reenter calls h.Reenter with the marked request r, counted in
// reentering.
func (h *Handler) reenter(w http.ResponseWriter, r *http.Request) bool {
	reentering.Add(1)
	defer reentering.Add(-1)
	return h.Reenter(w, r)
}

// reentry is r for the page at the escaped path page with the query
// rawQuery (and the request URI of both, which front controllers such as
// PHP's read instead of the path), asking for Markdown, marked m: the
// client's other headers and credentials are kept. The page and query are
// the client's own (Handler.ClientURL), never what a rewrite or
// handle_path in front of this handler made of them: the request enters
// the route chain from the top again, where those apply once more.
func reentry(r *http.Request, m suffixMark, page, rawQuery string) *http.Request {
	r2 := r.Clone(context.WithValue(r.Context(), suffixKey{}, m))
	setEscapedPath(r2.URL, page)
	r2.URL.RawQuery = rawQuery
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
