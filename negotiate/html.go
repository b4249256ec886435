package negotiate

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"golang.org/x/net/html/charset"

	"github.com/agentready/caddy-agentready/internal/canon"
	"github.com/agentready/caddy-agentready/negotiate/htmlrewrite"
)

// The response path: the HTML form, the head injection and its rewrite,
// streamed or whole; and the origin's bytes as they came when a form fails
// (failOpen).

// startHTML commits a 200 HTML page: discovery headers, and the rewrite
// when something is to be injected. A page in a content coding is
// annotated in that coding or not at all (startEncoded). A page its origin
// names (pageID) whose last copy was rewritten streams through that copy's
// plan (startPlanned). Otherwise a page whose Content-Length is at most
// maxPlannedPage is collected and rewritten whole at the end (finishHTML);
// any other streams through the rewriter, which records its plan when the
// page is named.
func (rw *responseWriter) startHTML() {
	rw.htmlHeaders()
	inj, coding := rw.injection()
	if inj == nil {
		rw.pass(http.StatusOK, "html")
		return
	}
	length, err := strconv.ParseInt(canon.Get(rw.Header(), "Content-Length"), 10, 64)
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
	case coding != "":
		rw.startEncoded(inj, coding, length)
	case rw.r.Method == http.MethodHead:
		rw.rewriteHeaders()
		rw.pass(http.StatusOK, "html")
	case length >= 0 && length <= maxPlannedPage:
		rw.inj, rw.coding, rw.mode = inj, "", modeBufferHTML
		rw.html = pageBufPool.Get().(*[]byte)
	default:
		rw.startRewrite(inj)
	}
}

// startEncoded begins a 200 HTML page in a content coding. A browser never
// gets more bytes on the wire than the origin sent it (issue 23, hole 10):
// a page of at most maxPlannedPage encoded bytes (or of unknown length,
// until it passes that) is held, then annotated in its coding or sent as
// it came (finishEncoded); a larger one passes as the origin sent it.
func (rw *responseWriter) startEncoded(inj *Injection, coding string, length int64) {
	switch {
	case rw.r.Method == http.MethodHead:
		// The GET's body is in the same coding, annotated or not: its
		// length is known only once it is encoded.
		rw.rewriteEncodedHeaders()
		rw.pass(http.StatusOK, "html")
	case length > maxPlannedPage:
		rw.h.Observer.FailOpen(rw.r, "rewrite_size", errEncodedSize)
		rw.pass(http.StatusOK, "html")
	default:
		rw.inj, rw.coding, rw.mode = inj, coding, modeBufferHTML
		rw.html = pageBufPool.Get().(*[]byte)
	}
}

// errEncodedSize is why a compressed page over maxPlannedPage goes out
// unannotated.
var errEncodedSize = fmt.Errorf("compressed html over %d KiB is sent as the origin sent it", maxPlannedPage>>10)

// pageID names the page's bytes for the rewrite plans by what its origin
// promises about them (htmlrewrite.PageID): the page's address, its strong
// entity tag, which changes whenever its bytes do (RFC 9110 §8.8.3), and
// its Content-Length. A page with a weak tag or none, of unknown length,
// or in a content coding (its plan would be of the decoded bytes, which
// must be decoded anyway) has no name.
func (rw *responseWriter) pageID(coding string, length int64) (htmlrewrite.PageID, bool) {
	etag := canon.Get(rw.Header(), "Etag")
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
	rw.rewriteHeadersLength(pl.Len())
	if rw.r.Method == http.MethodHead {
		rw.pass(http.StatusOK, "html")
		return
	}
	rw.planned = planWriterPool.Get().(*htmlrewrite.PlanWriter)
	rw.planned.Reset(rw.w, pl)
	rw.rewriter = rw.planned
	rw.mode = modeRewrite
	rw.w.WriteHeader(http.StatusOK)
	rw.h.Observer.Served(rw.r, "html")
	rw.h.Observer.Rewrote(rw.r, true)
}

// startRewrite commits a 200 identity HTML page that streams through the
// rewriter.
func (rw *responseWriter) startRewrite(inj *Injection) {
	if rw.named {
		rw.rewriter = htmlrewrite.NewRecording(rw.w, inj, rw.h.plans, rw.id)
	} else {
		rw.rewriter = htmlrewrite.New(rw.w, inj)
	}
	rw.mode = modeRewrite
	rw.h.Observer.Served(rw.r, "html")
	rw.rewriteHeaders()
	rw.w.WriteHeader(http.StatusOK)
}

// closeRewrite ends the rewrite after the last byte of the page.
func (rw *responseWriter) closeRewrite() {
	_, planned := rw.rewriter.(*htmlrewrite.PlanWriter)
	if err := rw.rewriter.Close(); err != nil {
		if errors.Is(err, htmlrewrite.ErrPlanMismatch) {
			// The page passed whole, its length made up: said, not hidden.
			rw.h.Observer.FailOpen(rw.r, "plan_mismatch", err)
		}
		return // otherwise writing to the client failed: it is gone
	}
	if !planned {
		rw.h.Observer.Rewrote(rw.r, false)
	}
}

// rewriteHeaders adapts the origin's headers to a rewritten page.
func (rw *responseWriter) rewriteHeaders() { rw.rewriteHeadersLength(-1) }

// rewriteHeadersLength is rewriteHeaders for a page of n bytes (n >= 0),
// which it sets as the Content-Length: the weak entity tag and the length
// are made in one string (4 allocations of a planned page down to 1).
func (rw *responseWriter) rewriteHeadersLength(n int64) {
	hdr := rw.Header()
	// The body changes length: the origin's Content-Length is stale (RFC
	// 9110 §8.6); the origin's byte ranges and digests no longer describe
	// it. (An encoded page keeps its coding: rewriteEncodedHeaders.) A
	// length n is set below.
	if n >= 0 {
		dropHeaders(hdr, replacedHeaders)
	} else {
		dropHeaders(hdr, representationHeaders)
	}
	// The page is semantically the origin's but not byte for byte: its
	// entity tag becomes weak (RFC 9110 §8.8.1), which still validates
	// If-None-Match yet can never satisfy If-Range (§13.1.5), so no client
	// splices a range of the origin's bytes into ours.
	etag := canon.Get(hdr, "Etag")
	weak := strings.HasPrefix(etag, `"`)
	if !weak && n < 0 {
		return
	}
	var buf [80]byte
	b := buf[:0]
	if weak {
		b = append(append(b, "W/"...), etag...)
	}
	k := len(b)
	if n >= 0 {
		b = strconv.AppendInt(b, n, 10)
	}
	both := string(b)
	if weak {
		rw.setValue("Etag", both[:k])
	}
	if n >= 0 {
		rw.setValue("Content-Length", both[k:])
	}
}

// rewriteEncodedHeaders is rewriteHeaders for a page annotated in its
// content coding, which it keeps.
func (rw *responseWriter) rewriteEncodedHeaders() {
	hdr := rw.Header()
	coding := hdr["Content-Encoding"]
	rw.rewriteHeaders()
	hdr["Content-Encoding"] = coding
}

// finishHTML rewrites the collected page and sends it with its exact
// length.
func (rw *responseWriter) finishHTML() {
	defer rw.dropPage()
	if rw.coding != "" {
		rw.finishEncoded(*rw.html)
		return
	}
	out, fromPlan := rewritePage(pageBufPool.Get().(*[]byte), *rw.html, rw.inj, rw.h.plans, rw.id, rw.named)
	rw.h.Observer.Rewrote(rw.r, fromPlan)
	rw.rewriteHeadersLength(int64(len(*out)))
	rw.pass(http.StatusOK, "html")
	_, _ = rw.w.Write(*out)
	putPageBuf(out)
}

// finishEncoded annotates the collected page in its content coding: it is
// decoded (at most max_size bytes), rewritten, and encoded again in the
// same coding; sent so only if that is not larger than the origin's
// bytes, which otherwise go out as they came, with their headers: when
// they do not decode ("rewrite_decode"), decode to more than max_size
// ("rewrite_size"), or the annotated page encodes larger
// ("rewrite_larger"). The outcome is kept for the same bytes
// (encodedCache).
func (rw *responseWriter) finishEncoded(page []byte) {
	key, keep := rw.h.encoded.key(page, rw.coding, rw.inj)
	if keep {
		if got := rw.h.encoded.get(key); got != nil {
			rw.sendEncoded(page, got, true)
			return
		}
	}
	enc := pageBufPool.Get().(*[]byte)
	defer putPageBuf(enc)
	got := rw.encodePage(page, enc)
	if keep {
		rw.h.encoded.put(key, got)
	}
	rw.sendEncoded(page, &got, false)
}

// encodePage decodes, rewrites and encodes again the compressed page, in
// enc.
func (rw *responseWriter) encodePage(page []byte, enc *[]byte) encodedPage {
	decoded, err := Decode(bytes.NewReader(page), rw.coding, rw.h.Options.MaxSize)
	if err != nil {
		if err == ErrTooLarge {
			return encodedPage{reason: "rewrite_size", err: err}
		}
		return encodedPage{reason: "rewrite_decode", err: err}
	}
	out, _ := rewritePage(pageBufPool.Get().(*[]byte), decoded, rw.inj, rw.h.plans, rw.id, false)
	*enc, err = encodeAs((*enc)[:0], *out, rw.coding, len(page))
	putPageBuf(out)
	switch {
	case errors.Is(err, errLarger):
		return encodedPage{reason: "rewrite_larger", err: err}
	case err != nil:
		return encodedPage{reason: "rewrite_encode", err: err}
	}
	return encodedPage{out: *enc}
}

// sendEncoded sends what the compressed page became: annotated in its
// coding, or the origin's bytes.
func (rw *responseWriter) sendEncoded(page []byte, got *encodedPage, kept bool) {
	if got.out == nil {
		rw.sendOrigin(page, got.reason, got.err)
		return
	}
	rw.h.Observer.Rewrote(rw.r, kept)
	rw.rewriteEncodedHeaders()
	rw.Header().Set("Content-Length", strconv.Itoa(len(got.out)))
	rw.pass(http.StatusOK, "html")
	_, _ = rw.w.Write(got.out)
}

// sendOrigin sends a collected page as the origin sent it, unannotated,
// with its exact length, and reports why.
func (rw *responseWriter) sendOrigin(page []byte, reason string, err error) {
	rw.h.Observer.FailOpen(rw.r, reason, err)
	rw.Header().Set("Content-Length", strconv.Itoa(len(page)))
	rw.pass(http.StatusOK, "html")
	_, _ = rw.w.Write(page)
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

// htmlHeaders sets the headers of the HTML form.
func (rw *responseWriter) htmlHeaders() { rw.commonHeaders() }

// injection returns what to inject into this HTML page (nil for nothing)
// and the content coding the rewriter must undo first ("" for identity).
// Only text/html in an ASCII-compatible charset is rewritten (XHTML must stay
// well-formed XML), and only identity or a single coding Decode knows.
func (rw *responseWriter) injection() (*Injection, string) {
	if rw.h.Inject == nil && rw.h.InjectAt == nil && !on(rw.h.Options.HeadLink) {
		return nil, "" // nothing to inject into any page
	}
	hdr := rw.Header()
	ct := canon.Get(hdr, "Content-Type")
	coding, ok := singleCoding(hdr["Content-Encoding"])
	if rw.noTransform || !ok || !rewritableHTML(ct) {
		return nil, ""
	}
	var got *Injection
	switch {
	case rw.h.InjectAt != nil:
		got = rw.h.InjectAt(rw.r, rw.client)
	case rw.h.Inject != nil:
		got = rw.h.Inject(rw.r)
	}
	if !on(rw.h.Options.HeadLink) {
		if got == nil || (got.Lang == "" && len(got.Head) == 0 && len(got.Forms) == 0) {
			return nil, ""
		}
		// Kept in the pooled writer: one allocation less a request.
		rw.injected = *got
		return &rw.injected, coding
	}
	if got != nil && got.Key == "" {
		// Not planned: nothing names what the hook answered.
		rw.injected = Injection{}
		rw.withHeadLink(&rw.injected, rw.head[:0:len(rw.head)], got)
		rw.injected.Key = ""
		return &rw.injected, coding
	}
	k := injectionKey{path: rw.public.Path, rawPath: rw.public.RawPath, query: rw.public.RawQuery}
	if got != nil {
		k.hook = got.Key
	}
	if inj, ok := rw.h.injections.Get(k); ok {
		return inj, coding
	}
	st := &struct {
		inj  Injection
		head [4]HeadElement
	}{}
	rw.withHeadLink(&st.inj, st.head[:0:len(st.head)], got)
	keepInjection(rw.h.injections, k, &st.inj)
	return &st.inj, coding
}

// withHeadLink sets *dst to got (nil: nothing) with the head link to the
// page's Markdown alternate first, in head when it fits, and a Key that
// names both: what injection gives a page with Options.HeadLink on.
func (rw *responseWriter) withHeadLink(dst *Injection, head []HeadElement, got *Injection) {
	if got != nil {
		*dst = *got
	}
	// The href from its pieces, as markdownLink writes the Link header:
	// one allocation for the element and the Key.
	path, suffix, slash := rw.markdownHrefParts()
	link := HeadElement{SkipIf: skipMarkdownLink}
	const open, mark = `<link rel="alternate" type="text/markdown" href="`, "\x00md:"
	if q := rw.public.RawQuery; q != "" {
		link.HTML, dst.Key = LinkWithKeyOf(open, dst.Key, mark, path, suffix, slash, "?", q)
	} else {
		link.HTML, dst.Key = LinkWithKeyOf(open, dst.Key, mark, path, suffix, slash)
	}
	dst.Head = append(append(head, link), dst.Head...)
}

// skipMarkdownLink finds a Markdown alternate the page has already.
var skipMarkdownLink = TagMatch{Tag: "link", Attrs: map[string]string{"rel": "alternate", "type": "text/markdown"}}

// commonHTMLTypes are the Content-Types most HTML pages come with, each
// text/html in UTF-8 or with no charset: what rewritableHTML and pageKind
// answer at once (the media type's split and its parameters' scan, about
// 1,700 instructions of every HTML page).
var commonHTMLTypes = [...]string{
	"text/html; charset=utf-8", "text/html; charset=UTF-8", "text/html",
	"text/html;charset=utf-8", "text/html;charset=UTF-8",
}

// isCommonHTML reports whether ct is one of commonHTMLTypes.
func isCommonHTML(ct string) bool {
	for _, c := range commonHTMLTypes {
		if ct == c {
			return true
		}
	}
	return false
}

// rewritableHTML is isTextHTML(ct) && asciiCompatible(ct): a page the
// head injection may be inserted into.
func rewritableHTML(ct string) bool {
	return isCommonHTML(ct) || isTextHTML(ct) && asciiCompatible(ct)
}

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
