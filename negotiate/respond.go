package negotiate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// markdownContentType is the Content-Type of the Markdown form (RFC 7763).
const markdownContentType = "text/markdown; charset=utf-8"

// representationHeaders describe the bytes of the origin's body; they are
// wrong for any body we change (the Markdown form, a rewritten page).
var representationHeaders = []string{
	"Content-Encoding", "Content-Length", "Content-Range", "Accept-Ranges",
	"Content-Md5", "Digest", "Content-Digest", "Repr-Digest",
}

// convert turns the buffered page into the Markdown form, or fails open.
func (rw *responseWriter) convert() {
	hdr := rw.Header()
	// The cache was asked before the body was buffered (startMarkdown).
	decoded, err := Decode(bytes.NewReader(rw.buf.Bytes()), strings.Join(hdr["Content-Encoding"], ","), rw.h.Options.MaxSize)
	if err != nil {
		reason := "decode"
		if err == ErrTooLarge {
			reason = "too_large"
		}
		rw.failOpen(reason, err)
		return
	}
	page, err := ToUTF8(decoded, hdr.Get("Content-Type"))
	if err != nil {
		rw.failOpen("charset", err)
		return
	}
	start := time.Now()
	conv, reason, err := rw.safeConvert(page)
	if reason == "canceled" {
		rw.abandon(err)
		return
	}
	if err != nil {
		rw.failOpen(reason, err)
		return
	}
	rw.h.Observer.Converted(rw.r, time.Since(start), len(page), len(conv.Markdown), conv.Tokens)
	rw.serveMarkdown(conv)
}

// serveMarkdown sends the Markdown form.
func (rw *responseWriter) serveMarkdown(conv *Converted) {
	rw.markdownHeaders(conv)
	rw.mode = modeDiscard
	rw.w.WriteHeader(http.StatusOK)
	rw.h.Observer.Served(rw.r, "markdown")
	if !rw.headGet {
		_, _ = rw.w.Write(conv.Markdown)
	}
	rw.buf = bytes.Buffer{}
}

// page describes the page for the converter and the cache.
func (rw *responseWriter) page() Page {
	return Page{URL: rw.pageURL(), Header: rw.Header(), Request: rw.r.Header, Context: rw.r.Context()}
}

// safeConvert calls the converter within the conversion's budget (a
// deadline ConvertTimeout away on the request's context, and
// MaxMarkdownSize), turning a panic into an error. The reason of an error
// is "budget_time", "budget_size", "canceled" (the client went away),
// "panic" or "convert".
func (rw *responseWriter) safeConvert(page []byte) (conv *Converted, reason string, err error) {
	ctx, cancel := context.WithTimeout(rw.r.Context(), rw.h.Options.ConvertTimeout)
	defer cancel()
	defer func() {
		if v := recover(); v != nil {
			conv, reason, err = nil, "panic", fmt.Errorf("converting %s: panic: %v", rw.r.URL.Path, v)
		}
	}()
	p := rw.page()
	p.Context = ctx
	conv, err = rw.h.Convert(page, p)
	if err == nil && conv == nil {
		err = fmt.Errorf("converting %s: converter returned nothing", rw.r.URL.Path)
	}
	if err == nil && int64(len(conv.Markdown)) > rw.h.Options.MaxMarkdownSize {
		err = fmt.Errorf("converting %s: %w (%d bytes, max %d)", rw.r.URL.Path, ErrMarkdownTooLarge, len(conv.Markdown), rw.h.Options.MaxMarkdownSize)
	}
	if err != nil {
		return nil, stopReason(rw.r.Context(), ctx, err), err
	}
	return conv, "", nil
}

// stopReason names why a conversion under ctx, for a request under req,
// failed with err.
func stopReason(req, ctx context.Context, err error) string {
	switch {
	case req.Err() != nil:
		return "canceled"
	case ctx.Err() != nil:
		return "budget_time" // only the deadline ends ctx before req
	case errors.Is(err, ErrMarkdownTooLarge):
		return "budget_size"
	}
	return "convert"
}

// abandon drops the response of a client that went away during the
// conversion: there is no one to send the HTML to, so nothing is written.
func (rw *responseWriter) abandon(err error) {
	rw.h.Observer.FailOpen(rw.r, "canceled", err)
	rw.mode = modeDiscard
	rw.buf = bytes.Buffer{}
}

// pageURL is the absolute URL of the page: the one the client asked for,
// without the Markdown suffix.
func (rw *responseWriter) pageURL() *url.URL {
	u := rw.public
	u.Scheme, u.Host = "http", rw.r.Host
	if rw.r.TLS != nil {
		u.Scheme = "https"
	}
	return &u
}

// markdownHref is the address of this page's Markdown alternate.
func (rw *responseWriter) markdownHref() string {
	p := rw.public.EscapedPath()
	switch {
	case rw.h.suffix == "":
	case p == "/":
		p = rw.h.suffix
	case strings.HasSuffix(p, "/"):
		// A directory index keeps its slash: /docs/ -> /docs/md/ (see pagePath).
		p = strings.TrimSuffix(p, "/") + rw.h.suffix + "/"
	default:
		p += rw.h.suffix
	}
	if rw.public.RawQuery != "" {
		p += "?" + rw.public.RawQuery
	}
	return p
}

// markdownTarget is markdownHref, made once per response: the Link header
// and the head link both need it (one allocation fewer on an annotated
// page).
func (rw *responseWriter) markdownTarget() string {
	if rw.mdHref == "" {
		rw.mdHref = rw.markdownHref()
	}
	return rw.mdHref
}

// commonHeaders are the ones both forms carry (STANDARD.md §6): Vary, the
// three Link headers and Content-Signal.
func (rw *responseWriter) commonHeaders() {
	hdr := rw.Header()
	var mdLink string
	if on(rw.h.Options.LinkMarkdown) {
		mdLink = markdownLinkValue(rw.markdownTarget())
	}
	// The values added to fields the response does not have yet share one
	// array, each field's slice capped at its length so that a later
	// handler's append copies it: one allocation instead of one per field
	// (Vary, Link, Content-Signal; TestPassThroughAllocations).
	vals := make([]string, 0, len(rw.h.staticLink)+3)
	field := func(name string, v ...string) {
		start := len(vals)
		vals = append(vals, v...)
		hdr[name] = vals[start:len(vals):len(vals)]
	}
	// RFC 9110 §12.5.5: the form depends on Accept, caches must key on it.
	if _, ok := hdr["Vary"]; ok {
		AddVary(hdr, "Accept")
	} else {
		field("Vary", "Accept")
	}
	switch links := hdr["Link"]; {
	case links != nil:
		for _, v := range rw.h.staticLink {
			links = addLink(links, v)
		}
		if mdLink != "" {
			links = addLink(links, mdLink)
		}
		hdr["Link"] = links
	case mdLink != "":
		start := len(vals)
		vals = append(append(vals, rw.h.staticLink...), mdLink)
		hdr["Link"] = vals[start:len(vals):len(vals)]
	case len(rw.h.staticLink) > 0:
		field("Link", rw.h.staticLink...)
	}
	if s := rw.h.Options.ContentSignal; s != "" {
		field("Content-Signal", s)
	}
}

// markdownLinkTail is what LinkValue writes after the target of the
// Markdown alternate's Link, quoted once here rather than per request
// (with mentionsMarkdown: HTML pass-through 9,354 -> 6,760 instructions).
const markdownLinkTail = `>; rel="alternate"; type="text/markdown"`

// markdownLinkValue is LinkValue(target, "alternate", "text/markdown").
func markdownLinkValue(target string) string {
	var b strings.Builder
	b.Grow(len(target) + len(markdownLinkTail) + 8)
	b.WriteByte('<')
	writeURIReference(&b, target)
	b.WriteString(markdownLinkTail)
	return b.String()
}

// addLink adds a Link value unless the origin already sent the same one.
func addLink(links []string, v string) []string {
	for _, have := range links {
		if strings.Contains(have, v) {
			return links
		}
	}
	return append(links, v)
}

// markdownHeaders turns the origin's headers into those of the Markdown
// form of conv.
func (rw *responseWriter) markdownHeaders(conv *Converted) {
	hdr := rw.Header()
	for _, k := range representationHeaders {
		hdr.Del(k)
	}
	hdr.Set("Content-Type", markdownContentType)
	rw.markdownValidators()
	rw.commonHeaders()
	hdr.Set("Content-Length", strconv.Itoa(len(conv.Markdown)))
	if on(rw.h.Options.TokensHeader) && conv.Tokens > 0 {
		hdr.Set("X-Markdown-Tokens", strconv.Itoa(conv.Tokens))
	}
}

// markdownValidators gives the Markdown form its own entity tag (RFC 9110
// §8.8.3.3) and cache policy; Last-Modified stays, the page's date is the
// Markdown's.
func (rw *responseWriter) markdownValidators() {
	hdr := rw.Header()
	if etag := hdr.Get("Etag"); etag != "" {
		if md := MarkdownETag(etag); md != "" {
			hdr.Set("Etag", md)
		} else {
			hdr.Del("Etag")
		}
	}
	if cc := markdownCacheControl(rw.h.Options.CacheControl, hdr, rw.r.Header); cc != "" {
		hdr.Set("Cache-Control", cc)
	} else {
		hdr.Del("Cache-Control")
	}
}

// markdownCacheControl is the Cache-Control of the Markdown form: the
// configured value, else the origin's; never wider than what the origin and
// the request allow. A shared cache must never hand one user's page to
// another (RFC 9111 §3, §3.5), so:
//   - an origin's no-store stands as the origin sent it;
//   - a page the origin marked private, one that sets a cookie, and one
//     asked for with Authorization or Cookie get "private" (public and
//     s-maxage removed), and keep their Set-Cookie as the HTML form does.
func markdownCacheControl(configured string, resp, req http.Header) string {
	origin := strings.Join(resp["Cache-Control"], ", ")
	if hasToken(resp["Cache-Control"], "no-store") {
		return origin
	}
	cc := configured
	if cc == "" {
		cc = origin
		if len(resp["Set-Cookie"]) > 0 {
			return makePrivate(cc)
		}
		return cc // the origin's own decision, credentials or not
	}
	if hasToken(resp["Cache-Control"], "private") || len(resp["Set-Cookie"]) > 0 ||
		len(req["Authorization"]) > 0 || len(req["Cookie"]) > 0 {
		return makePrivate(cc)
	}
	return cc
}

// makePrivate returns a Cache-Control value that keeps shared caches out
// (RFC 9111 §5.2.2.7): private added, public and s-maxage removed.
func makePrivate(cc string) string {
	var out []string
	for cc != "" {
		var d string
		d, cc = nextListMember(cc)
		d = trimOWS(d)
		name, _, _ := strings.Cut(d, "=")
		switch strings.ToLower(trimOWS(name)) {
		case "", "public", "s-maxage", "private":
			continue
		}
		out = append(out, d)
	}
	return strings.Join(append(out, "private"), ", ")
}

// markdownNotModified answers 304 for the Markdown form: the headers a 200
// would carry that RFC 9110 §15.4.5 asks for, no body.
func (rw *responseWriter) markdownNotModified() {
	hdr := rw.Header()
	rw.markdownValidators()
	rw.commonHeaders()
	for _, k := range representationHeaders {
		hdr.Del(k)
	}
	hdr.Del("Content-Type")
	rw.mode = modeDiscard
	rw.w.WriteHeader(http.StatusNotModified)
	rw.h.Observer.Served(rw.r, "markdown")
}
