package main

import (
	"bytes"
	"regexp"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// snippetText selects how the snippet metric reduces a tool's Markdown to
// text (-snippettext): "plain" (the default, plainText) or "markdowntext"
// (bench/score's MarkdownText, as sessions 3 and 4 scored).
var snippetText = "plain"

// frontMatterBlock is a YAML block at the very start, as bench/score reads it.
var frontMatterBlock = regexp.MustCompile(`\A\x{FEFF}?---[ \t]*\r?\n(?s:.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\z)`)

// plainText is the text a reader of md rendered by a CommonMark reader
// (goldmark, GFM tables) sees, as go-trafilatura's comparison matches on
// its own plain text: link text without its brackets and target, emphasis
// without its marks, backslash escapes and character references resolved,
// URLs written as text kept; images, raw HTML and the front matter
// dropped. Blocks and table cells are separated by a new line.
// bench/score's MarkdownText serves the word metric, where punctuation
// does not count; for a snippet that spans a link or an emphasis its
// brackets and marks break the match.
func plainText(md []byte) string {
	md = frontMatterBlock.ReplaceAll(md, nil)
	doc := mdReader.Parser().Parse(text.NewReader(md))
	var b bytes.Buffer
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n := n.(type) {
		case *ast.Image, *ast.RawHTML, *ast.HTMLBlock:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			if entering {
				b.Write(resolve(n.Segment.Value(md)))
				if n.SoftLineBreak() || n.HardLineBreak() {
					b.WriteByte(' ')
				}
			}
		case *ast.String:
			if entering {
				b.Write(n.Value)
			}
		case *ast.AutoLink:
			if entering {
				b.Write(n.Label(md))
			}
		case *ast.CodeBlock, *ast.FencedCodeBlock:
			if entering {
				lines := n.Lines()
				for i := 0; i < lines.Len(); i++ {
					seg := lines.At(i)
					b.Write(seg.Value(md))
				}
			}
		case *extast.TableCell:
			if !entering {
				b.WriteByte('\n')
			}
		default:
			if !entering && n.Type() == ast.TypeBlock {
				b.WriteByte('\n')
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// resolve applies what a CommonMark renderer does to a text segment:
// backslash escapes, numeric and named character references.
func resolve(s []byte) []byte {
	if bytes.IndexByte(s, '\\') < 0 && bytes.IndexByte(s, '&') < 0 {
		return s
	}
	return util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(s)))
}
