package negotiate

import (
	"net/http"
	"net/url"
	"strings"
)

// The response path: a suffix URL whose page the origin redirects to its
// directory index is followed here, not by the client.

// followSlash wraps next for a request that came through the Markdown
// suffix. `/docs/md` names the page `/docs`, and the alternate advertised
// for a directory index `/docs/` is `/docs/md` too; an origin that serves
// the index redirects `/docs` to `/docs/` (file servers do). A client that
// uses the suffix because it cannot negotiate would follow that redirect to
// the HTML, so the handler follows it itself, once, when it only adds the
// trailing slash, and names `/docs/` as the page.
func (rw *responseWriter) followSlash(next Next) Next {
	if strings.HasSuffix(rw.pagePath, "/") {
		return next
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		c := &slashCatcher{w: w, header: make(http.Header), want: rw.pagePath + "/", host: r.Host}
		if err := next(c, r); err != nil || !c.caught {
			return err
		}
		if pub := rw.public.EscapedPath(); !strings.HasSuffix(pub, "/") {
			setEscapedPath(&rw.public, pub+"/")
		}
		rw.pagePath = c.want
		r2 := r.Clone(r.Context())
		setEscapedPath(r2.URL, c.want)
		return next(w, r2)
	}
}

// slashCatcher passes a response through, unless it is a redirect to the
// same path with a trailing slash: that one is swallowed.
type slashCatcher struct {
	w      http.ResponseWriter
	header http.Header
	want   string // escaped path with the trailing slash
	host   string
	wrote  bool
	caught bool
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
		c.caught = true
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
	if err != nil || loc.RawQuery != "" || loc.Fragment != "" {
		return false
	}
	if loc.Host != "" && !strings.EqualFold(loc.Host, c.host) {
		return false
	}
	return loc.EscapedPath() == c.want
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
