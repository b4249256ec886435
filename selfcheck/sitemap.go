package selfcheck

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
	sitemapMaxLocs   = 50000
	sitemapMaxLocLen = 2048
)

// sitemapDoc is a parsed sitemap: its root kind and its locs.
type sitemapDoc struct {
	kind      string // "urlset", "sitemapindex" or "" when neither
	locs      []string
	truncated bool
	err       error
}

// parseSitemap reads a sitemap or sitemap index with a streaming decoder,
// keeping at most maxLocs locs. encoding/xml never expands custom entities
// (an "XML bomb" ends in an error), and the body is already size-capped.
func parseSitemap(body []byte, maxLocs int) sitemapDoc {
	var doc sitemapDoc
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.Strict = true
	depth := 0
	inLoc := false
	var loc strings.Builder
	for {
		tok, err := dec.Token()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				doc.err = err
			}
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth == 1 {
				switch t.Name.Local {
				case "urlset", "sitemapindex":
					doc.kind = t.Name.Local
				default:
					doc.err = errors.New("root element is <" + t.Name.Local + ">, not <urlset> or <sitemapindex>")
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
				if len(doc.locs) >= maxLocs {
					doc.truncated = true
					return doc
				}
				doc.locs = append(doc.locs, strings.TrimSpace(loc.String()))
			}
			depth--
		case xml.CharData:
			if inLoc && loc.Len() <= sitemapMaxLocLen {
				loc.Write(t)
			}
		}
	}
	if doc.err == nil && doc.kind == "" {
		doc.err = errors.New("no root element")
	}
	return doc
}

// gunzipSitemap inflates a gzip-compressed sitemap (sitemaps.org allows
// sitemap.xml.gz) up to limit bytes; other bodies are returned unchanged.
// A body that inflates past the limit is an error, never a truncated
// document.
func gunzipSitemap(body []byte, limit int64) ([]byte, error) {
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
