package convert

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/marker"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// escapePlugin narrows html-to-markdown's "smart" escaping to what would
// change the CommonMark meaning of the text. The library marks every
// character that could be Markdown syntax with a placeholder byte while it
// renders text, and later turns the placeholders it judges needed into
// backslashes. Its judgement of "_" is too eager: identifiers such as
// LARGE_PAGE_END_TOKEN_1M or snake_case come out as LARGE\_PAGE\_END...,
// and agents copy the backslashes into code. This plugin's text transformer
// runs after the library's and drops the placeholders that can never be
// syntax:
//
//   - "_" with a letter or digit on both sides: CommonMark 0.31, section
//     6.2, rules 2 and 3: an intraword "_" run is both left- and
//     right-flanking and, not being preceded or followed by punctuation,
//     can neither open nor close emphasis;
//   - "[" whose "]" in the same text is not followed by "(", "[" or ":"
//     and holds no other bracket: with no link reference definitions in
//     the output (this package writes none, and a "[x]: " definition needs
//     the ":"), such a bracket pair is literal text (section 6.3). Footnote
//     marks like [1] and [citation needed] stay readable.
type escapePlugin struct{}

func (escapePlugin) Name() string { return "agent-ready-escape" }

func (escapePlugin) Init(conv *converter.Converter) error {
	// After base's transformer (PriorityStandard), which inserts the
	// placeholders, and before commonmark's (PriorityLate).
	conv.Register.TextTransformer(func(_ converter.Context, s string) string {
		if strings.Contains(s, bom) {
			// A byte order mark inside the text (a fragment included
			// with its own) is not text: zero width, and a word breaker.
			s = strings.ReplaceAll(s, bom, "")
		}
		return literalAngles(minimalEscapes(s))
	}, converter.PriorityStandard+10)
	return nil
}

// bom is U+FEFF, the byte order mark (also the deprecated zero width
// no-break space).
const bom = "\ufeff"

// escapeMark is the library's placeholder byte before a character that may
// need a backslash.
const escapeMark = byte(marker.MarkerEscaping)

// minimalEscapes removes the escape placeholders of s that guard nothing
// (see escapePlugin).
func minimalEscapes(s string) string {
	if strings.IndexByte(s, escapeMark) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != escapeMark || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		switch s[i+1] {
		case '_':
			if wordRuneBefore(s, i) && wordRuneAfter(s, i+2) {
				continue // drop the placeholder
			}
		case '[':
			if literalBracket(s, i+2) {
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// literalAngles undoes the library's &lt; and &gt; where the bare
// character cannot be Markdown syntax, so that an agent reading the
// Markdown as text sees "[>>>]" and "a < b", not "[&gt;&gt;&gt;]": a ">"
// is syntax only first on a line (a block quote; a text node that starts
// with one may start a line, so it keeps its reference), and a "<" only
// before a letter, "/", "!" or "?" (raw HTML, an autolink; CommonMark
// 0.31, sections 6.5 and 6.6).
func literalAngles(s string) string {
	if !strings.Contains(s, "&gt;") && !strings.Contains(s, "&lt;") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	lead := true // nothing but spaces so far
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "&gt;") && !lead:
			b.WriteByte('>')
			i += 3
			continue
		case strings.HasPrefix(s[i:], "&lt;") && !htmlStart(s, i+4):
			b.WriteByte('<')
			i += 3
			lead = false
			continue
		}
		lead = lead && (s[i] == ' ' || s[i] == '\t')
		b.WriteByte(s[i])
	}
	return b.String()
}

// htmlStart reports whether the byte at s[i] may continue a "<" into raw
// HTML or an autolink: an ASCII letter, "/", "!" or "?" (or the end of the
// text, whose continuation is not known).
func htmlStart(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	c := s[i]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/' || c == '!' || c == '?' || c == escapeMark
}

// wordRuneBefore reports whether the rune ending at s[:i] is a letter or a
// digit.
func wordRuneBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// wordRuneAfter reports whether the rune starting at s[i:] is a letter or
// a digit.
func wordRuneAfter(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// literalBracket reports whether the "[" before s[i:] is closed in s by a
// "]" with no other bracket, backtick or backslash in between, and that
// "]" is not followed by "(", "[" or ":" (an inline link, a full reference
// or a definition) nor ends s (the text that follows is not known).
func literalBracket(s string, i int) bool {
	empty := true
	for j := i; j < len(s); j++ {
		c := s[j]
		if c == escapeMark && j+1 < len(s) {
			j++
			c = s[j]
		}
		switch c {
		case ']':
			if empty || j+1 >= len(s) {
				return false // "[]", or the end of the text
			}
			k := j + 1
			if s[k] == escapeMark && k+1 < len(s) {
				k++
			}
			switch s[k] {
			case '(', '[', ':':
				return false
			}
			return true
		case '[', '`', '\\', '\n':
			return false
		}
		empty = false
	}
	return false
}

// separateMarks keeps a bold element and an italic one that follow each
// other apart: html-to-markdown merges adjacent emphasis of any kind, so
// <strong>Bold</strong><em>Italic</em> would come out as **BoldItalic**.
// An empty element of no meaning between them stops the merge, and the
// output is **Bold***Italic*, which CommonMark reads back as the two marks
// (section 6.2, rule 14 and the "multiple of 3" rule).
func separateMarks(n *html.Node) {
	next := n.NextSibling
	if next == nil || next.Type != html.ElementNode || isBold(n) == isBold(next) || !isMark(next) {
		return
	}
	n.Parent.InsertBefore(&html.Node{Type: html.ElementNode, Data: "mark-break"}, next)
}

// isMark reports whether n is a bold or italic element.
func isMark(n *html.Node) bool {
	switch n.DataAtom {
	case atom.B, atom.Strong, atom.I, atom.Em:
		return true
	}
	return false
}

// isBold reports whether n is a bold element.
func isBold(n *html.Node) bool { return n.DataAtom == atom.B || n.DataAtom == atom.Strong }

// quotePlugin renders <blockquote> so that a code block inside it stays
// one: html-to-markdown's own renderer writes the lines of a code block
// with a placeholder for their line breaks (replaced only at the very
// end), so it prefixes only the first line of the block with "> " and
// CommonMark ends the quote, and the code block, there (section 5.1: a
// fenced code block is not a paragraph, so no lazy continuation). This
// renderer turns the placeholders into line breaks before it prefixes
// every line.
type quotePlugin struct{}

func (quotePlugin) Name() string { return "agent-ready-quote" }

func (quotePlugin) Init(conv *converter.Converter) error {
	// Before commonmark's renderer (PriorityStandard).
	conv.Register.RendererFor("blockquote", converter.TagTypeBlock, renderQuote, converter.PriorityEarly)
	return nil
}

// codeNewline is html-to-markdown's placeholder for a line break inside a
// code block.
var codeNewline = marker.BytesMarkerCodeBlockNewline

func renderQuote(ctx converter.Context, w converter.Writer, n *html.Node) converter.RenderStatus {
	var buf bytes.Buffer
	ctx.RenderChildNodes(ctx, &buf, n)
	content := bytes.TrimSpace(buf.Bytes())
	if len(content) == 0 {
		return converter.RenderSuccess
	}
	// At most one blank line in a row (code lines are still joined by
	// placeholders, so their blank lines are safe), then the code's line
	// breaks, then the prefix on every line.
	for bytes.Contains(content, []byte("\n\n\n")) {
		content = bytes.ReplaceAll(content, []byte("\n\n\n"), []byte("\n\n"))
	}
	content = bytes.ReplaceAll(content, codeNewline, []byte("\n"))
	w.WriteString("\n\n> ")
	for _, b := range content {
		w.WriteByte(b)
		if b == '\n' {
			w.WriteString("> ")
		}
	}
	w.WriteString("\n\n")
	return converter.RenderSuccess
}
