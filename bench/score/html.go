package score

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// HTMLText returns the text content of an HTML document or fragment, as the
// DOM's textContent would, but with a space at every block boundary and line
// break so that words in adjacent blocks stay apart. Script, style, template
// and noscript content is skipped, as are image alt texts (they are not text
// content; [MarkdownText] drops images for the same reason).
func HTMLText(r io.Reader) (string, error) {
	doc, err := html.Parse(r)
	if err != nil {
		return "", fmt.Errorf("parsing expected html: %w", err)
	}
	var sb strings.Builder
	// Walk the tree through its sibling and parent pointers rather than by
	// recursion, so hostile nesting depth costs no stack.
	n := doc
	for n != nil {
		descend := true
		switch n.Type {
		case html.TextNode:
			sb.WriteString(n.Data)
		case html.ElementNode:
			if skipped[n.DataAtom] {
				descend = false
			} else if !inline[n.DataAtom] {
				sb.WriteByte(' ')
			}
		}
		if descend && n.FirstChild != nil {
			n = n.FirstChild
			continue
		}
		for n != nil {
			if n.Type == html.ElementNode && !inline[n.DataAtom] && !skipped[n.DataAtom] {
				sb.WriteByte(' ')
			}
			if n == doc {
				n = nil
				break
			}
			if n.NextSibling != nil {
				n = n.NextSibling
				break
			}
			n = n.Parent
		}
	}
	return sb.String(), nil
}

// skipped lists the elements whose content is not text a reader sees.
var skipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Template: true, atom.Noscript: true,
}

// inline lists the phrasing elements that do not separate words.
var inline = map[atom.Atom]bool{
	atom.A: true, atom.Abbr: true, atom.B: true, atom.Bdi: true, atom.Bdo: true,
	atom.Cite: true, atom.Code: true, atom.Data: true, atom.Dfn: true, atom.Em: true,
	atom.Font: true, atom.I: true, atom.Kbd: true, atom.Mark: true, atom.Q: true,
	atom.S: true, atom.Samp: true, atom.Small: true, atom.Span: true, atom.Strike: true,
	atom.Strong: true, atom.Sub: true, atom.Sup: true, atom.Time: true, atom.Tt: true,
	atom.U: true, atom.Var: true, atom.Del: true, atom.Ins: true, atom.Label: true,
}
