package negotiate

import (
	"net/http"
	"strings"
)

// The response path: what both forms of a page carry (Vary, the Link
// headers, Content-Signal), and the headers a changed body drops.

// representationHeaders describe the bytes of the origin's body; they are
// wrong for any body we change (the Markdown form, a rewritten page).
var representationHeaders = []string{
	"Content-Length", "Content-Encoding", "Content-Range", "Accept-Ranges",
	"Content-Md5", "Digest", "Content-Digest", "Repr-Digest",
}

// replacedHeaders are representationHeaders but Content-Length, for a body
// whose length is set right after: the field's value is replaced in place
// rather than deleted and added again (in a header map of more than 8
// fields, a deletion and an insertion cost about 700 instructions more).
var replacedHeaders = representationHeaders[1:]

// dropHeaders removes keys, written in canonical form, from hdr: Del would
// canonicalize each (about 1,500 instructions for the 8 above). Most are
// absent, and looking a key up costs less than deleting it (7 absent
// fields of 11 alone: 1,277 instructions deleted, 913 looked up; in a
// planned page's rewriteHeadersLength, 2,557 -> 2,450).
func dropHeaders(hdr http.Header, keys []string) {
	for _, k := range keys {
		if has(hdr, k) {
			delete(hdr, k)
		}
	}
}

// has reports whether hdr holds the field k, written in canonical form.
func has(hdr http.Header, k string) bool {
	_, ok := hdr[k]
	return ok
}

// markdownHref is the address of this page's Markdown alternate.
func (rw *responseWriter) markdownHref() string {
	path, suffix, slash := rw.markdownHrefParts()
	if q := rw.public.RawQuery; q != "" {
		return path + suffix + slash + "?" + q
	}
	return path + suffix + slash
}

// markdownHrefParts is markdownHref in the pieces it is joined from (the
// query apart), so that the Link value can be written from them without
// the joined string.
func (rw *responseWriter) markdownHrefParts() (path, suffix, slash string) {
	p := rw.pubPath
	switch {
	case rw.h.suffix == "":
		return p, "", ""
	case p == "/":
		return rw.h.suffix, "", ""
	case strings.HasSuffix(p, "/"):
		// A directory index keeps its slash: /docs/ -> /docs/md/ (see pagePath).
		return strings.TrimSuffix(p, "/"), rw.h.suffix, "/"
	default:
		return p, rw.h.suffix, ""
	}
}

// commonHeaders are the ones both forms carry (STANDARD.md §6): Vary, the
// three Link headers and Content-Signal.
func (rw *responseWriter) commonHeaders() {
	hdr := rw.Header()
	var mdLink string
	if on(rw.h.Options.LinkMarkdown) {
		mdLink = rw.markdownLink()
	}
	// The values added to fields the response does not have yet share one
	// array, each field's slice capped at its length so that a later
	// handler's append copies it: one allocation instead of one per field
	// (Vary, Link, Content-Signal; TestPassThroughAllocations).
	vals := make([]string, 0, len(rw.h.staticLink)+3+rw.spareSlots())
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
	rw.spare = vals[len(vals):cap(vals)]
}

// spareSlots is how many values the form this response may take sets
// after commonHeaders (setValue): the Markdown form's Content-Type,
// ETag, Cache-Control, Content-Length and token count, or a rewritten
// page's ETag and Content-Length.
func (rw *responseWriter) spareSlots() int {
	switch {
	case rw.wantMD:
		return 5
	case rw.h.Inject != nil || rw.h.InjectAt != nil || on(rw.h.Options.HeadLink):
		return 2
	}
	return 0
}

// setValue sets the field name, written in canonical form, to v alone,
// in a slot of the array commonHeaders allocated while one is left (its
// slice capped, as commonHeaders' are): hdr.Set allocates a slice for
// every field, and canonicalizes the name.
func (rw *responseWriter) setValue(name, v string) {
	if len(rw.spare) == 0 {
		rw.Header()[name] = []string{v}
		return
	}
	rw.spare[0] = v
	rw.Header()[name] = rw.spare[0:1:1]
	rw.spare = rw.spare[1:]
}

// markdownLinkTail is what LinkValue writes after the target of the
// Markdown alternate's Link, quoted once here rather than per request
// (with mentionsMarkdown: HTML pass-through 9,354 -> 6,760 instructions).
const markdownLinkTail = `>; rel="alternate"; type="text/markdown"`

// markdownLinkValue is LinkValue(target, "alternate", "text/markdown").
func markdownLinkValue(target string) string {
	return markdownLinkOf(target, "", "", "")
}

// markdownLink is markdownLinkValue(rw.markdownHref()), kept per page
// (linkCache), else written from the target's pieces: one allocation
// instead of two (escaping is byte by byte, so the pieces escape as their
// join does).
func (rw *responseWriter) markdownLink() string {
	path, query := rw.pubPath, rw.public.RawQuery
	link, slot, ok := rw.h.links.get(path, query)
	if ok {
		return link
	}
	link = rw.makeMarkdownLink()
	if slot != nil {
		keepLink(slot, path, query, link)
	}
	return link
}

// makeMarkdownLink is markdownLink, made (see linkCache).
func (rw *responseWriter) makeMarkdownLink() string {
	path, suffix, slash := rw.markdownHrefParts()
	return markdownLinkOf(path, suffix, slash, rw.public.RawQuery)
}

// markdownLinkOf is markdownLinkValue of path+suffix+slash, with "?"+query
// when query is not empty.
func markdownLinkOf(path, suffix, slash, query string) string {
	var b strings.Builder
	n := len(path) + len(suffix) + len(slash) + len(query) + 1
	b.Grow(n + len(markdownLinkTail) + 8)
	b.WriteByte('<')
	writeURIReference(&b, path)
	writeURIReference(&b, suffix)
	writeURIReference(&b, slash)
	if query != "" {
		b.WriteByte('?')
		writeURIReference(&b, query)
	}
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
