package convert

import (
	"strconv"

	"github.com/JohannesKaufmann/dom"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// What the chosen content may make the Markdown spend, whatever the page:
// the structures whose Markdown grows faster than their HTML are cut back
// in the tree before it is converted (bound), so the Markdown, and the work
// of writing it, stay linear in the page.
const (
	// maxNesting is how deep quotes and lists nest in the Markdown. Each
	// level prefixes every line inside it ("> ", or the list marker's
	// width), and html-to-markdown copies a level's whole text once per
	// enclosing level: nested n deep, the output grows as n² and the work
	// as n³ (a page of 500-deep quotes: 130 KB of HTML, 5 MB of Markdown,
	// 10 s of CPU). A quote or list deeper than this becomes a plain
	// block: its content stays, at the depth of the one that encloses it.
	// Real pages stay well below it (threads of quoted mail, outlines).
	maxNesting = 10

	// maxColspan and the rows left in the table bound a cell's spans, as
	// the HTML table model does (HTML Living Standard, "forming a table":
	// colspan is clamped to 1000, and a rowspan ends with its row group).
	// html-to-markdown takes the attributes as they are: rowspan=65534 on
	// the last row adds 65533 rows, each repeating the cell.
	maxColspan = 1000

	// A table whose grid (rows × widest row, every row is padded to it in
	// Markdown) is larger than gridPerCell times its cells plus gridSlack
	// is written as text, cell after cell (a ragged or span-wide table
	// would otherwise write an empty cell for each missing one: one row of
	// 1000 cells over 1000 one-cell rows is a million of them).
	gridPerCell = 16
	gridSlack   = 4096

	// A page whose spanned cells, repeated in each row and column they
	// cover, would write more than mirrorPerByte times its tables' text
	// plus mirrorSlack is converted with the spanned places left empty.
	mirrorPerByte = 4
	mirrorSlack   = 64 << 10
)

// bounder cuts back the chosen content (see the constants above) in one
// walk.
type bounder struct {
	cellText  map[*html.Node]int // text bytes under each table cell
	mirror    int                // bytes the repeated spanned cells would write
	tableText int                // text bytes of the tables with spanned cells
}

// bound cuts back root's deep quotes and lists and its costly tables, and
// reports whether spanned table cells must be left empty rather than
// repeated.
func bound(root *html.Node) (emptySpans bool) {
	bd := &bounder{cellText: map[*html.Node]int{}}
	bd.walk(root, 0)
	return bd.mirror > mirrorPerByte*bd.tableText+mirrorSlack
}

// walk bounds the children of n, which lie inside level quotes and lists,
// and returns the text bytes under n. A table is bounded once its cells
// have been walked, so every subtree is walked once.
func (bd *bounder) walk(n *html.Node, level int) int {
	text := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			text += len(c.Data)
		case html.ElementNode:
			l := level
			switch c.DataAtom {
			case atom.Blockquote, atom.Ul, atom.Ol:
				if level >= maxNesting {
					// Too deep: it becomes a plain block (<div>), its
					// content stays where it is (list items then read as
					// paragraphs of the enclosing item).
					c.DataAtom, c.Data = atom.Div, "div"
					break
				}
				l++
			}
			t := bd.walk(c, l)
			switch c.DataAtom {
			case atom.Td, atom.Th:
				bd.cellText[c] = t
			case atom.Table:
				bd.table(c)
			}
			text += t
		}
	}
	return text
}

// table clamps the spans of t's cells, writes t as text when its Markdown
// grid would be far larger than its cells, and adds what its spanned cells
// would repeat to bd.mirror.
func (bd *bounder) table(t *html.Node) {
	rows := tableRows(t)
	// extra[i] is the width rowspans from rows above add to row i (a
	// difference array: +colspan where a span starts covering, -colspan
	// where it stops).
	extra := make([]int, len(rows)+1)
	cells, width, mirror, text := 0, 0, 0, 0
	covered := 0
	for i, r := range rows {
		covered += extra[i]
		w := covered
		for _, cell := range childElements(r) {
			if cell.DataAtom != atom.Td && cell.DataAtom != atom.Th {
				continue
			}
			cells++
			cs := min(spanAttr(cell, "colspan"), maxColspan)
			rs := min(spanAttr(cell, "rowspan"), len(rows)-i)
			setSpan(cell, "colspan", cs)
			setSpan(cell, "rowspan", rs)
			w += cs
			if rs > 1 {
				extra[i+1] += cs
				extra[i+rs] -= cs
			}
			text += bd.cellText[cell]
			if area := cs * rs; area > 1 {
				mirror += (area - 1) * bd.cellText[cell]
			}
		}
		width = max(width, w)
	}
	if len(rows)*width > gridPerCell*cells+gridSlack {
		// role=presentation: html-to-markdown writes the table's cells as
		// text instead of a table.
		setAttr(t, "role", "presentation")
		return
	}
	if mirror > 0 {
		bd.mirror += mirror
		bd.tableText += text
	}
}

// spanAttr reads a colspan or rowspan as html-to-markdown does: a decimal
// number, 1 when missing, invalid or below 1.
func spanAttr(cell *html.Node, key string) int {
	v, ok := dom.GetAttribute(cell, key)
	if !ok {
		return 1
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// setSpan writes a clamped span back (none for 1).
func setSpan(cell *html.Node, key string, n int) {
	if n <= 1 {
		delAttr(cell, key)
		return
	}
	if spanAttr(cell, key) != n {
		setAttr(cell, key, strconv.Itoa(n))
	}
}
