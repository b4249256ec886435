package documents

import (
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/agentready/caddy-agentready/manifest"
)

// listingNames are the last path segments (without extension) of pages that
// list other pages instead of holding content: documentation generators'
// indexes (Sphinx genindex, genindex-A, py-modindex), search pages, and
// tag or archive listings.
var listingNames = regexp.MustCompile(`^(?:genindex(?:-[a-z0-9_]+)?|[a-z]*-?modindex|search(?:index)?|searchresults|sitemap|tags?|categories|archives?)$`)

// isListingURL reports whether raw names an index, search or listing page
// by its address: its last path segment (extension dropped) is one of
// listingNames, or it asks a search query (?q=, ?s=, ?search=).
func isListingURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	q := u.Query()
	if q.Has("q") || q.Has("s") || q.Has("search") || q.Has("query") {
		return true
	}
	p := strings.TrimSuffix(u.Path, "/")
	last := strings.ToLower(p[strings.LastIndex(p, "/")+1:])
	if i := strings.LastIndex(last, "."); i > 0 {
		last = last[:i]
	}
	return last != "" && listingNames.MatchString(last)
}

// FullOrder returns the URLs llms-full.txt reads, in the order it reads
// them: index, search and listing pages (isListingURL) left out, the rest
// shallowest path first, the given order kept among pages of one depth, so
// that a byte cap cuts the deepest pages rather than the site's content.
func FullOrder(urls []string) []string {
	out := make([]string, 0, len(urls))
	for _, u := range urls {
		if !isListingURL(u) {
			out = append(out, u)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return manifest.PathDepth(a) - manifest.PathDepth(b) })
	return out
}

// mdLink matches a Markdown link or image: its text and its target.
var mdLink = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)

// linkOnly reports whether a page's Markdown is mostly links: fewer than a
// quarter of its words outside link text (an index, a table of contents, a
// search page without results). A page with no words is link-only too.
func linkOnly(md []byte) bool {
	linkWords := 0
	for _, m := range mdLink.FindAllSubmatch(md, -1) {
		linkWords += len(strings.Fields(string(m[1])))
	}
	rest := mdLink.ReplaceAll(md, nil)
	words := 0
	for _, w := range strings.Fields(string(rest)) {
		if strings.Trim(w, "#*-_>|`:.,;()[]") != "" {
			words++
		}
	}
	return words*3 < linkWords || words+linkWords == 0
}
