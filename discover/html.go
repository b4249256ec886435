package discover

import (
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// pageFacts is what one HTML page tells the crawler.
type pageFacts struct {
	title       string
	description string
	canonical   string   // href of <link rel=canonical>, as written
	base        string   // href of <base>, as written
	links       []string // hrefs of <a>, <area> and <link rel=next|prev>, as written
	noindex     bool     // a robots meta for us says noindex (or none)
	nofollow    bool     // a robots meta for us says nofollow (or none)
}

// Caps on what one page contributes; past them the rest is ignored.
const (
	maxLinksPerPage = 5000
	maxTitleLen     = 1000
	maxHrefLen      = 4096
)

// extractPage reads an HTML document with the x/net/html tokenizer (no DOM
// is built, so memory stays flat whatever the page size) and collects the
// head facts and the links a crawler follows. agent is our robots product
// token: <meta name="agent"> applies besides <meta name="robots">. Links
// marked rel=nofollow are left out. It reads r to the end or to the first
// error and never panics.
func extractPage(r io.Reader, agent string) *pageFacts {
	f := &pageFacts{}
	z := html.NewTokenizer(r)
	z.SetMaxBuf(1 << 20) // one token over 1 MiB ends the page, not the process
	inTitle, inSVG := false, 0
	var title strings.Builder
	haveDesc, haveOGDesc := false, ""
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			f.title = oneLine(title.String())
			if !haveDesc && haveOGDesc != "" {
				f.description = haveOGDesc
			}
			return f
		case html.TextToken:
			if inTitle && title.Len() < maxTitleLen {
				title.Write(z.Text())
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.Title:
				inTitle = false
			case atom.Svg, atom.Math:
				inSVG = max(inSVG-1, 0)
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			switch a {
			case atom.Svg, atom.Math:
				if tt == html.StartTagToken {
					inSVG++
				}
				continue
			case atom.Title:
				// The first <title> outside SVG is the document's.
				inTitle = inSVG == 0 && f.title == "" && title.Len() == 0 && tt == html.StartTagToken
				continue
			case atom.A, atom.Area, atom.Link, atom.Meta, atom.Base:
			default:
				continue
			}
			if !hasAttr {
				continue
			}
			attrs := readAttrs(z)
			switch a {
			case atom.A, atom.Area:
				if href, ok := attrs["href"]; ok && !hasToken(attrs["rel"], "nofollow") {
					f.addLink(href)
				}
			case atom.Link:
				rel := attrs["rel"]
				switch {
				case hasToken(rel, "canonical") && f.canonical == "":
					f.canonical = strings.TrimSpace(attrs["href"])
				case hasToken(rel, "next") || hasToken(rel, "prev"):
					f.addLink(attrs["href"])
				}
			case atom.Base:
				if f.base == "" {
					f.base = strings.TrimSpace(attrs["href"])
				}
			case atom.Meta:
				f.meta(attrs, agent, &haveDesc, &haveOGDesc)
			}
		}
	}
}

// meta applies one <meta> element.
func (f *pageFacts) meta(attrs map[string]string, agent string, haveDesc *bool, ogDesc *string) {
	content := attrs["content"]
	switch name := strings.ToLower(strings.TrimSpace(attrs["name"])); {
	case name == "description" && !*haveDesc:
		*haveDesc = true
		f.description = oneLine(content)
	case name == "robots" || name == agent:
		f.applyRobots(content)
	case name == "" && strings.EqualFold(strings.TrimSpace(attrs["property"]), "og:description") && *ogDesc == "":
		*ogDesc = oneLine(content)
	}
}

// applyRobots applies a robots directive list: "noindex", "nofollow",
// "none" (both), case-insensitive, comma separated.
func (f *pageFacts) applyRobots(v string) {
	for d := range strings.SplitSeq(v, ",") {
		switch strings.ToLower(strings.TrimSpace(d)) {
		case "noindex":
			f.noindex = true
		case "nofollow":
			f.nofollow = true
		case "none":
			f.noindex, f.nofollow = true, true
		}
	}
}

func (f *pageFacts) addLink(href string) {
	href = strings.TrimSpace(href)
	if href == "" || len(href) > maxHrefLen || len(f.links) >= maxLinksPerPage {
		return
	}
	f.links = append(f.links, href)
}

// readAttrs returns the element's attributes, keys lower-cased by the
// tokenizer; the first of a repeated attribute wins, as in the HTML parser.
func readAttrs(z *html.Tokenizer) map[string]string {
	attrs := make(map[string]string, 4)
	for {
		k, v, more := z.TagAttr()
		key := string(k)
		if _, dup := attrs[key]; !dup && len(v) <= maxHrefLen {
			attrs[key] = string(v)
		}
		if !more {
			return attrs
		}
	}
}

// hasToken says whether a space-separated list (a rel value) holds tok,
// ASCII case-insensitively.
func hasToken(list, tok string) bool {
	for f := range strings.FieldsSeq(list) {
		if strings.EqualFold(f, tok) {
			return true
		}
	}
	return false
}

// oneLine collapses white space and caps a metadata value at 1,000 bytes
// (cut on a UTF-8 boundary).
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxTitleLen {
		return s
	}
	cut := maxTitleLen
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut]
}
