package negotiate

import (
	"bytes"
	"errors"
	"html"
	"net/http"
	"strconv"
	"strings"

	"golang.org/x/net/html/charset"

	"github.com/agentready/caddy-agentready/negotiate/htmlrewrite"
)

// The response path: the HTML form, the head injection and its rewrite,
// streamed or whole; and the origin's bytes as they came when a form fails
// (failOpen).

// startHTML commits a 200 HTML page: discovery headers, and the rewrite
// when something is to be injected. A page its origin names (pageID) whose
// last copy was rewritten streams through that copy's plan (startPlanned).
// Otherwise a page whose Content-Length is at most maxPlannedPage is
// collected and rewritten whole at the end (finishHTML); any other streams
// through the rewriter, which records its plan when the page is named.
func (rw *responseWriter) startHTML() {
	rw.htmlHeaders()
	inj, coding := rw.injection()
	if inj == nil {
		rw.pass(http.StatusOK, "html")
		return
	}
	length, err := strconv.ParseInt(firstValue(rw.Header(), "Content-Length"), 10, 64)
	if err != nil {
		length = -1
	}
	rw.id, rw.named = rw.pageID(coding, length)
	if rw.named {
		if pl, ok := htmlrewrite.LookupPlan(rw.h.plans, rw.id, inj); ok {
			rw.startPlanned(pl)
			return
		}
	}
	switch {
	case rw.r.Method == http.MethodHead:
		rw.rewriteHeaders()
		rw.pass(http.StatusOK, "html")
	case length >= 0 && length <= maxPlannedPage:
		rw.inj, rw.coding, rw.mode = inj, coding, modeBufferHTML
		rw.html = pageBufPool.Get().(*[]byte)
	default:
		rw.startRewrite(inj, coding)
	}
}

// pageID names the page's bytes for the rewrite plans by what its origin
// promises about them (htmlrewrite.PageID): the page's address, its strong
// entity tag, which changes whenever its bytes do (RFC 9110 §8.8.3), and
// its Content-Length. A page with a weak tag or none, of unknown length,
// or in a content coding (its plan would be of the decoded bytes, which
// must be decoded anyway) has no name.
func (rw *responseWriter) pageID(coding string, length int64) (htmlrewrite.PageID, bool) {
	etag := firstValue(rw.Header(), "Etag")
	if rw.h.plans == nil || coding != "" || length < 0 || !strings.HasPrefix(etag, `"`) {
		return htmlrewrite.PageID{}, false
	}
	return htmlrewrite.PageID{Host: rw.r.Host, Path: rw.public.Path, Query: rw.public.RawQuery, ETag: etag, Length: length}, true
}

// startPlanned commits a page that streams through the plan of its last
// copy: it is neither held, nor hashed, nor read as HTML, and goes out
// with its exact length (a HEAD gets that length too). What it saves, a
// 1 MiB page with the demo's annotations: 8.5M instructions a request read
// as HTML, 35k through its plan (caddymodule's BenchmarkServeHTTPOverhead).
func (rw *responseWriter) startPlanned(pl htmlrewrite.Plan) {
	rw.rewriteHeaders()
	rw.Header().Set("Content-Length", strconv.FormatInt(pl.Len(), 10))
	if rw.r.Method == http.MethodHead {
		rw.pass(http.StatusOK, "html")
		return
	}
	rw.planned.Reset(rw.w, pl) // in the pooled writer: one allocation less a request
	rw.rewriter = &rw.planned
	rw.mode, rw.sent = modeRewrite, true
	rw.w.WriteHeader(http.StatusOK)
	rw.h.Observer.Served(rw.r, "html")
	rw.h.Observer.Rewrote(rw.r, true)
}

// startRewrite begins a 200 HTML page that streams through the rewriter.
// An identity page is committed at once. An encoded one is committed when
// the rewriter writes its first bytes, or once maxPlannedPage bytes of
// input gave none: until then the origin's bytes are held, so a page whose
// start does not decode (a zstd window too large, a corrupt header) goes
// out as the origin sent it; a decoding failure after the commit aborts
// the response instead (abortIfCut).
func (rw *responseWriter) startRewrite(inj *Injection, coding string) {
	if rw.named {
		rw.rewriter = htmlrewrite.NewRecording(rewriteSink{rw}, inj, rw.h.plans, rw.id)
	} else {
		rw.rewriter = newDecodingRewriter(rewriteSink{rw}, inj, coding, maxDecodedRatio*rw.h.Options.MaxSize)
	}
	rw.mode = modeRewrite
	rw.h.Observer.Served(rw.r, "html")
	if coding == "" {
		rw.commitRewrite()
	}
}

// commitRewrite sends the headers of the rewritten page.
func (rw *responseWriter) commitRewrite() {
	rw.sent, rw.held = true, nil
	rw.rewriteHeaders()
	rw.w.WriteHeader(http.StatusOK)
}

// rewriteSink is where the rewriter writes: the client, the headers going
// first. Once the response has left modeRewrite (the page went out as the
// origin sent it, or next failed before anything was sent), what the
// rewriter still writes is dropped.
type rewriteSink struct{ rw *responseWriter }

func (s rewriteSink) Write(p []byte) (int, error) {
	rw := s.rw
	if rw.mode != modeRewrite {
		return len(p), nil
	}
	if !rw.sent {
		rw.commitRewrite()
	}
	return rw.w.Write(p)
}

// writeRewrite passes p through the rewriter.
func (rw *responseWriter) writeRewrite(p []byte) (int, error) {
	if rw.cut != nil {
		return 0, rw.cut
	}
	if !rw.sent {
		rw.held = append(rw.held, p...)
	}
	n, err := rw.rewriter.Write(p)
	if err != nil {
		return rw.rewriteFailed(err, len(p))
	}
	if !rw.sent && len(rw.held) > maxPlannedPage {
		// This much input and no output yet: stop holding it. From here
		// a decoding failure can only abort the response.
		rw.commitRewrite()
	}
	return n, nil
}

// closeRewrite ends the rewrite after the last byte of the page.
func (rw *responseWriter) closeRewrite() {
	if rw.cut != nil {
		return // reported already
	}
	_, planned := rw.rewriter.(*htmlrewrite.PlanWriter)
	if err := rw.rewriter.Close(); err != nil {
		if errors.Is(err, htmlrewrite.ErrPlanMismatch) {
			// The page passed whole, its length made up: said, not hidden.
			rw.h.Observer.FailOpen(rw.r, "plan_mismatch", err)
			return
		}
		_, _ = rw.rewriteFailed(err, 0)
		return
	}
	if !rw.sent {
		rw.commitRewrite() // a page that rewrote to nothing
	}
	if !planned {
		rw.h.Observer.Rewrote(rw.r, false)
	}
}

// rewriteFailed handles an error of the rewriter. One writing to the client
// (gone, say) is returned as it is. When the page stopped decoding: if
// nothing of the rewritten page went out, the origin's bytes go out as
// they came, with their headers, and what follows passes through (n is
// reported written); otherwise the response is cut and must be aborted.
// Both are reported to the Observer.
func (rw *responseWriter) rewriteFailed(err error, n int) (int, error) {
	if !isDecodeError(err) {
		return 0, err
	}
	if rw.sent {
		rw.h.Observer.FailOpen(rw.r, "rewrite_abort", err)
		rw.cut = err
		return 0, err
	}
	rw.h.Observer.FailOpen(rw.r, "rewrite_decode", err)
	rw.mode = modePass
	_ = rw.rewriter.Close()
	rw.rewriter = nil
	held := rw.held
	rw.held = nil
	rw.w.WriteHeader(http.StatusOK)
	if _, werr := rw.w.Write(held); werr != nil {
		return 0, werr
	}
	return n, nil
}

// abortIfCut ends a response whose rewritten page stopped decoding after
// part of it went out: it flushes that part and panics with
// http.ErrAbortHandler, so that net/http breaks the connection (HTTP/1.1:
// no last chunk) or resets the stream (HTTP/2) and the client sees a
// failed transfer, never a short page that looks complete. Caddy's
// reverse_proxy ends a body its upstream breaks the same way.
func (rw *responseWriter) abortIfCut() {
	if rw.cut == nil {
		return
	}
	_ = http.NewResponseController(rw.w).Flush()
	panic(http.ErrAbortHandler)
}

// rewriteHeaders adapts the origin's headers to a rewritten page.
func (rw *responseWriter) rewriteHeaders() {
	hdr := rw.Header()
	// The body changes length: the origin's Content-Length is stale (RFC
	// 9110 §8.6); the origin's byte ranges and digests no longer describe
	// it. An encoded page is decoded on the way (a compressing middleware in
	// front, such as Caddy's encode, encodes it again for the client).
	dropHeaders(hdr, representationHeaders)
	// The page is semantically the origin's but not byte for byte: its
	// entity tag becomes weak (RFC 9110 §8.8.1), which still validates
	// If-None-Match yet can never satisfy If-Range (§13.1.5), so no client
	// splices a range of the origin's bytes into ours.
	if etag := firstValue(hdr, "Etag"); strings.HasPrefix(etag, `"`) {
		hdr["Etag"] = []string{"W/" + etag}
	}
}

// finishHTML rewrites the collected page and sends it with its exact
// length. A page that does not decode is sent as the origin sent it, with
// its headers. One that decodes to more than max_size is not held decoded:
// it is decoded once to nowhere, and streams through the rewriter only if
// that decode ends within the rewriter's bound, so a decompression bomb or
// a stream corrupt past max_size goes out as the origin sent it too, never
// cut short.
func (rw *responseWriter) finishHTML() {
	defer rw.dropPage()
	page := *rw.html
	if rw.coding != "" {
		decoded, err := Decode(bytes.NewReader(page), rw.coding, rw.h.Options.MaxSize)
		if err == ErrTooLarge {
			if _, err = decodedLen(page, rw.coding, maxDecodedRatio*rw.h.Options.MaxSize); err == nil {
				rw.startRewrite(rw.inj, rw.coding)
				if _, err := rw.writeRewrite(page); err == nil {
					rw.closeRewrite()
				}
				return
			}
		}
		if err != nil {
			rw.h.Observer.FailOpen(rw.r, "rewrite_decode", err)
			rw.pass(http.StatusOK, "html")
			_, _ = rw.w.Write(page)
			return
		}
		page = decoded
	}
	out, fromPlan := rewritePage(pageBufPool.Get().(*[]byte), page, rw.inj, rw.h.plans, rw.id, rw.named)
	rw.h.Observer.Rewrote(rw.r, fromPlan)
	rw.rewriteHeaders()
	rw.Header().Set("Content-Length", strconv.Itoa(len(*out)))
	rw.pass(http.StatusOK, "html")
	_, _ = rw.w.Write(*out)
	putPageBuf(out)
}

// dropPage gives the page buffer of modeBufferHTML back.
func (rw *responseWriter) dropPage() {
	if rw.html != nil {
		putPageBuf(rw.html)
		rw.html = nil
	}
}

// failOpen sends the original response, as buffered so far, as the HTML
// form and streams whatever follows.
func (rw *responseWriter) failOpen(reason string, err error) {
	rw.h.Observer.FailOpen(rw.r, reason, err)
	hdr := rw.Header()
	rw.htmlHeaders()
	if rw.mode == modeBuffer && reason != "too_large" {
		// The whole body is here: its length is known for sure.
		hdr.Set("Content-Length", strconv.Itoa(rw.buf.Len()))
	}
	rw.pass(rw.status, "html")
	if rw.buf.Len() > 0 && !rw.headGet {
		_, _ = rw.w.Write(rw.buf.Bytes())
	}
	rw.buf = bytes.Buffer{}
}

// maxDecodedRatio × MaxSize bounds what decoding a compressed HTML page for
// the head rewrite may produce (64 MiB by default): far above any real page,
// far below what a decompression bomb inflates to. A page of known length
// is checked against it before anything is sent and goes out untouched
// past it; a streamed one is aborted there.
const maxDecodedRatio = 32

// htmlHeaders sets the headers of the HTML form.
func (rw *responseWriter) htmlHeaders() { rw.commonHeaders() }

// injection returns what to inject into this HTML page (nil for nothing)
// and the content coding the rewriter must undo first ("" for identity).
// Only text/html in an ASCII-compatible charset is rewritten (XHTML must stay
// well-formed XML), and only identity or a single coding Decode knows.
func (rw *responseWriter) injection() (*Injection, string) {
	if rw.h.Inject == nil && !on(rw.h.Options.HeadLink) {
		return nil, "" // nothing to inject into any page
	}
	hdr := rw.Header()
	ct := hdr.Get("Content-Type")
	coding, ok := singleCoding(hdr["Content-Encoding"])
	if rw.noTransform || !ok || !isTextHTML(ct) || !asciiCompatible(ct) {
		return nil, ""
	}
	// The injection is kept in the pooled writer, and its head in the
	// writer's array when it fits: two allocations less a request.
	inj := &rw.injected
	*inj = Injection{}
	planned := true // the Key names everything injected
	if rw.h.Inject != nil {
		if got := rw.h.Inject(rw.r); got != nil {
			*inj = *got
			planned = got.Key != ""
		}
	}
	if on(rw.h.Options.HeadLink) {
		href := html.EscapeString(rw.markdownTarget())
		link := HeadElement{SkipIf: skipMarkdownLink}
		link.HTML, inj.Key = LinkWithKey(`<link rel="alternate" type="text/markdown" href="`, href, inj.Key, "\x00md:")
		inj.Head = append(append(rw.head[:0:len(rw.head)], link), inj.Head...)
	}
	if !planned {
		inj.Key = ""
	}
	if inj.Lang == "" && len(inj.Head) == 0 && len(inj.Forms) == 0 {
		return nil, ""
	}
	return inj, coding
}

// skipMarkdownLink finds a Markdown alternate the page has already.
var skipMarkdownLink = TagMatch{Tag: "link", Attrs: map[string]string{"rel": "alternate", "type": "text/markdown"}}

func isTextHTML(ct string) bool {
	typ, sub, _, ok := splitMediaType(ct)
	return ok && typ == "text" && sub == "html"
}

// asciiCompatible reports whether the charset a Content-Type declares (if
// any) keeps ASCII bytes as ASCII, so the rewriter may insert some: not
// UTF-16, and not a label we do not know.
func asciiCompatible(ct string) bool {
	label := charsetParam(ct)
	if label == "" || strings.EqualFold(label, "utf-8") {
		return true
	}
	e, name := charset.Lookup(label)
	return e != nil && !strings.HasPrefix(name, "utf-16") && name != "replacement"
}

// singleCoding returns the one content coding a Content-Encoding lists
// ("" for none or identity) and whether the rewriter can undo it: stacked or
// unknown codings are left alone.
func singleCoding(values []string) (string, bool) {
	coding := ""
	for _, v := range values {
		for v != "" {
			var c string
			c, v = nextListMember(v)
			c = strings.ToLower(trimOWS(c))
			if c == "" || c == "identity" {
				continue
			}
			if coding != "" {
				return "", false
			}
			coding = c
		}
	}
	switch coding {
	case "", "gzip", "x-gzip", "br", "zstd", "deflate":
		return coding, true
	}
	return "", false
}
