package negotiate

import (
	"net/http"
	"net/url"
	"strings"
)

// The response path: a suffix URL whose page the origin redirects to its
// directory index is followed here, not by the client.

// nextFollowingSlash calls next, for a request that came through the
// Markdown suffix. `/docs/md` names the page `/docs`, and the alternate
// advertised for a directory index `/docs/` is `/docs/md` too; an origin
// that serves the index redirects `/docs` to `/docs/` (file servers do,
// WordPress does). A client that uses the suffix because it cannot negotiate
// would follow that redirect to the HTML, so the handler follows it itself,
// once, when it only adds the trailing slash (to the client's path or to the
// one next was given), and names `/docs/` as the page.
//
// The page request Handler.Reenter was given follows it the same way: the
// page with its slash enters the route chain from the top again (see
// followByReentry), so that every handler in front judges `/docs/` too.
// Without Reenter, next is asked for `/docs/` directly.
//
// It calls next rather than wrapping it in a closure: next is then never
// kept beyond the call, so a caller's method value (Caddy's
// next.ServeHTTP) needs no allocation on any request.
func (rw *responseWriter) nextFollowingSlash(next Next, w http.ResponseWriter, r *http.Request) error {
	pub := rw.pubPath
	if strings.HasSuffix(rw.pagePath, "/") || strings.HasSuffix(pub, "/") || rw.mark == markFollowed {
		return next(w, r) // nothing to add a slash to, or added once already
	}
	c := &slashCatcher{w: w, header: make(http.Header), host: r.Host,
		want: [2]string{rw.pagePath + "/", pub + "/"}, query: [2]string{r.URL.RawQuery, rw.public.RawQuery}}
	if err := next(c, r); err != nil || !c.caught {
		return err
	}
	if rw.mark == markPage && rw.h.Reenter != nil {
		return rw.followByReentry(c)
	}
	rw.setPublicPath(pub + "/")
	rw.pagePath = c.want[0]
	r2 := r.Clone(r.Context())
	setEscapedPath(r2.URL, c.want[0])
	return next(w, r2)
}

// followByReentry answers the page request, whose slash redirect c caught,
// with the page's path plus the slash, handed to Handler.Reenter (as the
// client's own request for it would enter the server) and answered on the
// client's writer: this responseWriter was given nothing, so it ends
// without writing anything. The request is marked as followed, so it
// follows no redirect of its own.
func (rw *responseWriter) followByReentry(c *slashCatcher) error {
	r2 := reentry(rw.r, markFollowed, c.want[1], rw.public.RawQuery)
	if rw.h.reenter(rw.w, r2) {
		return nil
	}
	c.replay() // cannot happen: the page request came through Reenter
	return nil
}

// slashCatcher passes a response through, unless it is a redirect to the
// same path with a trailing slash: that one is swallowed.
type slashCatcher struct {
	w      http.ResponseWriter
	header http.Header
	want   [2]string // escaped paths with the trailing slash: next's, the client's
	query  [2]string // the queries a redirect may keep: next's, the client's
	host   string
	wrote  bool
	caught bool
	status int // of the caught redirect
}

func (c *slashCatcher) Header() http.Header {
	if c.wrote && !c.caught {
		return c.w.Header()
	}
	return c.header
}

func (c *slashCatcher) WriteHeader(status int) {
	if c.wrote {
		return
	}
	if status >= 100 && status < 200 {
		c.w.WriteHeader(status) // informational: the final status follows
		return
	}
	c.wrote = true
	if c.isSlashRedirect(status) {
		c.caught, c.status = true, status
		return
	}
	dst := c.w.Header()
	for k, v := range c.header {
		dst[k] = v
	}
	c.w.WriteHeader(status)
}

func (c *slashCatcher) isSlashRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
	default:
		return false
	}
	loc, err := url.Parse(c.header.Get("Location"))
	if err != nil || loc.Fragment != "" || loc.User != nil || loc.Opaque != "" {
		return false
	}
	if loc.RawQuery != "" && loc.RawQuery != c.query[0] && loc.RawQuery != c.query[1] {
		return false // a redirect that changes the query is another page
	}
	if (loc.Host != "" || loc.Scheme != "") && !strings.EqualFold(loc.Host, c.host) {
		return false
	}
	p := loc.EscapedPath()
	return p == c.want[0] || p == c.want[1]
}

// replay sends the caught redirect on as it came (without its body).
func (c *slashCatcher) replay() {
	dst := c.w.Header()
	for k, v := range c.header {
		dst[k] = v
	}
	delete(dst, "Content-Length")
	c.w.WriteHeader(c.status)
}

func (c *slashCatcher) Write(p []byte) (int, error) {
	if !c.wrote {
		c.WriteHeader(http.StatusOK)
	}
	if c.caught {
		return len(p), nil // the redirect's body: nobody reads it
	}
	return c.w.Write(p)
}

// Flush passes on a flush of a response that is not swallowed.
func (c *slashCatcher) Flush() {
	if c.wrote && !c.caught {
		if f, ok := c.w.(http.Flusher); ok {
			f.Flush()
		}
	}
}

// Unwrap lets http.ResponseController reach the writer underneath.
func (c *slashCatcher) Unwrap() http.ResponseWriter { return c.w }
