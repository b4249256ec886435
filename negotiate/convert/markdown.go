package convert

import (
	"bytes"
	"fmt"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
)

// newMarkdownConverter builds an html-to-markdown converter a Converter
// uses for its whole life (it is safe for concurrent use), with only the
// plugins the output needs, and checks it with a dry run: plugin errors only
// surface on the first conversion. spans says what the places a spanned
// table cell covers hold: its content again (mirror), or nothing (empty,
// for the pages where repeating would cost too much; see bound).
func newMarkdownConverter(spans table.SpanCellBehavior) (*converter.Converter, error) {
	conv := converter.NewConverter(converter.WithPlugins(
		budgetPlugin{},
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(
			// Adjacent lists would be separated by an "<!--THE END-->"
			// comment; an agent reads them fine joined.
			commonmark.WithListEndComment(false),
			// No "[](url)" or "[text]()": an empty link is its text or nothing.
			commonmark.WithLinkEmptyHrefBehavior(commonmark.LinkBehaviorSkip),
			commonmark.WithLinkEmptyContentBehavior(commonmark.LinkBehaviorSkip),
		),
		table.NewTablePlugin(
			// A spanned cell repeats its content in each column it covers,
			// so every row still reads on its own.
			table.WithSpanCellBehavior(spans),
			table.WithHeaderPromotion(true),
			table.WithCellPaddingBehavior(table.CellPaddingBehaviorMinimal),
			table.WithNewlineBehavior(table.NewlineBehaviorPreserve),
			table.WithSkipEmptyRows(true),
		),
		strikethrough.NewStrikethroughPlugin(),
		escapePlugin{},
		quotePlugin{},
	))
	out, err := conv.ConvertString(`<h1>Dry run</h1><p>a <a href="/x">link</a></p><table><tr><td>1</td></tr></table><del>x</del>`,
		converter.WithDomain("https://example.com/"))
	if err != nil {
		return nil, fmt.Errorf("convert: html-to-markdown dry run: %w", err)
	}
	if want := "# Dry run\n\na [link](https://example.com/x)"; len(out) < len(want) || out[:len(want)] != want {
		return nil, fmt.Errorf("convert: html-to-markdown dry run: unexpected output %q", out)
	}
	return conv, nil
}

// tidy normalises the converter's output line by line: trailing blanks
// removed (a two-space hard line break before a non-blank line is kept), at
// most one blank line in a row, no leading or trailing blank lines, one
// final newline. Fenced code blocks are copied byte for byte. The result is
// appended to dst; nothing is when md has no text.
func appendTidy(dst, md []byte) []byte {
	out, start := dst, len(dst)
	var fence []byte // the open fence, nil in prose
	blank := true    // the previous written line was blank (or none yet)
	for len(md) > 0 {
		line := md
		if i := bytes.IndexByte(md, '\n'); i >= 0 {
			line = md[:i]
			md = md[i+1:]
		} else {
			md = nil
		}
		if fence != nil {
			out = append(append(out, line...), '\n')
			if t := bytes.TrimSpace(line); bytes.HasPrefix(t, fence) && len(bytes.Trim(t, string(fence[:1]))) == 0 {
				fence = nil
			}
			continue
		}
		trimmed := bytes.TrimRight(line, " \t")
		if len(bytes.TrimSpace(trimmed)) == 0 {
			if !blank {
				out = append(out, '\n')
			}
			blank = true
			continue
		}
		hardBreak := len(line)-len(trimmed) >= 2
		if trimmed[0] == '|' && bytes.Contains(trimmed, cellHardBreak) {
			// A line break in a table cell: html-to-markdown writes the
			// hard break's two spaces before its <br />.
			trimmed = bytes.ReplaceAll(trimmed, cellHardBreak, cellHardBreak[2:])
		}
		out = append(out, trimmed...)
		if hardBreak && nextLineHasText(md) {
			out = append(out, "  "...)
		}
		out = append(out, '\n')
		blank = false
		fence = openingFence(trimmed)
	}
	for len(out) > start && out[len(out)-1] == '\n' {
		out = out[:len(out)-1]
	}
	if len(out) == start {
		return dst
	}
	return append(out, '\n')
}

// cellHardBreak is a hard line break inside a GFM table cell as
// html-to-markdown writes it.
var cellHardBreak = []byte("  <br />")

// nextLineHasText reports whether the first line of rest is not blank.
func nextLineHasText(rest []byte) bool {
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	return len(bytes.TrimSpace(line)) > 0
}

// openingFence returns the fence (``` or ~~~ run) that line opens, or nil.
func openingFence(line []byte) []byte {
	t := bytes.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || t[0] != '`' && t[0] != '~' {
		return nil
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || t[0] == '`' && bytes.IndexByte(t[n:], '`') >= 0 {
		return nil
	}
	return t[:n]
}

// jsonFence writes block as a fenced json code block whose fence is longer
// than any backtick run inside it.
func jsonFence(w *bytes.Buffer, block []byte) {
	longest, run := 0, 0
	for _, c := range block {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := bytes.Repeat([]byte("`"), max(3, longest+1))
	var pretty bytes.Buffer
	if err := jsonIndent(&pretty, block); err != nil {
		pretty.Reset()
		pretty.Write(block)
	}
	w.WriteString("\n")
	w.Write(fence)
	w.WriteString("json\n")
	w.Write(pretty.Bytes())
	w.WriteString("\n")
	w.Write(fence)
	w.WriteString("\n")
}
