package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Meta is the metadata of one page. The field order is the order of the keys
// in the YAML front matter; empty fields are omitted.
type Meta struct {
	// Title is the page's title: og:title, JSON-LD headline, <title> minus
	// the site-name suffix, or the first <h1>, in that order.
	Title string `yaml:"title,omitempty"`
	// Description is the page's summary: meta description, og:description,
	// twitter:description or JSON-LD description.
	Description string `yaml:"description,omitempty"`
	// Canonical is the page's own absolute URL: its <link rel="canonical">
	// when that is on the same origin, else the request URL. Never a /md URL.
	Canonical string `yaml:"canonical,omitempty"`
	// Updated is the date (YYYY-MM-DD) the content last changed: JSON-LD
	// dateModified, article:modified_time, a <time> in the article, or the
	// origin's Last-Modified header.
	Updated string `yaml:"updated,omitempty"`
	// Published is the date (YYYY-MM-DD) the content was first published:
	// JSON-LD datePublished, article:published_time or <time itemprop=datePublished>.
	Published string `yaml:"published,omitempty"`
	// Language is the BCP 47 tag of the content: <html lang>, the
	// Content-Language header, og:locale, or the configured default.
	Language string `yaml:"language,omitempty"`
	// Author names the author(s): JSON-LD author, meta author.
	Author string `yaml:"author,omitempty"`
	// Image is the absolute URL of the page's representative image:
	// og:image, JSON-LD image or twitter:image.
	Image string `yaml:"image,omitempty"`
	// SiteName is the name of the site: og:site_name, application-name, or
	// the JSON-LD WebSite/Organization name.
	SiteName string `yaml:"site_name,omitempty"`
}

// field pairs a YAML key with a pointer to the Meta field that holds it.
type field struct {
	key string
	val *string
}

// fields lists m's fields in YAML order.
func (m *Meta) fields() []field {
	return []field{
		{"title", &m.Title},
		{"description", &m.Description},
		{"canonical", &m.Canonical},
		{"updated", &m.Updated},
		{"published", &m.Published},
		{"language", &m.Language},
		{"author", &m.Author},
		{"image", &m.Image},
		{"site_name", &m.SiteName},
	}
}

// Sanitized returns m with every field made valid UTF-8 (each invalid byte
// sequence becomes U+FFFD). Marshal writes the sanitized values, so
// Parse(m.Marshal()) always equals m.Sanitized().
func (m Meta) Sanitized() Meta {
	for _, f := range m.fields() {
		if !utf8.ValidString(*f.val) {
			*f.val = strings.ToValidUTF8(*f.val, "\uFFFD")
		}
	}
	return m
}

// IsZero reports whether every field of m is empty.
func (m Meta) IsZero() bool { return m == Meta{} }

// Marshal returns m as YAML front matter: "---\n", one "key: value" line per
// non-empty field in field order, "---\n". Values are written plain when YAML
// reads them back as the same string and double-quoted with escapes
// otherwise, so the result always parses back to m.Sanitized().
func (m Meta) Marshal() []byte {
	m = m.Sanitized()
	var b bytes.Buffer
	b.WriteString("---\n")
	for _, f := range m.fields() {
		if *f.val == "" {
			continue
		}
		b.WriteString(f.key)
		b.WriteString(": ")
		writeScalar(&b, *f.val)
		b.WriteByte('\n')
	}
	b.WriteString("---\n")
	return b.Bytes()
}

// ErrUnterminated is returned by Parse when a document opens front matter
// and never closes it.
var ErrUnterminated = errors.New("front matter: no closing --- line")

// Parse splits doc into its front matter and its body. A document that does
// not start with a "---" line has no front matter: Parse returns a zero Meta
// and doc unchanged. Keys that Meta does not know are ignored.
func Parse(doc []byte) (Meta, []byte, error) {
	block, body, ok := Split(doc)
	if !ok {
		if _, open := cutLine(doc, "---"); open {
			return Meta{}, doc, ErrUnterminated
		}
		return Meta{}, doc, nil
	}
	var m Meta
	if err := yaml.Unmarshal(block, &m); err != nil {
		return Meta{}, doc, fmt.Errorf("front matter: parsing yaml: %w", err)
	}
	return m, body, nil
}

// Split finds the front matter block at the start of doc without reading
// its YAML: a "---" line, the YAML lines, then a "---" or "..." line (YAML's
// document end marker), each line ended by "\n", "\r\n" or the end of doc.
// It returns the YAML between the two marker lines and the body after the
// closing one. ok is false, and body is doc, when doc does not start with a
// "---" line or never closes the block.
func Split(doc []byte) (block, body []byte, ok bool) {
	rest, ok := cutLine(doc, "---")
	if !ok {
		return nil, doc, false
	}
	for off := 0; off < len(rest); {
		line := rest[off:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		for _, marker := range []string{"---", "..."} {
			if after, ok := cutLine(line, marker); ok && len(after) == 0 {
				return rest[:off], rest[off+len(line):], true
			}
		}
		off += len(line)
	}
	return nil, doc, false
}

// cutLine reports whether b starts with the line marker (ended by "\n",
// "\r\n" or the end of b) and returns what follows that line.
func cutLine(b []byte, marker string) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(b, []byte(marker))
	if !ok {
		return b, false
	}
	switch {
	case len(rest) == 0:
		return rest, true
	case rest[0] == '\n':
		return rest[1:], true
	case len(rest) > 1 && rest[0] == '\r' && rest[1] == '\n':
		return rest[2:], true
	}
	return b, false
}
