package convert

import (
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// An article's header holds, next to its title, short lines that are the
// article's metadata, not its text: a date alone ("January 17, 2025",
// "Published Jun 4, 2025"), a reading time ("8 min read"), a byline of a
// few words ("By Rebecca Norris", "Written by" then a name). The front
// matter states the date and the author already, and an article's body
// (schema.org's articleBody) does not hold them. dropHeaderLines removes
// them.

// Where dropHeaderLines looks: the text blocks up to headerBefore before
// the content's first <h1> and up to headerAfter after it, until
// headerWords words of other text (a standfirst, the story's first
// paragraph) have passed.
const (
	headerBefore = 3
	headerAfter  = 12
	headerWords  = 60
)

// maxHeaderLine is the longest line (in bytes) dropHeaderLines removes.
const maxHeaderLine = 160

// The regular expressions of a header line's parts: a date with an
// optional label ("Updated:", "Published on") and time, a reading time, a
// byline, and a label alone, whose next line is the value ("Written by",
// then the name).
var (
	month    = `(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`
	day      = `\d{1,2}(?:st|nd|rd|th)?`
	dateOnly = `(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?(?:` + month + `\s+` + day + `,?\s+\d{4}|` + day + `\s+` + month + `,?\s+\d{4}|` + month + `\s+\d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4})` +
		`(?:,?\s*(?:at\s+)?\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?(?:\s+[a-z]{2,4})?)?`
	dateLabel  = `(?:(?:last\s+)?(?:updated|published|posted|modified|reviewed|date)(?:\s+on)?\s*:?\s*|on\s+)?`
	headerDate = regexp.MustCompile(`(?i)^` + dateLabel + dateOnly + `$`)
	bareDate   = regexp.MustCompile(`(?i)^` + dateOnly + `$`)
	readTime   = regexp.MustCompile(`(?i)^(?:\d+\s*(?:min|mins|minutes?)\.?\s+(?:read|reading|to read)(?:\s+time)?|(?:estimated\s+)?(?:reading|read)\s+time\s*:?\s*\d+\s*(?:min|mins|minutes?)\.?)$`)
	byline     = regexp.MustCompile(`(?i)^(?:by|written\s+by|posted\s+by|words\s+by|author\s*:)\s+(\S+(?:\s+\S+){0,3}?)(?:\s+(` + dateLabel + dateOnly + `))?$`)
	nameLabel  = regexp.MustCompile(`(?i)^(?:by|written\s+by|posted\s+by|author|reviewed\s+by)\s*:?$`)
	dateWord   = regexp.MustCompile(`(?i)^(?:last\s+)?(?:updated|published|posted|modified)(?:\s+on)?\s*:?$`)
	lineSplit  = regexp.MustCompile(`\s+[·•|]\s+|\s+[·•|]|[·•|]\s+`)
)

// lineInfo is what a header line holds: the days of its dates as
// "2006-01-02" or "2006-01" (a month alone), whether it has a date, a
// byline or a label of one.
type lineInfo struct {
	days   []string
	date   bool // a date, or a label of one ("Last updated")
	dated  bool // a date, not only its label
	byline bool // a byline, or a label of one ("Written by")
}

// headerLine reports whether s is a line of an article's header that is
// metadata: each of its parts (split at "·", "•" or "|") a date, a
// reading time, a byline or a label of one.
func headerLine(s string) bool {
	_, ok := readHeaderLine(s)
	return ok
}

// readHeaderLine reads s as a header line (headerLine), and returns what
// it holds.
func readHeaderLine(s string) (lineInfo, bool) {
	var li lineInfo
	if len(s) > maxHeaderLine {
		return li, false
	}
	n := 0
	for _, part := range lineSplit.Split(s, -1) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		switch {
		case headerDate.MatchString(part):
			li.date, li.dated = true, true
			li.days = append(li.days, dayOf(part)...)
		case readTime.MatchString(part):
		case bylineName(part):
			li.byline = true
			if m := byline.FindStringSubmatch(part); m[2] != "" {
				li.date, li.dated = true, true
				li.days = append(li.days, dayOf(m[2])...)
			}
		case nameLabel.MatchString(part):
			li.byline = true
		case dateWord.MatchString(part):
			li.date = true
		default:
			return li, false
		}
		n++
	}
	return li, n > 0
}

// bylineName reports whether part is a byline whose name looks like one:
// it begins with a capital and holds no digit, ':' or '@' ("By phone:
// 555-0100" and "By email: help@example.com" are a contact page's lines).
func bylineName(part string) bool {
	m := byline.FindStringSubmatch(part)
	if m == nil {
		return false
	}
	r, _ := utf8.DecodeRuneInString(m[1])
	return unicode.IsUpper(r) && !strings.ContainsAny(m[1], "0123456789:@")
}

// dayLayouts are the layouts dayOf parses a date with, once its weekday,
// label, ordinal suffixes, commas and time are taken out.
var dayLayouts = []string{"January 2 2006", "Jan 2 2006", "2 January 2006", "2 Jan 2006", "2006-01-02",
	"1/2/2006", "2/1/2006", "1/2/06", "2/1/06", "1.2.2006", "2.1.2006", "1.2.06", "2.1.06"}

// monthLayouts are the layouts of a month alone ("March 2026").
var monthLayouts = []string{"January 2006", "Jan 2006"}

// dayLabel, dayTime, dayOrdinal, dayDot and daySept match what dayOf takes out of a date before parsing it.
var (
	dayLabel   = regexp.MustCompile(`(?i)^` + dateLabel + `(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?`)
	dayTime    = regexp.MustCompile(`(?i),?\s*(?:at\s+)?\d{1,2}:\d{2}.*$`)
	dayOrdinal = regexp.MustCompile(`(?i)(\d)(?:st|nd|rd|th)\b`)
	dayDot     = regexp.MustCompile(`(?i)([a-z])\.`)
	daySept    = regexp.MustCompile(`(?i)\b(sep)t\b`)
)

// dayOf returns the days a header date may be ("2006-01-02"; both readings
// of 03/04/2026), or its month ("2006-01") when it names no day.
func dayOf(s string) []string {
	s = dayTime.ReplaceAllString(dayLabel.ReplaceAllString(strings.TrimSpace(s), ""), "")
	s = dayOrdinal.ReplaceAllString(s, "$1")
	s = daySept.ReplaceAllString(dayDot.ReplaceAllString(strings.ReplaceAll(s, ",", " "), "$1"), "$1")
	s = strings.Join(strings.Fields(s), " ")
	var days []string
	for _, l := range dayLayouts {
		if t, err := time.Parse(l, s); err == nil {
			days = append(days, t.Format("2006-01-02"))
		}
	}
	for _, l := range monthLayouts {
		if t, err := time.Parse(l, s); err == nil {
			days = append(days, t.Format("2006-01"))
		}
	}
	return days
}

// sameDay reports whether one of days is the day (or month) of one of the
// page's own dates (YYYY-MM-DD, from its metadata).
func sameDay(days, page []string) bool {
	for _, d := range days {
		for _, p := range page {
			if len(p) >= len(d) && p[:len(d)] == d {
				return true
			}
		}
	}
	return false
}

// dropHeaderLines removes what an article's body does not hold around
// its title and headings: the header lines next to the title
// (dropTitleLines), a standfirst that is the page's description
// (dropStandfirst), the in-page tables of contents (dropTOC) and the
// captions of its pictures (dropCaptions).
func dropHeaderLines(root *html.Node, cl *cleaner) {
	dropTitleLines(root, cl)
	dropStandfirst(root, cl)
	dropTOC(root, cl)
	dropCaptions(root, cl)
}

// titleBlocks returns the text blocks under root and the index among them
// of the first <h1>, the title (-1 when there is none).
func titleBlocks(root *html.Node) ([]*html.Node, int) {
	blocks := textBlocks(root, nil)
	for i, b := range blocks {
		if b.DataAtom == atom.H1 {
			return blocks, i
		}
	}
	return blocks, -1
}

// dropTitleLines removes the header lines (metaLine) next to the first
// <h1> under root, the short name after a "Written by" label, and, on a
// page declared an article (cleaner.article), the section links just
// before the title (kicker). Kept elements stay (cleaner.removable).
func dropTitleLines(root *html.Node, cl *cleaner) {
	blocks, h := titleBlocks(root)
	if h < 0 {
		return
	}
	var gone []*html.Node
	for i := h - 1; i >= 0 && i >= h-headerBefore; i-- {
		if headingLevel(blocks[i]) == 0 && (metaLine(blocks, i, cl) || cl.article && kicker(blocks[i])) {
			gone = append(gone, blocks[i])
		}
	}
	words, name := 0, false
	for i := h + 1; i < len(blocks) && i <= h+headerAfter && words < headerWords; i++ {
		t := blockText(blocks[i])
		w := len(strings.Fields(t))
		switch {
		case headingLevel(blocks[i]) > 0:
			words += w
		case blocks[i].DataAtom == atom.Table:
			words = headerWords // the content has begun
			continue
		case metaLine(blocks, i, cl):
			gone = append(gone, blocks[i])
			name = nameLabel.MatchString(t)
			continue
		case name && w <= 4 && !strings.ContainsAny(t, ".!?0123456789:@") && blocks[i].DataAtom != atom.Li:
			gone = append(gone, blocks[i])
		default:
			words += w
		}
		name = false
	}
	cl.remove(gone)
}

// removable reports whether dropHeaderLines may remove n: n is not kept
// nor holds a kept element, and no ancestor of n is kept.
func (cl *cleaner) removable(n *html.Node) bool {
	if n.Parent == nil || cl.keep[n] || cl.keepPath[n] {
		return false
	}
	for p := n.Parent; p != nil; p = p.Parent {
		if cl.keep[p] {
			return false
		}
	}
	return true
}

// remove takes the nodes out of the tree that cleaner.removable allows.
func (cl *cleaner) remove(nodes []*html.Node) {
	for _, n := range nodes {
		if cl.removable(n) {
			n.Parent.RemoveChild(n)
		}
	}
}

// minDateGap is the least text (in words) between two dates alone, or two
// bylines, for dropHeaderLines to remove either: dates closer than that
// are those of a thread's posts or a list's items, and bylines those of a
// blog index's cards, which are content.
const minDateGap = 300

// nearby reports whether another block than blocks[i] that is does lies
// within minDateGap words of it, before or after.
func nearby(blocks []*html.Node, i int, is func(*html.Node) bool) bool {
	near := func(step int) bool {
		words := 0
		for j := i + step; j >= 0 && j < len(blocks) && words < minDateGap; j += step {
			if is(blocks[j]) {
				return true
			}
			words += len(strings.Fields(blockText(blocks[j])))
		}
		return false
	}
	return near(1) || near(-1)
}

// dateNearby reports whether blocks[i] is a date alone (no label such as
// "Updated") and another date alone lies within minDateGap words of it.
func dateNearby(blocks []*html.Node, i int) bool {
	return isBareDate(blocks[i]) && nearby(blocks, i, isBareDate)
}

// isBareDate reports whether b is a line holding a date alone.
func isBareDate(b *html.Node) bool {
	if headingLevel(b) > 0 || b.DataAtom == atom.Table {
		return false
	}
	t := blockText(b)
	return len(t) <= maxHeaderLine && bareDate.MatchString(t)
}

// isBylineBlock reports whether b is a line with a byline (a link to an
// author's page included).
func isBylineBlock(b *html.Node) bool {
	if headingLevel(b) > 0 || b.DataAtom == atom.Table {
		return false
	}
	t := blockText(b)
	if authorLink(b, t) {
		return true
	}
	li, ok := readHeaderLine(t)
	return ok && li.byline
}

// metaLine reports whether blocks[i] is a header line dropHeaderLines
// removes: a headerLine or a link to the author's page (a byline never
// in a list item), not a date as a link (a post's permalink), not followed by a table (a
// day's schedule), not a date near other dates nor a byline near other
// bylines (a thread, a blog index); its dates the page's own (the front
// matter's published or updated day, cleaner.days) and its byline on a
// page declared an article or whose metadata names an author
// (cleaner.byAuthor): the front matter holds what goes.
func metaLine(blocks []*html.Node, i int, cl *cleaner) bool {
	b := blocks[i]
	t := blockText(b)
	if b.DataAtom == atom.Table || i+1 < len(blocks) && blocks[i+1].DataAtom == atom.Table {
		return false
	}
	li := b.DataAtom == atom.Li // a list item may be a date or reading time, not a byline
	if authorLink(b, t) {
		return !li && cl.byAuthor && !nearby(blocks, i, isBylineBlock)
	}
	info, ok := readHeaderLine(t)
	if !ok || isBareDate(b) && 2*linkTextLen(b) > textLen(t) || dateNearby(blocks, i) {
		return false
	}
	if info.byline && (li || !cl.byAuthor || nearby(blocks, i, isBylineBlock)) {
		return false
	}
	if info.date {
		if !info.dated { // a label alone: it goes with the date after it
			return i+1 < len(blocks) && !dateWord.MatchString(blockText(blocks[i+1])) && metaLine(blocks, i+1, cl)
		}
		if !sameDay(info.days, cl.days) {
			return false
		}
	}
	return true
}

// kicker reports whether b, a line before the title, is made of links
// only and is short (six words at most): the article's category or
// section ("Restaurant Tips", "Electrical · Technician Tips").
func kicker(b *html.Node) bool {
	t := blockText(b)
	return b.Type == html.ElementNode && len(strings.Fields(t)) <= 6 && linkTextLen(b) == textLen(t) && textLen(t) > 0
}

// authorPath matches the path of a link to an author's page.
var authorPath = regexp.MustCompile(`(?i)/(?:authors?|writers?|contributors?|staff|people|profiles?|team|bio)(?:/|$)|/@[^/]+/?$|linkedin\.com/in/`)

// authorLink reports whether b (text t) is a byline that is only a link
// to its author's page: a name of four words at most.
func authorLink(b *html.Node, t string) bool {
	if b.Type != html.ElementNode || headingLevel(b) > 0 || len(strings.Fields(t)) > 4 || textLen(t) == 0 {
		return false
	}
	var link *html.Node
	for d := range b.Descendants() {
		if d.Type == html.ElementNode && d.DataAtom == atom.A {
			if link != nil {
				return false
			}
			link = d
		}
	}
	if b.DataAtom == atom.A {
		link = b
	}
	return link != nil && textLen(textOf(link)) == textLen(t) && authorPath.MatchString(attr(link, "href"))
}

// textBlocks appends to blocks the elements under n, in document order,
// that hold text and no block: headings, paragraphs, list items, a <div>
// of inline text; and the tables, as a whole. What lies in a code block, a
// definition list or a quote is content, not a header: it is skipped.
func textBlocks(n *html.Node, blocks []*html.Node) []*html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
			blocks = append(blocks, c) // a line of bare text among blocks
		}
		if c.Type != html.ElementNode || media[c.DataAtom] {
			continue
		}
		switch {
		case inline[c.DataAtom]:
			// an inline element among blocks (a <time> after the <h1>)
			// is a line of its own
			if strings.TrimSpace(textOf(c)) != "" {
				blocks = append(blocks, c)
			}
		case c.DataAtom == atom.Table:
			blocks = append(blocks, c)
		case c.DataAtom == atom.Pre || c.DataAtom == atom.Dl || c.DataAtom == atom.Blockquote:
		case headingLevel(c) > 0 || !hasBlockChild(c):
			if strings.TrimSpace(textOf(c)) != "" {
				blocks = append(blocks, c)
			}
		default:
			blocks = textBlocks(c, blocks)
		}
	}
	return blocks
}

// media are the elements a text block may hold beside its text: an
// author's photo next to the byline.
var media = map[atom.Atom]bool{atom.Img: true, atom.Picture: true, atom.Source: true}

// hasBlockChild reports whether an element that is neither inline nor
// media lies under n.
func hasBlockChild(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (!inline[c.DataAtom] && !media[c.DataAtom] || hasBlockChild(c)) {
			return true
		}
	}
	return false
}

// blockText returns n's text with its text nodes joined by a space (a
// byline's name and date often sit in two spans side by side), runs of
// white space made one and no space before punctuation.
func blockText(n *html.Node) string {
	if n.Type == html.TextNode {
		return strings.Join(strings.Fields(n.Data), " ")
	}
	var parts []string
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			parts = append(parts, d.Data)
		}
	}
	t := strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
	return spaceBeforePunct.ReplaceAllString(t, "$1")
}

// spaceBeforePunct matches a space blockText put before punctuation ("By
// <span>Jane Doe</span>, editor").
var spaceBeforePunct = regexp.MustCompile(` ([,.;:!?])`)
