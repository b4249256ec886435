package manifest

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// sitemapXML renders a sitemaps.org urlset of the pages the configuration
// knows: the home page, site.pages, the llms.txt links and the contact page,
// all on the origin.
func (r *resolved) sitemapXML() []byte {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	seen := map[string]bool{}
	origin, _ := url.Parse(r.origin)
	add := func(u string) {
		u = r.abs(u)
		p, err := url.Parse(u)
		if u == "" || seen[u] || err != nil || !sameOrigin(p, origin) {
			return
		}
		seen[u] = true
		b.WriteString("  <url><loc>")
		xml.EscapeText(&b, []byte(u))
		b.WriteString("</loc></url>\n")
	}
	add("/")
	for _, p := range r.s.Info.Pages {
		add(p)
	}
	for _, sec := range r.s.LLMs.Sections {
		for _, l := range sec.Links {
			add(l.URL)
		}
	}
	for _, l := range r.s.LLMs.Optional {
		add(l.URL)
	}
	add(r.s.Contacts.Page)
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

// MaxSitemapBytes caps a sitemap read by ParseSitemap (the sitemaps.org
// protocol limit is 50 MB uncompressed; far less is needed for a listing).
const MaxSitemapBytes = 10 << 20

// ParseSitemap returns up to limit page URLs from a sitemaps.org urlset, in
// document order, for llms.auto_list (Env.SitemapURLs). A sitemapindex
// yields the URLs of its child sitemaps, which the caller may fetch in
// turn. Malformed or oversized input is an error; it never panics.
func ParseSitemap(data []byte, limit int) ([]string, error) {
	if len(data) > MaxSitemapBytes {
		return nil, fmt.Errorf("parsing sitemap: larger than %d bytes", MaxSitemapBytes)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	var out []string
	var root string
	inLoc := false
	var loc strings.Builder
	for len(out) < limit {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return out, fmt.Errorf("parsing sitemap: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = t.Name.Local
				if root != "urlset" && root != "sitemapindex" {
					return nil, fmt.Errorf("parsing sitemap: root element is <%s>, want <urlset> or <sitemapindex>", root)
				}
			}
			if t.Name.Local == "loc" {
				inLoc = true
				loc.Reset()
			}
		case xml.CharData:
			if inLoc && loc.Len() < 4096 {
				loc.Write(t)
			}
		case xml.EndElement:
			if t.Name.Local == "loc" && inLoc {
				inLoc = false
				if u := strings.TrimSpace(loc.String()); u != "" {
					out = append(out, u)
				}
			}
		}
	}
	if root == "" {
		return nil, errors.New("parsing sitemap: no root element")
	}
	return out, nil
}
