package fulltext

import (
	"errors"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// FromHTML reads an HTML page as the index wants it: its title and its
// whole visible text cut into sections at each heading (h1–h6), definition
// lists, tables, code and navigation included, script, style, template and
// SVG left out. Blocks end with a line break and table cells with a tab,
// one between two runs of text. It reads r to the end (the caller bounds
// it) and fails only when r does.
func FromHTML(r io.Reader) (title string, sections []Section, err error) {
	p := htmlText{}
	z := html.NewTokenizer(r)
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if err := z.Err(); !errors.Is(err, io.EOF) {
				return "", nil, err
			}
			p.flush()
			return oneLine(p.title.String()), p.sections, nil
		}
		p.token(z, tt)
	}
}

// htmlText is the state of FromHTML's walk.
type htmlText struct {
	title     strings.Builder
	heading   strings.Builder
	text      strings.Builder
	sections  []Section
	skip      int // depth inside elements left out
	inTitle   bool
	inHeading bool
	pending   byte // separator to write before the next text, 0 for none
}

// separate ends a block ('\n') or a cell ('\t'): one separator between two
// runs of text, a line break where both end.
func (p *htmlText) separate(c byte) {
	if p.text.Len() > 0 && (p.pending == 0 || c == '\n') {
		p.pending = c
	}
}

func (p *htmlText) token(z *html.Tokenizer, tt html.TokenType) {
	switch tt {
	case html.TextToken:
		switch {
		case p.skip > 0:
		case p.inTitle:
			p.title.Write(z.Text())
		case p.inHeading:
			p.heading.Write(z.Text())
		default:
			if t := z.Text(); len(t) > 0 {
				if p.pending != 0 {
					p.text.WriteByte(p.pending)
					p.pending = 0
				}
				p.text.Write(t)
			}
		}
	case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
		name, _ := z.TagName()
		p.tag(atom.Lookup(name), tt)
	}
}

func (p *htmlText) tag(a atom.Atom, tt html.TokenType) {
	start, end := tt == html.StartTagToken, tt == html.EndTagToken
	switch a {
	case atom.Script, atom.Style, atom.Template, atom.Svg, atom.Math:
		if start {
			p.skip++
		} else if end && p.skip > 0 {
			p.skip--
		}
	case atom.Title:
		p.inTitle = start && p.skip == 0
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		if p.skip > 0 {
			return
		}
		if start {
			p.flush()
			p.inHeading = true
		} else if end {
			p.inHeading = false
		}
	case atom.Td, atom.Th:
		p.separate('\t')
	case atom.Br, atom.P, atom.Div, atom.Li, atom.Dt, atom.Dd, atom.Tr, atom.Pre, atom.Blockquote,
		atom.Section, atom.Article, atom.Table, atom.Ul, atom.Ol, atom.Dl, atom.Header, atom.Footer,
		atom.Nav, atom.Aside, atom.Main, atom.Figcaption, atom.Caption, atom.Hr:
		if p.inHeading {
			p.heading.WriteByte(' ')
		} else {
			p.separate('\n')
		}
	}
}

// flush ends the current section.
func (p *htmlText) flush() {
	h := strings.TrimRight(oneLine(p.heading.String()), "¶#§ ")
	t := strings.TrimSpace(p.text.String())
	if h != "" || t != "" {
		p.sections = append(p.sections, Section{Heading: h, Text: t})
	}
	p.heading.Reset()
	p.text.Reset()
	p.pending = 0
}
