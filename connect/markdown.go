package connect

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/agentready/caddy-agentready/frontmatter"
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
	if d.bodyStart > 0 {
		return d.markdown
	}
	m := frontmatter.Meta{
		Title: d.title, Description: d.description, Canonical: d.url,
		Updated: d.updated, Language: d.language,
	}
	return append(m.Marshal(), d.markdown...)
}

// snippet returns about n bytes of plain text from body around the first
// occurrence of a query word, or from the start when none occurs.
func snippet(body []byte, q string, n int) string {
	// The title heading repeats the result's name: start after it.
	if trimmed := bytes.TrimLeft(body, " \t\r\n"); bytes.HasPrefix(trimmed, []byte("# ")) {
		if _, rest, ok := bytes.Cut(trimmed, []byte("\n")); ok && len(bytes.TrimSpace(rest)) > 0 {
			body = rest
		}
	}
	text := collapseSpace(body, 64*n)
	lower := strings.ToLower(text)
	at := -1
	for w := range strings.FieldsSeq(strings.ToLower(q)) {
		if len(w) < 2 {
			continue
		}
		if i := strings.Index(lower, w); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	start := 0
	if at > n/3 {
		start = at - n/3
	}
	for start > 0 && start < len(text) && !utf8.RuneStart(text[start]) {
		start--
	}
	return ellipsize(text, start, n)
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

// collapseSpace returns up to limit bytes of md as one line: Markdown
// markers (#, *, >, `, |, leading list dashes) dropped, runs of white space
// collapsed.
func collapseSpace(md []byte, limit int) string {
	var b strings.Builder
	space := false
	for _, r := range string(md[:min(len(md), limit)]) {
		switch {
		case r == '#' || r == '*' || r == '>' || r == '`' || r == '|' || r == '_':
			continue
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
