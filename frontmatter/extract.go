package frontmatter

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/html"
)

// Extract reads the page's metadata from its parsed document. pageURL is the
// address the page was requested at (relative links resolve against it);
// header is the origin's response header (Last-Modified, Content-Language,
// Link); defaultLang is used when neither the page nor the header names a
// language. doc is only read.
func Extract(doc *html.Node, pageURL *url.URL, header http.Header, defaultLang string) Meta {
	m, _ := ExtractWithJSONLD(doc, pageURL, header, defaultLang)
	return m
}

// ExtractWithJSONLD is Extract that also returns the page's valid JSON-LD
// blocks (wrappers stripped, in document order), so a converter can carry
// them along without walking the document again.
func ExtractWithJSONLD(doc *html.Node, pageURL *url.URL, header http.Header, defaultLang string) (Meta, [][]byte) {
	src := collect(doc)
	nodes, blocks := parseJSONLD(src.jsonld)
	ld := ldExtract(nodes)
	base := baseURL(pageURL, src.baseHref)

	var m Meta
	m.SiteName = first(src.get("property:og:site_name", "name:og:site_name", "name:application-name"), ld.siteName)
	m.Title = pickTitle(src, ld.headline, m.SiteName)
	m.Description = first(
		src.get("name:description", "property:og:description", "name:og:description", "name:twitter:description", "property:twitter:description"),
		ld.description)
	m.Canonical = canonical(pageURL, base, src.canonical, header)
	// The freshest statement wins in this order: the page's structured data,
	// its Open Graph tags, a <time> marked as an update, the latest <time>
	// of the content (a post's date; an archive's newest entry), then the
	// origin's Last-Modified (RFC 9110 §8.8.2), which dates the
	// representation.
	dates := src.contentDates()
	stated := firstDate(
		ld.modified,
		src.get("property:article:modified_time", "name:article:modified_time", "property:og:updated_time", "itemprop:datemodified"),
		src.timeMod)
	m.Updated = firstDate(stated, latest(dates), header.Get("Last-Modified"))
	// When nothing else dates the page, a content that states one date
	// only was published then (WordPress prints a post's date as a bare
	// <time datetime>); a page of many dates is a listing, published at
	// none of them, and a page that states its update has a lone <time>
	// that may be anything ("prices last changed on").
	m.Published = firstDate(
		ld.published,
		src.get("property:article:published_time", "name:article:published_time", "itemprop:datepublished"),
		src.timePub)
	if m.Published == "" && stated == "" {
		m.Published = single(dates)
	}
	m.Language = pickLanguage(src, header, defaultLang)
	m.Author = first(ld.author, nonURL(src.get("name:author", "property:article:author", "name:article:author")))
	m.Image = first(
		absHTTP(base, src.get("property:og:image", "name:og:image", "property:og:image:url")),
		absHTTP(base, ld.image),
		absHTTP(base, src.get("name:twitter:image", "property:twitter:image")))
	return m, blocks
}

// first returns the first non-empty value.
func first(vals ...string) string {
	for _, v := range vals {
		if v = collapse(v); v != "" {
			return v
		}
	}
	return ""
}

// nonURL returns s unless it is a URL (article:author often is).
func nonURL(s string) string {
	if strings.Contains(s, "://") {
		return ""
	}
	return s
}

// titleSeparators split a <title> into the page's name and the site's.
var titleSeparators = []string{" | ", " - ", " – ", " — ", " · ", " :: ", " » ", " / "}

// pickTitle chooses og:title, the JSON-LD headline, the <title> (without the
// site name), or the first <h1>.
func pickTitle(src *sources, headline, siteName string) string {
	t := first(src.get("property:og:title", "name:og:title"), headline, src.title, src.h1)
	return stripSiteName(t, siteName, src.h1)
}

// stripSiteName removes a leading or trailing site name joined by a usual
// separator ("Pricing | Acme"). The site name is either known (og:site_name
// and the like) or, when unknown, the part of the title that is not the
// page's <h1>. A title that matches neither is kept whole.
func stripSiteName(title, siteName, h1 string) string {
	for _, sep := range titleSeparators {
		head, tail, ok := cutLast(title, sep)
		if !ok {
			continue
		}
		switch {
		case siteName != "" && strings.EqualFold(tail, siteName):
			return head
		case h1 != "" && strings.EqualFold(head, h1):
			return head
		}
		lead, rest, _ := strings.Cut(title, sep)
		switch {
		case siteName != "" && strings.EqualFold(lead, siteName):
			return rest
		case h1 != "" && strings.EqualFold(rest, h1):
			return rest
		}
	}
	return title
}

// cutLast splits s around the last occurrence of sep.
func cutLast(s, sep string) (before, after string, ok bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+len(sep):]), true
}

// langTag matches a well-formed BCP 47 tag (RFC 5646 §2.1, loosely).
var langTag = regexp.MustCompile(`^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$`)

// pickLanguage chooses <html lang>, <meta http-equiv=content-language>, the
// Content-Language header, og:locale, then the configured default; the first
// well-formed tag wins.
func pickLanguage(src *sources, header http.Header, defaultLang string) string {
	// Content-Language is a list (RFC 9110 §8.5); its first tag is used.
	hdr, _, _ := strings.Cut(header.Get("Content-Language"), ",")
	meta, _, _ := strings.Cut(src.get("http-equiv:content-language"), ",")
	for _, cand := range []string{src.htmlLang, meta, hdr, src.get("property:og:locale", "name:og:locale"), defaultLang} {
		tag := strings.ReplaceAll(strings.TrimSpace(cand), "_", "-")
		if langTag.MatchString(tag) {
			return tag
		}
	}
	return ""
}
