package frontmatter

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Bounds on what one page can make the collector hold.
const (
	maxTextBytes   = 2048    // per collected text (title, h1, meta content)
	maxJSONLDBytes = 1 << 20 // all JSON-LD blocks of a page together
	maxWalkDepth   = 1024    // elements nested deeper are not visited
)

// sources holds the raw candidates for each field, as found in one walk of
// the document.
type sources struct {
	htmlLang   string
	baseHref   string
	title      string            // <title> text
	h1         string            // first <h1> text
	canonical  string            // first <link rel=canonical> href
	meta       map[string]string // "name:description", "property:og:title", ... -> content (first wins)
	jsonld     []string          // raw text of each application/ld+json script
	jsonldSize int
	timeMod    string // <time itemprop=dateModified> or class naming an update
	timePub    string // <time itemprop=datePublished> or pubdate
	// The dates (YYYY-MM-DD) of the <time datetime> elements of the page's
	// content, outside its comments, related-post lists and navigation:
	// those inside an <article>, and those inside <main> (or role=main).
	timesArticle, timesMain []string
}

// maxContentTimes bounds the dates kept per list: an archive page dates
// every teaser.
const maxContentTimes = 256

// scope says where in the document the walk is.
type scope uint8

const (
	inArticle scope = 1 << iota // inside an <article>
	inMain                      // inside <main> or [role=main]
	inChrome                    // inside comments, related posts, nav or aside
)

// collect walks doc once and gathers every metadata candidate.
func collect(doc *html.Node) *sources {
	s := &sources{meta: make(map[string]string)}
	s.walk(doc, 0, 0)
	return s
}

func (s *sources) walk(n *html.Node, depth int, sc scope) {
	if depth > maxWalkDepth {
		return
	}
	if n.Type == html.ElementNode {
		switch n.DataAtom {
		case atom.Html:
			if s.htmlLang == "" {
				s.htmlLang = strings.TrimSpace(attr(n, "lang"))
			}
		case atom.Base:
			if s.baseHref == "" {
				s.baseHref = strings.TrimSpace(attr(n, "href"))
			}
		case atom.Title:
			if s.title == "" && !inSVG(n) {
				s.title = text(n)
			}
		case atom.H1:
			if s.h1 == "" {
				// Docs generators end headings with a permalink mark.
				s.h1 = strings.TrimRight(text(n), " ¶§#🔗")
			}
		case atom.Link:
			if s.canonical == "" && hasToken(attr(n, "rel"), "canonical") {
				s.canonical = strings.TrimSpace(attr(n, "href"))
			}
		case atom.Meta:
			s.addMeta(n)
		case atom.Script:
			s.addScript(n)
			return
		case atom.Style, atom.Template, atom.Noscript:
			return
		case atom.Article:
			sc |= inArticle
		case atom.Main:
			sc |= inMain
		case atom.Nav, atom.Aside:
			sc |= inChrome
		case atom.Time:
			s.addTime(n, sc)
		}
		if strings.EqualFold(attr(n, "role"), "main") {
			sc |= inMain
		}
		if isChrome(n) {
			sc |= inChrome
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		s.walk(c, depth+1, sc)
	}
}

// addMeta records a <meta> element under each of its name, property,
// itemprop and http-equiv keys (lowercased), keeping the first value seen.
func (s *sources) addMeta(n *html.Node) {
	content := clip(strings.TrimSpace(attr(n, "content")))
	if content == "" {
		return
	}
	for _, kind := range [...]string{"name", "property", "itemprop", "http-equiv"} {
		// property may hold several space-separated values (RDFa).
		for key := range strings.FieldsSeq(strings.ToLower(attr(n, kind))) {
			k := kind + ":" + key
			if _, seen := s.meta[k]; !seen {
				s.meta[k] = content
			}
		}
	}
}

// addScript keeps the text of an application/ld+json script, within the
// page's JSON-LD budget.
func (s *sources) addScript(n *html.Node) {
	typ, _, _ := strings.Cut(attr(n, "type"), ";")
	if !strings.EqualFold(strings.TrimSpace(typ), "application/ld+json") || n.FirstChild == nil {
		return
	}
	raw := n.FirstChild.Data
	if s.jsonldSize+len(raw) > maxJSONLDBytes {
		return
	}
	s.jsonldSize += len(raw)
	s.jsonld = append(s.jsonld, raw)
}

// addTime records <time> elements that state a modification or publication
// date, and the dates of the content's <time> elements.
func (s *sources) addTime(n *html.Node, sc scope) {
	dt := strings.TrimSpace(attr(n, "datetime"))
	if dt == "" {
		return
	}
	prop := strings.ToLower(attr(n, "itemprop"))
	class := strings.ToLower(attr(n, "class"))
	switch {
	case s.timeMod == "" && (prop == "datemodified" || strings.Contains(class, "updated") || strings.Contains(class, "modified")):
		s.timeMod = dt
	case s.timePub == "" && (prop == "datepublished" || hasAttr(n, "pubdate") || strings.Contains(class, "published")):
		s.timePub = dt
	}
	d := Date(dt)
	if d == "" || sc&inChrome != 0 {
		return
	}
	if sc&inArticle != 0 && len(s.timesArticle) < maxContentTimes {
		s.timesArticle = append(s.timesArticle, d)
	}
	if sc&inMain != 0 && len(s.timesMain) < maxContentTimes {
		s.timesMain = append(s.timesMain, d)
	}
}

// chromeWords name, in a class or id, the parts of a page around its
// content that carry dates of their own: comment threads (WordPress's
// .wp-block-comments, #comments, .comment-respond) and related-post lists.
var chromeWords = []string{"comment", "related"}

// isChrome reports whether n's class or id names a comment thread or a
// related-post list. The page's containers (<html>, <body>, <main>,
// <article>) are never chrome, whatever their classes say
// ("comments-open").
func isChrome(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Html, atom.Body, atom.Main, atom.Article:
		return false
	}
	for _, a := range n.Attr {
		if a.Namespace != "" || (a.Key != "class" && a.Key != "id") {
			continue
		}
		v := strings.ToLower(a.Val)
		for _, w := range chromeWords {
			if strings.Contains(v, w) {
				return true
			}
		}
	}
	return false
}

// contentDates returns the dates of the content's <time> elements: those
// of its articles when it has dated articles, else those of its main
// landmark.
func (s *sources) contentDates() []string {
	if len(s.timesArticle) > 0 {
		return s.timesArticle
	}
	return s.timesMain
}

// get returns the first non-empty meta value among keys.
func (s *sources) get(keys ...string) string {
	for _, k := range keys {
		if v := s.meta[k]; v != "" {
			return v
		}
	}
	return ""
}

// attr returns the value of n's attribute key, or "".
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

// hasAttr reports whether n carries attribute key.
func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return true
		}
	}
	return false
}

// hasToken reports whether the space-separated list holds tok, ignoring case.
func hasToken(list, tok string) bool {
	for f := range strings.FieldsSeq(list) {
		if strings.EqualFold(f, tok) {
			return true
		}
	}
	return false
}

// inSVG reports whether n sits inside an <svg> (whose <title> names an icon,
// not the page).
func inSVG(n *html.Node) bool {
	return n.Namespace == "svg"
}

// text returns n's text content with whitespace collapsed, bounded by
// maxTextBytes.
func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node, int)
	walk = func(n *html.Node, depth int) {
		if b.Len() > maxTextBytes || depth > maxWalkDepth {
			return
		}
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
			b.WriteByte(' ')
			return
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Template, atom.Noscript:
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return clip(collapse(b.String()))
}

// collapse trims s and replaces each run of white space with one space.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// clip bounds s to maxTextBytes, cutting at a rune boundary.
func clip(s string) string {
	if len(s) <= maxTextBytes {
		return s
	}
	cut := maxTextBytes
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut]
}
