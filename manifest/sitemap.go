package manifest

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Limits of one sitemap file (sitemaps.org): 50,000 URLs and 50 MB
// uncompressed; past either the sitemap is split under a sitemap index.
const (
	sitemapMaxURLs  = 50_000
	sitemapMaxBytes = 50_000_000
)

// sitemapEntry is one <url> of the generated sitemap.
type sitemapEntry struct {
	loc     string
	lastmod time.Time
}

// sitemapXML renders the sitemap: a sitemaps.org urlset of the discovered
// pages (Env.Pages) when known, else of the pages the configuration names
// (the home page, site.pages, the llms.txt links and the contact page), all
// on the origin. Past one file's limits, the first value is a sitemap index
// and parts are the urlsets it names, at sitemapPartPath(i).
func (r *resolved) sitemapXML() (doc []byte, parts [][]byte) {
	parts = splitSitemap(r.sitemapEntries(), sitemapMaxURLs, sitemapMaxBytes)
	if len(parts) == 1 {
		return parts[0], nil
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range parts {
		b.WriteString("  <sitemap><loc>")
		xml.EscapeText(&b, []byte(r.origin+sitemapPartPath(i)))
		b.WriteString("</loc></sitemap>\n")
	}
	b.WriteString("</sitemapindex>\n")
	return b.Bytes(), parts
}

// sitemapPartPath is the path of the i-th (from 0) part of a split sitemap.
func sitemapPartPath(i int) string { return fmt.Sprintf("/sitemap-%d.xml", i+1) }

// sitemapEntries lists the sitemap's URLs, each once.
func (r *resolved) sitemapEntries() []sitemapEntry {
	var out []sitemapEntry
	seen := map[string]bool{}
	origin, _ := url.Parse(r.origin)
	add := func(u string, lastmod time.Time) {
		u = r.abs(u)
		p, err := url.Parse(u)
		if u == "" || seen[u] || err != nil || !sameOrigin(p, origin) {
			return
		}
		seen[u] = true
		out = append(out, sitemapEntry{loc: u, lastmod: lastmod})
	}
	if len(r.pages) > 0 {
		// Discovery fetched every page the configuration names too: what
		// did not answer is not listed.
		for _, p := range r.pages {
			add(p.URL, p.Lastmod)
		}
		return out
	}
	add("/", time.Time{})
	for _, p := range r.s.NamedPages() {
		add(p, time.Time{})
	}
	return out
}

// NamedPages are the pages this file names, as written (site paths or
// absolute URLs, possibly on other sites): site.pages, the llms.txt links
// and the contact page. They are listed in the generated sitemap when
// discovery has found nothing, and are where discovery starts besides /.
func (s *Site) NamedPages() []string {
	out := slices.Clone(s.Info.Pages)
	for _, sec := range s.LLMs.Sections {
		for _, l := range sec.Links {
			out = append(out, l.URL)
		}
	}
	for _, l := range s.LLMs.Optional {
		out = append(out, l.URL)
	}
	if s.Contacts.Page != "" {
		out = append(out, s.Contacts.Page)
	}
	return out
}

// splitSitemap renders entries as urlsets of at most maxURLs entries and
// maxBytes bytes each; there is always at least one.
func splitSitemap(entries []sitemapEntry, maxURLs, maxBytes int) [][]byte {
	const head = xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"
	const tail = "</urlset>\n"
	var parts [][]byte
	var b bytes.Buffer
	n := 0
	var line bytes.Buffer
	for _, e := range entries {
		line.Reset()
		line.WriteString("  <url><loc>")
		xml.EscapeText(&line, []byte(e.loc))
		line.WriteString("</loc>")
		if !e.lastmod.IsZero() {
			line.WriteString("<lastmod>" + formatLastmod(e.lastmod) + "</lastmod>")
		}
		line.WriteString("</url>\n")
		if n > 0 && (n >= maxURLs || b.Len()+line.Len()+len(tail) > maxBytes) {
			b.WriteString(tail)
			parts = append(parts, bytes.Clone(b.Bytes()))
			b.Reset()
			n = 0
		}
		if n == 0 {
			b.WriteString(head)
		}
		b.Write(line.Bytes())
		n++
	}
	if n == 0 {
		b.WriteString(head)
	}
	b.WriteString(tail)
	return append(parts, b.Bytes())
}

// formatLastmod writes a W3C Datetime: the date alone when the time is
// midnight UTC (a date-only source), else seconds in UTC.
func formatLastmod(t time.Time) string {
	t = t.UTC()
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339)
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
