package ard

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxHTMLTokens bounds the work spent looking for <link> elements.
const maxHTMLTokens = 200000

// htmlLinks returns the resolved href of the first <link> whose rel contains
// "ard" and of the first whose rel contains "ai-catalog", as
// document.querySelector('link[rel~="ard" i]').href does: the href is resolved
// against the document base URL (the first <base href>, else pageURL), and a
// first matching link without a usable href yields "".
func htmlLinks(page []byte, pageURL string) (ard, legacy string) {
	base, baseSeen := pageURL, false
	var ardHref, legacyHref *string
	z := html.NewTokenizer(bytes.NewReader(page))
	for n := 0; n < maxHTMLTokens; n++ {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		a := atom.Lookup(name)
		if (a != atom.Link && a != atom.Base) || !hasAttr {
			continue
		}
		attrs := map[string]string{}
		for more := true; more; {
			var k, v []byte
			k, v, more = z.TagAttr()
			if _, dup := attrs[string(k)]; !dup {
				attrs[string(k)] = string(v)
			}
		}
		href, ok := attrs["href"]
		if a == atom.Base {
			// The document base URL comes from the first <base> with an href.
			if ok && !baseSeen {
				baseSeen = true
				if b := resolveURL(href, pageURL); b != "" {
					base = b
				}
			}
			continue
		}
		for _, rel := range strings.Fields(strings.ToLower(attrs["rel"])) {
			switch {
			case rel == relARD && ardHref == nil:
				ardHref = &href
			case rel == relLegacy && legacyHref == nil:
				legacyHref = &href
			}
		}
	}
	if ardHref != nil {
		ard = resolveURL(*ardHref, base)
	}
	if legacyHref != nil {
		legacy = resolveURL(*legacyHref, base)
	}
	return ard, legacy
}
