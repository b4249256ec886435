package negotiate

import (
	"bytes"
	"io"
	"net/http"
	"strconv"

	"github.com/agentready/caddy-agentready/internal/canon"
)

// The response path: the http.ResponseWriter that next writes to. It
// chooses the form on the final status (decide), passes the body to it, and
// ends it once next returned (finish, abort).

// WriteHeader passes 1xx informational responses on at once (103 Early Hints
// must not wait) and decides the form on the final status.
func (rw *responseWriter) WriteHeader(status int) {
	if rw.mode != modeUndecided {
		if rw.mode == modePass || rw.mode == modeRewrite {
			rw.w.WriteHeader(status) // superfluous: let net/http report it
		}
		return
	}
	if status >= 100 && status <= 199 && status != http.StatusSwitchingProtocols {
		rw.w.WriteHeader(status)
		return
	}
	rw.decide(status)
}

// Write sends, rewrites or buffers p according to the decision, taking it
// with status 200 when next did not call WriteHeader.
func (rw *responseWriter) Write(p []byte) (int, error) {
	if rw.mode == modeUndecided {
		if len(p) == 0 {
			return 0, nil
		}
		hdr := rw.Header()
		// net/http would sniff the type at this point; we need it to decide.
		if _, ok := hdr["Content-Type"]; !ok && len(hdr["Content-Encoding"]) == 0 {
			hdr.Set("Content-Type", http.DetectContentType(p))
		}
		rw.decide(http.StatusOK)
	}
	switch rw.mode {
	case modeRewrite:
		return rw.rewriter.Write(p)
	case modeDiscard:
		return len(p), nil
	case modeCached:
		rw.dropped += len(p)
		return len(p), nil
	case modeBuffer:
		if int64(rw.buf.Len()+len(p)) <= rw.h.Options.MaxSize {
			return rw.buf.Write(p)
		}
		// Too big to convert: send what we have and stream the rest.
		rw.failOpen("too_large", ErrTooLarge)
	case modeBufferHTML:
		if len(*rw.html)+len(p) <= maxPlannedPage {
			*rw.html = append(*rw.html, p...)
			return len(p), nil
		}
		if rw.coding != "" {
			// Over the bound of a compressed page (its length was not
			// known): it goes out as the origin sent it.
			rw.h.Observer.FailOpen(rw.r, "rewrite_size", errEncodedSize)
			rw.pass(http.StatusOK, "html")
			_, err := rw.w.Write(*rw.html)
			rw.dropPage()
			if err != nil {
				return 0, err
			}
			return rw.Write(p)
		}
		// Longer than its Content-Length said: stream it after all.
		rw.startRewrite(rw.inj)
		_, err := rw.rewriter.Write(*rw.html)
		rw.dropPage()
		if err != nil {
			return 0, err
		}
		return rw.Write(p)
	}
	if rw.headGet {
		return len(p), nil // the GET's body, which the HEAD does not get
	}
	return rw.w.Write(p)
}

// Flush is http.Flusher; see FlushError.
func (rw *responseWriter) Flush() { _ = rw.FlushError() }

// FlushError flushes what has been decided. Before the decision it commits
// a response that will not be buffered (an event stream that flushes its
// headers before any event, say), and otherwise does nothing: the original
// headers must not go out before we know the form. While buffering it does
// nothing.
func (rw *responseWriter) FlushError() error {
	if rw.mode == modeUndecided {
		if rw.Header().Get("Content-Type") == "" || rw.wouldBuffer(http.StatusOK) {
			return nil
		}
		rw.decide(http.StatusOK)
	}
	if rw.mode != modePass && rw.mode != modeRewrite {
		return nil // a flush would commit headers not yet decided on
	}
	if rw.rc == nil {
		rw.rc = http.NewResponseController(rw.w)
	}
	return rw.rc.Flush()
}

// wouldBuffer reports whether a final status would start buffering.
func (rw *responseWriter) wouldBuffer(status int) bool {
	return rw.wantMD && (rw.r.Method == http.MethodGet || rw.headGet) && status == http.StatusOK &&
		isHTML(rw.Header().Get("Content-Type")) && !hasToken(rw.Header()["Cache-Control"], "no-transform")
}

// decide chooses what to do with a response whose final status is known.
func (rw *responseWriter) decide(status int) {
	rw.status = status
	hdr := rw.Header()
	// The type is parsed once here: a stylesheet's used to be parsed three
	// times (see trimOWS for what both changes saved).
	html, markdown := pageKind(canon.Get(hdr, "Content-Type"))
	switch {
	case status == http.StatusPartialContent, status == http.StatusSwitchingProtocols,
		hasToken(hdr["Cache-Control"], "no-transform"):
		// RFC 9110 §14.4/§15.3.7: a range of the HTML is not a range of any
		// other form; RFC 9111 §5.2.2.6: no-transform binds us. Untouched.
		rw.pass(status, "passthrough")
	case status == http.StatusNotModified:
		// RFC 9110 §15.4.5: a 304 carries the Vary and ETag the 200 would.
		AddVary(hdr, "Accept")
		if rw.wantMD {
			rw.markdownNotModified()
			return
		}
		rw.pass(status, "passthrough")
	case rw.wantMD && status == http.StatusOK && html:
		rw.startMarkdown()
	case status == http.StatusOK && html:
		rw.startHTML()
	case rw.viaSuffix && status == http.StatusOK && !markdown:
		rw.noMarkdownForm()
	default:
		if html || markdown {
			AddVary(hdr, "Accept") // another Accept might have got another form
		}
		rw.pass(status, "passthrough")
	}
}

// noMarkdownForm answers 404 to a suffix URL whose page is not HTML
// (/favicon.svg/md, /robots.txt/md): the suffix names the Markdown form of
// an HTML page, and nothing else has one (RFC 9110 §15.5.5). The origin's
// body and the headers that describe it are dropped.
func (rw *responseWriter) noMarkdownForm() {
	hdr := rw.Header()
	dropHeaders(hdr, notFoundDrops)
	hdr.Set("Content-Type", "text/plain; charset=utf-8")
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Length", strconv.Itoa(len(noMarkdownBody)))
	rw.mode = modeDiscard
	rw.w.WriteHeader(http.StatusNotFound)
	rw.h.Observer.Served(rw.r, "passthrough")
	if rw.r.Method != http.MethodHead {
		_, _ = io.WriteString(rw.w, noMarkdownBody)
	}
}

const noMarkdownBody = "404 not found: only HTML pages have a Markdown form\n"

// notFoundDrops are the headers of the origin's response that describe its
// body or its caching, wrong for the 404 sent in its place.
var notFoundDrops = append([]string{
	"Content-Type", "Content-Disposition", "Content-Language", "Content-Location",
	"Etag", "Last-Modified", "Cache-Control", "Expires",
}, representationHeaders...)

// abort drops the response after next returned an error: a buffered body is
// discarded unwritten so an error handler can still answer.
func (rw *responseWriter) abort() {
	if rw.rewriter != nil {
		_ = rw.rewriter.Close()
	}
	rw.buf = bytes.Buffer{}
	rw.cached = nil
	rw.dropPage()
	rw.releaseAdmission()
}

// finish completes the response after next returned.
func (rw *responseWriter) finish() {
	switch rw.mode {
	case modeCached:
		rw.h.Observer.Converted(rw.r, rw.cachedTook, rw.dropped, len(rw.cached.Markdown), rw.cached.Tokens)
		rw.serveMarkdown(rw.cached)
	case modeBuffer:
		rw.convert()
	case modeRewrite:
		rw.closeRewrite()
	case modeBufferHTML:
		rw.finishHTML()
	}
	rw.releaseAdmission()
	// modeUndecided: next wrote neither status nor body; like Caddy's encode
	// (issue #5059) we leave the default response to the server.
}

// isHTML reports whether a Content-Type names an HTML page.
func isHTML(ct string) bool {
	html, _ := pageKind(ct)
	return html
}

// pageKind reports whether a Content-Type names an HTML page or a
// Markdown one.
func pageKind(ct string) (html, markdown bool) {
	if isCommonHTML(ct) {
		return true, false
	}
	typ, sub, _, ok := splitMediaType(ct)
	if !ok {
		return false, false
	}
	return typ == "text" && sub == "html" || typ == "application" && sub == "xhtml+xml",
		typ == "text" && (sub == "markdown" || sub == "x-markdown")
}
