package connect

import (
	"strings"
	"unicode/utf8"

	"github.com/agentready/caddy-agentready/frontmatter"
	"github.com/agentready/caddy-agentready/fulltext"
)

// bodyOffset returns the offset of md's body after a leading front matter
// block, or 0 when md does not start with a complete one. The block is found
// by the frontmatter package, which writes the negotiated Markdown's front
// matter in the first place.
func bodyOffset(md []byte) int {
	if _, body, ok := frontmatter.Split(md); ok {
		return len(md) - len(body)
	}
	return 0
}

// pageMarkdown returns the page as get_page and resources serve it: the
// Source's Markdown when it carries front matter already, else front matter
// built from the page fields (title, description, canonical, updated,
// language, in the frontmatter package's order, as the negotiated form
// writes them) followed by the body.
func pageMarkdown(d *doc) []byte {
	md := d.markdown.bytes()
	if d.bodyStart > 0 {
		return md
	}
	m := frontmatter.Meta{
		Title: d.title, Description: d.description, Canonical: d.url,
		Updated: d.updated, Language: d.language,
	}
	return append(m.Marshal(), md...)
}

// ellipsize cuts about n bytes of text from start on a rune boundary,
// marking cuts with "…".
func ellipsize(text string, start, n int) string {
	end := min(start+n, len(text))
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end++
	}
	out := strings.TrimSpace(text[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(text) {
		out += "…"
	}
	return out
}

// markdownSections cuts a Markdown body at its ATX headings ("## Usage"),
// for a page whose Source gave no text of its own.
func markdownSections(body []byte) []fulltext.Section {
	var out []fulltext.Section
	cur := fulltext.Section{}
	var text strings.Builder
	flush := func() {
		cur.Text = strings.TrimSpace(text.String())
		if cur.Heading != "" || cur.Text != "" {
			out = append(out, cur)
		}
		text.Reset()
	}
	for line := range strings.Lines(string(body)) {
		if h, ok := atxHeading(line); ok {
			flush()
			cur = fulltext.Section{Heading: h}
			continue
		}
		text.WriteString(line)
	}
	flush()
	return out
}

// atxHeading is the text of an ATX heading line ("### Title ###").
func atxHeading(line string) (string, bool) {
	t := strings.TrimLeft(line, " ")
	n := len(t) - len(strings.TrimLeft(t, "#"))
	if n == 0 || n > 6 || len(t) > n && t[n] != ' ' && t[n] != '\t' && t[n] != '\n' {
		return "", false
	}
	return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[n:]), "#")), true
}
