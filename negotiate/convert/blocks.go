package convert

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// GFM table cells hold one line of inline content. A cell holding code, a
// list, a quote or another table cannot be written in one: html-to-markdown
// then either gives up on the table (and writes its cells as loose
// paragraphs, headers lost) or writes the code block's lines joined with
// <br /> (the code is no longer code). blockTable decides, before the
// table's cells are cleaned, which way a table goes:
//
//   - no block content in its cells: a GFM table, as before;
//   - block content, and it is a data table (header cells, a <thead> or a
//     <caption>): a list, one item per row, each cell its header in bold
//     and its content, blocks kept as blocks (see tableToList);
//   - block content in a layout table: role=presentation, which makes
//     html-to-markdown write its cells one after the other as blocks.

// cellBlocks are the elements a GFM table cell cannot hold.
var cellBlocks = map[atom.Atom]bool{
	atom.Pre: true, atom.Table: true, atom.Ul: true, atom.Ol: true, atom.Dl: true,
	atom.Blockquote: true, atom.Hr: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
}

// blockTable rewrites table (see above) and reports whether it became a
// list.
func blockTable(table *html.Node) bool {
	rows := tableRows(table)
	hasBlocks := false
	for _, r := range rows {
		for _, cell := range childElements(r) {
			if findAny(cell, cellBlocks) {
				hasBlocks = true
				break
			}
		}
		if hasBlocks {
			break
		}
	}
	if !hasBlocks {
		if !isDataTable(table, rows) && oneColumn(rows) {
			// A one-column table without header cells lays a page out:
			// its cells are blocks, not a GFM table of one column.
			setAttr(table, "role", "presentation")
			return false
		}
		for _, r := range rows {
			for _, cell := range childElements(r) {
				inlineCell(cell)
			}
		}
		return false
	}
	if !isDataTable(table, rows) {
		setAttr(table, "role", "presentation")
		return false
	}
	tableToList(table, rows)
	return true
}

// layoutTable reports whether table lays a page out rather than holds
// data: it is no data table (no header cells, <thead> or <caption>) and
// its cells hold blocks (headings, lists, other tables), or it has one
// column, as blockTable tells them.
func layoutTable(table *html.Node) bool {
	rows := tableRows(table)
	if isDataTable(table, rows) {
		return false
	}
	if oneColumn(rows) {
		return true
	}
	for _, r := range rows {
		for _, cell := range childElements(r) {
			if findAny(cell, cellBlocks) {
				return true
			}
		}
	}
	return false
}

// cellParagraphs are the blocks a GFM table's cell holds that inlineCell
// writes as lines.
var cellParagraphs = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Section: true, atom.Article: true, atom.Header: true,
	atom.Footer: true, atom.Address: true, atom.Center: true,
}

// inlineCell writes the paragraphs of a cell of a GFM table (the
// PostgreSQL manual's function tables: a <p> for the signature, another
// for what it does) as lines of the cell, one <br> between them.
// html-to-markdown writes each paragraph break in a cell as four <br />.
func inlineCell(cell *html.Node) {
	if !findAny(cell, cellParagraphs) {
		return
	}
	var out []*html.Node
	open := false // text on the current line
	brk := func() {
		if open {
			out = append(out, element(atom.Br))
			open = false
		}
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			n.RemoveChild(c)
			switch {
			case c.Type == html.ElementNode && cellParagraphs[c.DataAtom]:
				brk()
				walk(c)
				brk()
			case c.Type == html.ElementNode && c.DataAtom == atom.Br:
				out = append(out, c)
				open = false
			default:
				out = append(out, c)
				open = open || c.Type == html.ElementNode || c.Type == html.TextNode && strings.TrimSpace(c.Data) != ""
			}
			c = next
		}
	}
	walk(cell)
	for len(out) > 0 && (out[len(out)-1].DataAtom == atom.Br || out[len(out)-1].Type == html.TextNode && strings.TrimSpace(out[len(out)-1].Data) == "") {
		out = out[:len(out)-1]
	}
	for _, c := range out {
		cell.AppendChild(c)
	}
}

// oneColumn reports whether no row has more than one cell.
func oneColumn(rows []*html.Node) bool {
	for _, r := range rows {
		if len(childElements(r)) > 1 {
			return false
		}
	}
	return true
}

// tableRows returns the table's own rows (not those of nested tables), in
// order: <thead>, <tbody> and <tfoot> rows and bare ones.
func tableRows(table *html.Node) []*html.Node {
	var rows []*html.Node
	for _, c := range childElements(table) {
		switch c.DataAtom {
		case atom.Tr:
			rows = append(rows, c)
		case atom.Thead, atom.Tbody, atom.Tfoot:
			for _, r := range childElements(c) {
				if r.DataAtom == atom.Tr {
					rows = append(rows, r)
				}
			}
		}
	}
	return rows
}

// isDataTable reports whether the table presents data (it has a <thead>,
// a <caption> or header cells) rather than laying out a page.
func isDataTable(table *html.Node, rows []*html.Node) bool {
	for _, c := range childElements(table) {
		if c.DataAtom == atom.Thead || c.DataAtom == atom.Caption {
			return true
		}
	}
	for _, r := range rows {
		for _, cell := range childElements(r) {
			if cell.DataAtom == atom.Th {
				return true
			}
		}
	}
	return false
}

// headerRow returns the row that names the columns: the last row of the
// <thead>, else the first row when all its cells are <th>; nil when none.
func headerRow(table *html.Node, rows []*html.Node) *html.Node {
	for _, c := range childElements(table) {
		if c.DataAtom == atom.Thead {
			var last *html.Node
			for _, r := range childElements(c) {
				if r.DataAtom == atom.Tr {
					last = r
				}
			}
			return last
		}
	}
	if len(rows) == 0 {
		return nil
	}
	cells := childElements(rows[0])
	for _, c := range cells {
		if c.DataAtom != atom.Th {
			return nil
		}
	}
	if len(cells) == 0 {
		return nil
	}
	return rows[0]
}

// tableToList turns table into a bullet list with one item per body row.
// In an item, each non-empty cell is "**Header**: content" when the table
// names its columns, else its content; a cell with block content has its
// label on a line of its own and its blocks after it. Rows of the <thead>
// other than the header row are items too. A <caption> stays in front
// (tableCaption moved it out already).
func tableToList(table *html.Node, rows []*html.Node) {
	head := headerRow(table, rows)
	var names []string
	if head != nil {
		for _, c := range childElements(head) {
			names = append(names, strings.Join(strings.Fields(textOf(c)), " "))
			for range max(1, min(atoi(attr(c, "colspan")), 100)) - 1 {
				names = append(names, names[len(names)-1])
			}
		}
	}
	var items []*html.Node
	for _, r := range rows {
		if r == head {
			continue
		}
		li := element(atom.Li)
		col := 0
		for _, cell := range childElements(r) {
			name := ""
			if col < len(names) {
				name = names[col]
			}
			col += max(1, min(atoi(attr(cell, "colspan")), 100))
			if !nodeHasText(cell) && findFirst(cell, atom.Img) == nil {
				continue
			}
			blocks := findAny(cell, cellBlocks)
			if !blocks {
				unwrapSoleParagraph(cell)
				blocks = hasBlock(cell)
			}
			label := element(atom.P)
			if name != "" {
				strong := element(atom.Strong)
				strong.AppendChild(&html.Node{Type: html.TextNode, Data: name})
				label.AppendChild(strong)
				label.AppendChild(&html.Node{Type: html.TextNode, Data: ": "})
			}
			if blocks {
				if name != "" {
					li.AppendChild(label)
				}
				div := element(atom.Div)
				moveChildren(cell, div)
				li.AppendChild(div)
			} else {
				moveChildren(cell, label)
				li.AppendChild(label)
			}
		}
		if li.FirstChild != nil {
			items = append(items, li)
		}
	}
	for c := table.FirstChild; c != nil; c = table.FirstChild {
		table.RemoveChild(c)
	}
	table.Data, table.DataAtom, table.Attr = "ul", atom.Ul, nil
	for _, li := range items {
		table.AppendChild(li)
	}
}

// unwrapSoleParagraph replaces a <p> that is n's only element child with
// its content.
func unwrapSoleParagraph(n *html.Node) {
	kids := childElements(n)
	if len(kids) != 1 || kids[0].DataAtom != atom.P {
		return
	}
	p := kids[0]
	for c := p.FirstChild; c != nil; c = p.FirstChild {
		p.RemoveChild(c)
		n.InsertBefore(c, p)
	}
	n.RemoveChild(p)
}

// findAny reports whether an element whose atom is in set lies under n.
func findAny(n *html.Node, set map[atom.Atom]bool) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (set[c.DataAtom] || findAny(c, set)) {
			return true
		}
	}
	return false
}

// admonition writes a note, warning or tip box (Sphinx and MkDocs
// div.admonition, <aside role=note>, GitHub's markdown-alert, DocBook's
// div.note, div.tip, div.warning, div.important, div.caution) as its
// title in bold on a line of its own, then its content: "**Warning**".
// The title is the box's title element (p.admonition-title, p.sidebar-title,
// .markdown-alert-title), else its aria-label. It is not made a quote:
// html-to-markdown prefixes only the first line of a code block inside a
// quote with ">", which breaks the fence.
func admonition(n *html.Node) {
	var title *html.Node
	for _, c := range childElements(n) {
		if hasClass(c, "admonition-title") || hasClass(c, "markdown-alert-title") || hasClass(c, "title") || hasClass(c, "sidebar-title") {
			title = c
			break
		}
	}
	label := ""
	if title != nil {
		label = strings.Join(strings.Fields(textOf(title)), " ")
		n.RemoveChild(title)
	} else {
		label = strings.Join(strings.Fields(attr(n, "aria-label")), " ")
	}
	n.Data, n.DataAtom, n.Attr = "div", atom.Div, nil
	if label == "" {
		return
	}
	p := element(atom.P)
	strong := element(atom.Strong)
	strong.AppendChild(&html.Node{Type: html.TextNode, Data: label})
	p.AppendChild(strong)
	n.InsertBefore(p, n.FirstChild)
}

// isAdmonition reports whether n is a note, warning or tip box, or a
// docutils sidebar (aside.sidebar, titled by p.sidebar-title) that the
// prune rules kept because it holds code.
func isAdmonition(n *html.Node) bool {
	if n.DataAtom == atom.Aside && hasClass(n, "sidebar") {
		return true
	}
	switch n.DataAtom {
	case atom.Div, atom.Aside, atom.Section:
	default:
		return false
	}
	if strings.EqualFold(strings.TrimSpace(attr(n, "role")), "note") {
		return true
	}
	// DocBook's note, tip, warning, important and caution boxes, titled by
	// an h3.title ("Note"): a label, not a section of the page (PostgreSQL's
	// manual has one inside many an option's description); a DocBook
	// sidebar's title names a topic and stays a heading
	return hasClass(n, "admonition") || hasClass(n, "markdown-alert") || isDocBookBox(n) && !hasClass(n, "sidebar")
}

// hasClass reports whether n's class attribute holds name.
func hasClass(n *html.Node, name string) bool {
	for c := range strings.FieldsSeq(attr(n, "class")) {
		if c == name {
			return true
		}
	}
	return false
}
