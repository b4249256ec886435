package connect

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// frontMatterEnd returns the offset just past a leading YAML front matter
// block ("---" line … "---" line), or 0 when md does not start with one.
func frontMatterEnd(md []byte) int {
	rest, ok := bytes.CutPrefix(md, []byte("---\n"))
	if !ok {
		if rest, ok = bytes.CutPrefix(md, []byte("---\r\n")); !ok {
			return 0
		}
	}
	for len(rest) > 0 {
		line, after, found := bytes.Cut(rest, []byte("\n"))
		if string(bytes.TrimRight(line, "\r")) == "---" {
			return len(md) - len(after)
		}
		if !found {
			break
		}
		rest = after
	}
	return 0
}

// pageMarkdown returns the page as get_page and resources serve it: the
// Source's Markdown when it carries front matter already, else front matter
// built from the page fields (title, description, canonical, updated,
// language: the order the negotiated form uses) followed by the body.
func pageMarkdown(d *doc) []byte {
	if d.bodyStart > 0 {
		return d.markdown
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(frontMatter(d))
	b.WriteString("---\n")
	b.Write(d.markdown)
	return b.Bytes()
}

// frontMatter renders the page fields as YAML lines, quoting what needs it so
// the block always parses back to the same values.
func frontMatter(d *doc) []byte {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, kv := range [][2]string{
		{"title", d.title}, {"description", d.description}, {"canonical", d.url},
		{"updated", d.updated}, {"language", d.language},
	} {
		if kv[1] == "" {
			continue
		}
		n.Content = append(n.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Value: kv[0]},
			&yaml.Node{Kind: yaml.ScalarNode, Value: kv[1], Style: scalarStyle(kv[1])})
	}
	if len(n.Content) == 0 {
		return nil
	}
	out, err := yaml.Marshal(n)
	if err != nil {
		return nil
	}
	return out
}

// scalarStyle keeps values on one line: text with line breaks is written
// double-quoted instead of as a block scalar.
func scalarStyle(v string) yaml.Style {
	if strings.ContainsAny(v, "\r\n") {
		return yaml.DoubleQuotedStyle
	}
	return 0
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
