package negotiate

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/agentready/caddy-agentready/negotiate/htmlrewrite"
)

// The response path: the response writer's state, what the request asks
// for (newResponseWriter, originRequest) and what every form uses (Header,
// pass). On it build respond.go (what both forms carry), slash.go (a suffix
// URL's redirect), html.go and markdown.go (the forms), writer.go (the
// choice between them) and serve.go.

// mode is what a responseWriter does with the body it is given.
type mode int

const (
	modeUndecided  mode = iota // no final status yet: headers are still ours to change
	modePass                   // streaming straight to the client
	modeRewrite                // streaming through the HTML rewriter
	modeBuffer                 // collecting a page to convert
	modeBufferHTML             // collecting a small HTML page to rewrite whole
	modeDiscard                // the answer is complete (304, HEAD): body dropped
	modeCached                 // Markdown from the cache, sent at the end: body dropped
)

// responseWriter sits between next and the client. It decides the form when
// the final status is known (WriteHeader, or the first Write), and until then
// holds the headers back: a Flush before the decision does not push them out.
type responseWriter struct {
	w   http.ResponseWriter
	hdr http.Header // w.Header(), once asked for (Header)
	h   *Handler
	r   *http.Request // the client's request
	rc  *http.ResponseController

	wantMD      bool       // the client gets Markdown if the page allows
	viaSuffix   bool       // asked through the Markdown suffix
	mark        suffixMark // the page request Handler.Reenter was given: how far it came
	reenter     string     // a suffix URL's page, escaped, to hand to Handler.Reenter
	noTransform bool       // request Cache-Control: no-transform (RFC 9111 §5.2.1.6)
	pagePath    string     // escaped path of the page, suffix removed
	mdTags      []string   // If-None-Match members that validate the Markdown form
	spare       []string   // slots for setValue, left in commonHeaders' array
	headGet     bool       // a HEAD for Markdown, asked of next as a GET (see originRequest)
	// public is the page's path and query as the client asked for them
	// (Handler.ClientURL; the suffix removed): what the page's address, its
	// Markdown alternate and the front matter's canonical are built from.
	public url.URL
	// pubPath is public.EscapedPath(), worked out once (setPublic,
	// setPublicPath): a path is escaped byte by byte.
	pubPath string
	// client is what Handler.ClientURL answered (nil for nothing), for
	// Handler.InjectAt.
	client *url.URL
	// pageAt is the page's address given to Handler.Cached (cachePage).
	pageAt url.URL

	mode     mode
	status   int
	buf      bytes.Buffer
	rewriter io.WriteCloser
	release  func() // gives back what Handler.Admit granted; nil when nothing is held

	// modeCached: the conversion the cache had, how long asking took, and
	// the bytes of the origin's page dropped meanwhile.
	cached     *Converted
	cachedTook time.Duration
	dropped    int

	// modeBufferHTML: the page so far (from pageBufPool), what it gets and
	// its content coding.
	html   *[]byte
	inj    *Injection
	coding string

	// What this HTML page gets (injection) and room for its head elements.
	injected Injection
	head     [4]HeadElement

	// An HTML page's name for the rewrite plans (pageID), when it has one,
	// and the writer of a page streamed through its plan (startPlanned).
	id      htmlrewrite.PageID
	named   bool
	planned *htmlrewrite.PlanWriter // from planWriterPool
}

// writerPool keeps responseWriters between requests: a response that
// passes through allocates none (one allocation of 300 B a request,
// BenchmarkServeHTTPOverhead "not html": 6 -> 5 allocations).
var writerPool = sync.Pool{New: func() any { return new(responseWriter) }}

func (h *Handler) newResponseWriter(w http.ResponseWriter, r *http.Request) *responseWriter {
	rw := writerPool.Get().(*responseWriter)
	*rw = responseWriter{w: w, h: h, r: r, pagePath: r.URL.EscapedPath()}
	u := r.URL
	if h.ClientURL != nil {
		if rw.client = h.ClientURL(r); rw.client != nil {
			u = rw.client
		}
	}
	rw.setPublic(u, r.URL, rw.pagePath)
	rw.noTransform = hasToken(r.Header["Cache-Control"], "no-transform")
	if rw.noTransform {
		return rw // a transformation is what the client asked us not to do
	}
	if rw.mark = markOf(r); rw.mark != 0 {
		// Handed back by Reenter: the path is already the page's.
		rw.viaSuffix, rw.wantMD = true, true
		return rw
	}
	if h.Reenter != nil {
		// A suffix URL is one the client sent: its own path decides, and
		// its page goes back to the top of the route chain from there.
		if page, ok := h.pagePath(rw.pubPath); ok {
			rw.reenter = page
			return rw
		}
		rw.wantMD = PrefersMarkdown(joinLines(r.Header["Accept"]))
		return rw
	}
	rw.fromPath()
	return rw
}

// fromPath decides the form from the path next is given, for a handler
// without Reenter (or whose Reenter could not serve): a suffix URL's page
// is asked of next directly, else the Accept header decides.
func (rw *responseWriter) fromPath() {
	page, ok := rw.h.pagePath(rw.pagePath)
	if !ok {
		rw.wantMD = PrefersMarkdown(joinLines(rw.r.Header["Accept"]))
		return
	}
	rw.pagePath, rw.viaSuffix, rw.wantMD = page, true, true
	if pub, ok := rw.h.pagePath(rw.pubPath); ok {
		rw.setPublicPath(pub)
	} else {
		rw.setPublicPath(page)
	}
}

// free gives rw back to writerPool once the response is complete: next
// has returned and nothing of rw is referenced any more (a ResponseWriter
// must not be used after its handler returns).
func (rw *responseWriter) free() {
	if pw := rw.planned; pw != nil {
		pw.Reset(nil, htmlrewrite.Plan{}) // its buffers kept, nothing of this page
		planWriterPool.Put(pw)
	}
	*rw = responseWriter{}
	writerPool.Put(rw)
}

// planWriterPool keeps the writers of the pages streamed through their
// plans, with their buffers (one allocation a planned page less), apart
// from the responseWriters: most responses need none, and each would
// copy and clear one twice.
var planWriterPool = sync.Pool{New: func() any { return new(htmlrewrite.PlanWriter) }}

// setPublic keeps the path and query of u, copied: a handler after this
// one may rewrite the request's URL in place. When u's path is that of
// the request's URL (no rewrite in front), whose escaped form is escaped,
// that form is not worked out again.
func (rw *responseWriter) setPublic(u, request *url.URL, escaped string) {
	rw.public = url.URL{Path: u.Path, RawPath: u.RawPath, RawQuery: u.RawQuery}
	if u.Path == request.Path && u.RawPath == request.RawPath {
		rw.pubPath = escaped
	} else {
		rw.pubPath = rw.public.EscapedPath()
	}
}

// setPublicPath sets the path of public from its escaped form (see
// setEscapedPath).
func (rw *responseWriter) setPublicPath(escaped string) {
	setEscapedPath(&rw.public, escaped)
	rw.pubPath = rw.public.EscapedPath()
}

func joinLines(lines []string) string {
	if len(lines) == 1 {
		return lines[0]
	}
	return strings.Join(lines, ", ")
}

// originRequest returns the request to send to next: r itself when nothing
// needs changing, else a copy without the validators and ranges that do not
// apply to the form the client will get.
func (rw *responseWriter) originRequest(r *http.Request) *http.Request {
	inm := r.Header["If-None-Match"]
	if !rw.wantMD {
		if len(inm) == 0 {
			return r
		}
		// Our -md tags never reach the origin (it did not issue them).
		origin, md := SplitIfNoneMatch(joinLines(inm))
		if len(md) == 0 {
			return r
		}
		r2 := r.Clone(r.Context())
		setIfNoneMatch(r2.Header, origin)
		return r2
	}
	if !rw.viaSuffix && r.Method == http.MethodGet && len(inm) == 0 && len(r.Header["Range"]) == 0 && len(r.Header["If-Range"]) == 0 {
		return r // nothing to change: no copy (6 allocations of a Markdown request)
	}
	r2 := r.Clone(r.Context())
	if rw.viaSuffix {
		setEscapedPath(r2.URL, rw.pagePath)
		r2.Header.Set("Accept", suffixAccept)
	}
	if r.Method == http.MethodHead {
		// RFC 9110 §9.3.2: HEAD gets the header fields GET would, and the
		// Markdown's Content-Length and token count exist only once the
		// page is converted: the page is asked for with GET, converted,
		// and only the body is left out.
		r2.Method = http.MethodGet
		rw.headGet = true
	}
	// RFC 9110 §14.2: a server may ignore Range; the Markdown form is always
	// sent whole, so the origin must send the whole page too.
	r2.Header.Del("Range")
	r2.Header.Del("If-Range")
	if len(inm) > 0 {
		// Only the client's Markdown tags validate the Markdown form; the
		// origin sees them as the tags it issued, so its 304 means the
		// client's Markdown is current. An HTML tag must not validate it.
		origin, md := SplitIfNoneMatch(joinLines(inm))
		var fwd []string
		etagList(origin, func(m string, _ bool) {
			if m == "*" {
				fwd = append(fwd, m)
				rw.mdTags = append(rw.mdTags, m)
			}
		})
		for _, t := range md {
			fwd = append(fwd, originTag(t))
		}
		rw.mdTags = append(rw.mdTags, md...)
		setIfNoneMatch(r2.Header, strings.Join(fwd, ", "))
	}
	return r2
}

// setIfNoneMatch forwards v as If-None-Match, or none when v is empty. The
// client sent an If-None-Match, so it also drops If-Modified-Since: a
// recipient ignores that one when If-None-Match is present (RFC 9110
// §13.1.3), and it must not come back to life for the origin just because
// the tags that were meant for the other form were removed.
func setIfNoneMatch(h http.Header, v string) {
	h.Del("If-Modified-Since")
	if v == "" {
		h.Del("If-None-Match")
		return
	}
	h.Set("If-None-Match", v)
}

// Header returns the live header map of the underlying writer: changes made
// by next before the decision are what the decision looks at. The map is
// asked for once and kept: a writer's Header is the one map its response
// is sent with (which next relies on too), and asking goes through every
// writer wrapped below (Caddy's, the traffic counts': about 40
// instructions a call, a dozen calls a page).
func (rw *responseWriter) Header() http.Header {
	if rw.hdr == nil {
		rw.hdr = rw.w.Header()
	}
	return rw.hdr
}

// Unwrap returns the underlying ResponseWriter, for http.ResponseController.
func (rw *responseWriter) Unwrap() http.ResponseWriter { return rw.w }

// pass commits status and streams the body through.
func (rw *responseWriter) pass(status int, form string) {
	rw.mode = modePass
	rw.w.WriteHeader(status)
	rw.h.Observer.Served(rw.r, form)
}
