package frontmatter

import (
	"net/http"
	"net/url"
	"strings"
)

// baseURL returns the document's base URL: pageURL, or the <base href>
// resolved against it (HTML Living Standard, "document base URL").
func baseURL(pageURL *url.URL, baseHref string) *url.URL {
	if baseHref == "" {
		return pageURL
	}
	b, err := url.Parse(baseHref)
	if err != nil {
		return pageURL
	}
	if pageURL != nil {
		b = pageURL.ResolveReference(b)
	}
	if !b.IsAbs() {
		return pageURL
	}
	return b
}

// absHTTP resolves ref against base and returns it when it is an http(s)
// URL (data: and javascript: URLs are not addresses an agent can fetch).
func absHTTP(base *url.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return ""
	}
	u, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return ""
	}
	u.User = nil
	return u.String()
}

// canonical returns the page's canonical address: the <link rel=canonical>
// of the page, else a rel="canonical" Link header (RFC 6596 §3, RFC 8288),
// when it is on the page's own origin; otherwise the page URL itself. A
// cross-origin canonical is not trusted, and the quiet "/md" fallback
// address is never canonical (STANDARD.md §6).
func canonical(pageURL, base *url.URL, linkHref string, header http.Header) string {
	self := pageAddress(pageURL)
	for _, cand := range []string{linkHref, linkHeaderCanonical(header)} {
		c := absHTTP(base, cand)
		if c == "" {
			continue
		}
		cu, _ := url.Parse(c)
		if pageURL == nil || sameOrigin(cu, pageURL) {
			cu.Fragment, cu.RawFragment = "", ""
			if !strings.HasSuffix(cu.Path, "/md") {
				return cu.String()
			}
		}
	}
	return self
}

// pageAddress returns pageURL without fragment, credentials or the "/md"
// suffix of the Markdown fallback route.
func pageAddress(pageURL *url.URL) string {
	if pageURL == nil || !pageURL.IsAbs() {
		return ""
	}
	u := *pageURL
	u.User = nil
	u.Fragment, u.RawFragment = "", ""
	if p, ok := strings.CutSuffix(u.Path, "/md"); ok {
		if p == "" {
			p = "/"
		}
		u.Path, u.RawPath = p, ""
	}
	return u.String()
}

// sameOrigin compares scheme, host and port (RFC 6454 §5), treating an
// omitted port as the scheme's default.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

// linkHeaderCanonical returns the target of the first rel="canonical" link
// in the Link header fields (RFC 8288 §3).
func linkHeaderCanonical(header http.Header) string {
	for _, field := range header.Values("Link") {
		for field != "" {
			open := strings.IndexByte(field, '<')
			if open < 0 {
				break
			}
			end := strings.IndexByte(field[open:], '>')
			if end < 0 {
				break
			}
			target := field[open+1 : open+end]
			rest := field[open+end+1:]
			params, next, _ := strings.Cut(rest, ",")
			for p := range strings.SplitSeq(params, ";") {
				k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
				if strings.EqualFold(strings.TrimSpace(k), "rel") && hasToken(strings.Trim(v, `"`), "canonical") {
					return target
				}
			}
			field = next
		}
	}
	return ""
}
