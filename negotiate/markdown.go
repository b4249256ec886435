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

	"github.com/agentready/caddy-agentready/internal/canon"
)

// The response path: the Markdown form, buffering, conversion, its
// headers and validators. A failure falls back to the HTML form (failOpen,
// html.go).

// startMarkdown begins a Markdown answer: it checks the client's Markdown
// validators, then buffers the page unless it is known to be too big.
func (rw *responseWriter) startMarkdown() {
	hdr := rw.Header()
	// RFC 9110 §13.1.2: If-None-Match uses the weak comparison; only the
	// Markdown tags (and "*") the client sent take part.
	if len(rw.mdTags) > 0 && ETagMatch(strings.Join(rw.mdTags, ", "), MarkdownETag(hdr.Get("Etag"))) {
		rw.markdownNotModified()
		return
	}
	n, err := strconv.ParseInt(canon.Get(hdr, "Content-Length"), 10, 64)
	if err == nil && n > rw.h.Options.MaxSize {
		rw.failOpen("too_large", ErrTooLarge)
		return
	}
	if rw.h.Cached != nil {
		// The cache key is the URL, the validators and the settings: a hit
		// is known before the body, which is then neither waited for
		// (Admit) nor buffered, only dropped.
		start := time.Now()
		if conv := rw.h.Cached(rw.cachePage()); conv != nil {
			rw.cached, rw.cachedTook, rw.mode = conv, time.Since(start), modeCached
			return
		}
	}
	if rw.h.Admit != nil {
		weight := rw.h.Options.MaxSize
		if err == nil && n > 0 {
			weight = n
		}
		release, aerr := rw.h.Admit(rw.r.Context(), weight)
		if aerr != nil {
			rw.failOpen("busy", aerr)
			return
		}
		rw.release = release
	}
	if err == nil && n > 0 {
		rw.buf.Grow(int(n)) // one allocation for a page of known size
	}
	rw.mode = modeBuffer
}

// releaseAdmission gives back what Handler.Admit granted, once.
func (rw *responseWriter) releaseAdmission() {
	if rw.release != nil {
		rw.release()
		rw.release = nil
	}
}

// markdownContentType is the Content-Type of the Markdown form (RFC 7763).
const markdownContentType = "text/markdown; charset=utf-8"

// convert turns the buffered page into the Markdown form, or fails open.
func (rw *responseWriter) convert() {
	if rw.h.Run != nil {
		done, err := rw.h.Run(rw.r.Context())
		if err != nil {
			if rw.r.Context().Err() != nil {
				rw.abandon(err)
			} else {
				rw.failOpen("busy", err)
			}
			return
		}
		defer done()
	}
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

// cachePage is page for Handler.Cached, which keeps nothing of it: its
// URL is rw's own, not allocated.
func (rw *responseWriter) cachePage() Page {
	rw.setPageURL(&rw.pageAt)
	return Page{URL: &rw.pageAt, Header: rw.Header(), Request: rw.r.Header, Context: rw.r.Context()}
}

// safeConvert calls the converter within the conversion's budget (a
// deadline ConvertTimeout away on the request's context, and
// MaxMarkdownSize), turning a panic into an error. The reason of an error
// is "budget_time", "budget_size", "canceled" (the client went away),
// "panic", the reason the converter's error names (its FailOpenReason
// method: "no_content") or "convert".
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
	// The converter may name the reason itself (convert.ErrNoContent:
	// "no_content", a page with no text in its HTML).
	var named interface{ FailOpenReason() string }
	if errors.As(err, &named) && named.FailOpenReason() != "" {
		return named.FailOpenReason()
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
// without the Markdown suffix, on Handler.Origin when it is set.
func (rw *responseWriter) pageURL() *url.URL {
	u := new(url.URL)
	rw.setPageURL(u)
	return u
}

// setPageURL sets *u to pageURL's URL.
func (rw *responseWriter) setPageURL(u *url.URL) {
	*u = rw.public
	if o := rw.h.origin; o != nil {
		u.Scheme, u.Host = o.Scheme, o.Host
		return
	}
	u.Scheme, u.Host = "http", rw.r.Host
	if rw.r.TLS != nil {
		u.Scheme = "https"
	}
}

// markdownHeaders turns the origin's headers into those of the Markdown
// form of conv.
func (rw *responseWriter) markdownHeaders(conv *Converted) {
	// commonHeaders first: the values below go in the slots it leaves
	// (setValue), the entity tag and the two numbers in one string (9
	// allocations down to 2).
	rw.commonHeaders()
	hdr := rw.Header()
	dropHeaders(hdr, replacedHeaders) // Content-Length is set below
	rw.setValue("Content-Type", markdownContentType)
	var buf [96]byte
	etag := canon.Get(hdr, "Etag")
	b, _ := appendMarkdownETag(buf[:0], etag)
	t := len(b)
	b = strconv.AppendInt(b, int64(len(conv.Markdown)), 10)
	k := len(b)
	tokens := on(rw.h.Options.TokensHeader) && conv.Tokens > 0
	if tokens {
		b = strconv.AppendInt(b, int64(conv.Tokens), 10)
	}
	all := string(b)
	rw.markdownTag(etag, all[:t])
	rw.setValue("Content-Length", all[t:k])
	if tokens {
		rw.setValue("X-Markdown-Tokens", all[k:])
	}
}

// markdownValidators gives the Markdown form its own entity tag (RFC 9110
// §8.8.3.3) and cache policy; Last-Modified stays, the page's date is the
// Markdown's.
func (rw *responseWriter) markdownValidators() {
	etag := canon.Get(rw.Header(), "Etag")
	rw.markdownTag(etag, MarkdownETag(etag))
}

// markdownTag replaces the origin's entity tag etag, when it has one, by
// md, MarkdownETag(etag), or drops it when that is "" (malformed); and
// sets the Markdown form's Cache-Control.
func (rw *responseWriter) markdownTag(etag, md string) {
	hdr := rw.Header()
	if etag != "" {
		if md != "" {
			rw.setValue("Etag", md)
		} else {
			delete(hdr, "Etag") // Del would canonicalize the name
		}
	}
	if cc := markdownCacheControl(rw.h.Options.CacheControl, hdr, rw.r.Header); cc != "" {
		rw.setValue("Cache-Control", cc)
	} else {
		delete(hdr, "Cache-Control")
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
	dropHeaders(hdr, representationHeaders)
	hdr.Del("Content-Type")
	rw.mode = modeDiscard
	rw.w.WriteHeader(http.StatusNotModified)
	rw.h.Observer.Served(rw.r, "markdown")
}
