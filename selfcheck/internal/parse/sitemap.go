package parse

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Sitemap limits: the sitemaps.org protocol allows 50,000 URLs per file;
// locs beyond that are not parsed, and a loc longer than 2,048 characters is
// malformed.
const (
	SitemapMaxLocs   = 50000
	sitemapMaxLocLen = 2048
)

// SitemapDoc is a parsed sitemap: its root kind and its locs.
type SitemapDoc struct {
	Kind      string // "urlset", "sitemapindex" or "" when neither
	Locs      []string
	Truncated bool
	Err       error
}

// Sitemap reads a sitemap or sitemap index with a streaming decoder,
// keeping at most maxLocs locs. encoding/xml never expands custom entities
// (an "XML bomb" ends in an error), and the body is already size-capped.
func Sitemap(body []byte, maxLocs int) SitemapDoc {
	var doc SitemapDoc
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.Strict = true
	depth := 0
	inLoc := false
	var loc strings.Builder
	for {
		tok, err := dec.Token()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				doc.Err = err
			}
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth == 1 {
				switch t.Name.Local {
				case "urlset", "sitemapindex":
					doc.Kind = t.Name.Local
				default:
					doc.Err = errors.New("root element is <" + t.Name.Local + ">, not <urlset> or <sitemapindex>")
					return doc
				}
			}
			if t.Name.Local == "loc" && depth == 3 {
				inLoc = true
				loc.Reset()
			}
		case xml.EndElement:
			if inLoc && t.Name.Local == "loc" {
				inLoc = false
				if len(doc.Locs) >= maxLocs {
					doc.Truncated = true
					return doc
				}
				doc.Locs = append(doc.Locs, strings.TrimSpace(loc.String()))
			}
			depth--
		case xml.CharData:
			if inLoc && loc.Len() <= sitemapMaxLocLen {
				loc.Write(t)
			}
		}
	}
	if doc.Err == nil && doc.Kind == "" {
		doc.Err = errors.New("no root element")
	}
	return doc
}

// GunzipSitemap inflates a gzip-compressed sitemap (sitemaps.org allows
// sitemap.xml.gz) up to limit bytes; other bodies are returned unchanged.
// A body that inflates past the limit is an error, never a truncated
// document.
func GunzipSitemap(body []byte, limit int64) ([]byte, error) {
	if len(body) < 2 || body[0] != 0x1f || body[1] != 0x8b {
		return body, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("gzip sitemap: %v", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, fmt.Errorf("gzip sitemap: %v", err)
	}
	if int64(len(out)) > limit {
		return nil, fmt.Errorf("gzip sitemap inflates past %d bytes", limit)
	}
	return out, nil
}
