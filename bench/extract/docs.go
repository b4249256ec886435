package main

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/andybalholm/cascadia"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/agentready/caddy-agentready/bench/score"
)

// docsPage is a page of the documentation corpus.
type docsPage struct {
	name     string
	path     string
	html     []byte
	expected score.Bag
	pres     int // <pre> blocks in the main block
	heads    int // headings (h1 to h6) in the main block
	tables   int // tables in the main block (not nested in another)
	inline   int // the same, whose cells hold no block (a GFM table can hold them)
}

var mainSel = cascadia.MustCompile(`[role=main]`)

// sphinxMain is the content region of a Sphinx page: its role=main block.
func sphinxMain(doc *html.Node) *html.Node { return cascadia.Query(doc, mainSel) }

// mdBookMain is the content region of an mdBook page (the Rust book): its
// <main>, without the sidebar, the menu bar and the previous/next arrows
// around it.
func mdBookMain(doc *html.Node) *html.Node { return cascadia.Query(doc, mdBookSel) }

var mdBookSel = cascadia.MustCompile(`main`)

// referenceChrome are the parts of an AsciiDoc (git-doc) or DocBook
// (debian-handbook, publican) page that are not its content: AsciiDoc's
// footer ("Last updated"), publican's banner, title images and
// previous/next bars, DocBook XSL's navigation header and footer
// (postgresql-doc), and the SQLite site's header of logo, menus and search
// (sqlite3-doc).
var referenceChrome = cascadia.MustCompile(`#footer, #banner, body > p#title, ul.docnav, div.navheader, div.navfooter, body > div.nosearch`)

// referenceRegion is the content region of a reference page: its body
// without referenceChrome, on a copy.
func referenceRegion(doc *html.Node) *html.Node {
	body := cascadia.Query(doc, cascadia.MustCompile("body"))
	if body == nil {
		return nil
	}
	for _, n := range cascadia.QueryAll(body, referenceChrome) {
		if n.Parent != nil {
			n.Parent.RemoveChild(n)
		}
	}
	return body
}

// loadDocs reads every .html page under dir (or the pages that match
// glob, when it is not empty) whose region is found.
func loadDocs(dir, glob string, region func(*html.Node) *html.Node) ([]docsPage, error) {
	var pages []docsPage
	seen := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		if ok, _ := filepath.Match(glob, path); glob != "" && !ok {
			return nil
		}
		seen++
		if !pick(seen-1, path) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		doc, err := html.Parse(bytes.NewReader(b))
		if err != nil {
			return nil
		}
		main := region(doc)
		if main == nil {
			return nil
		}
		var buf bytes.Buffer
		if err := html.Render(&buf, main); err != nil {
			return err
		}
		text, err := score.HTMLText(&buf)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		p := docsPage{name: rel, path: path, html: b, expected: score.Words(text)}
		count(main, &p, false)
		pages = append(pages, p)
		return nil
	})
	if err == nil && len(pages) == 0 {
		err = fmt.Errorf("no pages with a content region under %s (apt-get install python3.11-doc git-doc debian-handbook)", dir)
	}
	return pages, err
}

// count counts the <pre> blocks and the outermost tables under n.
func count(n *html.Node, p *docsPage, inTable bool) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		switch c.DataAtom {
		case atom.Pre:
			p.pres++
			continue
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			if !boxTitle(c) {
				p.heads++
			}
		case atom.Table:
			if !inTable {
				p.tables++
				if !cellBlock(c) {
					p.inline++
				}
			}
			count(c, p, true)
			continue
		}
		count(c, p, inTable)
	}
}

// boxTitle reports whether heading h is the title of a DocBook note,
// tip, warning, important or caution box ("Note"): a label the converter
// writes in bold, as it writes Sphinx's admonition titles (which are no
// headings in the HTML either), not a section heading.
func boxTitle(h *html.Node) bool { return boxTitleSel.Match(h) }

var boxTitleSel = cascadia.MustCompile(`div.note > .title, div.tip > .title, div.warning > .title, div.important > .title, div.caution > .title`)

// cellBlock reports whether a table holds a block a GFM cell cannot: code,
// a list, a quote, a heading or another table.
func cellBlock(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		switch c.DataAtom {
		case atom.Pre, atom.Ul, atom.Ol, atom.Dl, atom.Blockquote, atom.Table, atom.Hr,
			atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			return true
		}
		if cellBlock(c) {
			return true
		}
	}
	return false
}

// mdBlocks counts the code blocks (fenced or indented), the GFM tables and
// the headings of md, as a CommonMark reader with the GFM table extension
// (goldmark) reads them: pandoc writes indented code blocks, the others
// fences.
func mdBlocks(md []byte) (code, tables, heads int) {
	doc := mdReader.Parser().Parse(text.NewReader(md))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindFencedCodeBlock, ast.KindCodeBlock:
			code++
		case extast.KindTable:
			tables++
		case ast.KindHeading:
			heads++
		}
		return ast.WalkContinue, nil
	})
	return code, tables, heads
}

// mdReader is goldmark with GFM tables.
var mdReader = goldmark.New(goldmark.WithExtensions(extension.Table))

func runDocs(tools []tool, dir string, misses int, list string) error {
	pages, err := loadDocs(dir, "", sphinxMain)
	if err != nil {
		return err
	}
	return docsTable("docs", "https://docs.python.org/3.11/", dir, pages, tools, misses, list)
}

// The reference corpora: AsciiDoc man pages and guides (Debian's git-doc)
// and a DocBook book (debian-handbook, English), whose content region is
// the page's body without its footer and navigation bars. Nothing is
// tuned on the modern-web test split; these are where the extraction of
// reference pages (definition lists of options, synopses, a chapter's
// table of contents) is developed. Three more are held out, each skipped
// when it is not installed: the PostgreSQL 15 documentation
// (postgresql-doc-15, DocBook XSL), SQLite's (sqlite3-doc, the project's
// own hand-written HTML) and the Rust book (rust-doc, mdBook).
const (
	gitDocDir   = "/usr/share/doc/git-doc"
	handbookDir = "/usr/share/doc/debian-handbook/html/en-US"
	postgresDir = "/usr/share/doc/postgresql-doc-15/html"
	sqliteDir   = "/usr/share/doc/sqlite3"
	rustBookDir = "/usr/share/doc/rust-doc/html/book"
)

func runReference(tools []tool, misses int, list string) error {
	for _, c := range []struct {
		name, dir, base, pkg string
		region               func(*html.Node) *html.Node
	}{
		{"git-doc", gitDocDir, "https://git-scm.example/docs/", "", referenceRegion},
		{"debian-handbook", handbookDir, "https://debian-handbook.example/browse/stable/", "", referenceRegion},
		{"postgresql-doc (held out)", postgresDir, "https://postgresql.example/docs/15/", "postgresql-doc-15", referenceRegion},
		{"sqlite-doc (held out)", sqliteDir, "https://sqlite.example/", "sqlite3-doc", referenceRegion},
		{"rust-book (mdBook, held out)", rustBookDir, "https://rust.example/book/", "rust-doc", mdBookMain},
	} {
		glob := c.dir + "/*.html"
		if matches, _ := filepath.Glob(glob); len(matches) == 0 && c.pkg != "" {
			fmt.Printf("## %s: skipped: no %s (apt-get install %s)\n\n", c.name, glob, c.pkg)
			continue
		}
		pages, err := loadDocs(c.dir, glob, c.region)
		if err != nil {
			return err
		}
		if err := docsTable(c.name, c.base, c.dir, pages, tools, misses, list); err != nil {
			return err
		}
	}
	return nil
}

// docsTable converts the pages of a documentation corpus with each tool
// and prints its table.
func docsTable(corpus, base, dir string, pages []docsPage, tools []tool, misses int, list string) error {
	if list != "" {
		return listPages(list, corpus, pages, func(p docsPage) string { return p.path })
	}
	inputs, names := make([][]byte, len(pages)), make([]string, len(pages))
	total, pres, heads, tables, inline := 0, 0, 0, 0, 0
	for i, p := range pages {
		inputs[i], names[i] = p.html, p.name
		total += len(p.html)
		pres += p.pres
		heads += p.heads
		tables += p.tables
		inline += p.inline
	}
	fmt.Printf("## %s: %s, %d pages, %.1f MB, %d <pre> blocks, %d headings, %d tables in the content regions (%d with only inline content in their cells)\n\n",
		corpus, dir, len(pages), float64(total)/1e6, pres, heads, tables, inline)
	fmt.Println("| tool | median recall | median precision | p10 F1 | code blocks kept | headings kept | GFM tables / tables with inline cells | MB/s (CPU, 1 core) | max heap per conversion |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, t := range tools {
		pageURL := func(i int) *url.URL { u, _ := url.Parse(base + pages[i].name); return u }
		outs, _, _, mbps := convertAll(t, corpus, names, inputs, pageURL)
		var rec, prec, f1 []float64
		fences, gfm, hs, shown := 0, 0, 0, 0
		for i, p := range pages {
			r := score.Compare(p.expected, score.Words(score.MarkdownText(outs[i])))
			rec, prec, f1 = append(rec, r.Recall), append(prec, r.Precision), append(f1, r.F1)
			f, tb, h := mdBlocks(outs[i])
			fences += min(f, p.pres)
			gfm += min(tb, p.inline)
			hs += min(h, p.heads)
			if t.name == "agent_ready" && shown < misses && (f < p.pres || tb < p.inline || h < p.heads || r.Recall < 0.95 || r.Precision < 0.95) {
				shown++
				fmt.Fprintf(os.Stderr, "%s: pre %d/%d headings %d/%d tables %d/%d recall %.3f precision %.3f\n", p.name, f, p.pres, h, p.heads, tb, p.inline, r.Recall, r.Precision)
			}
		}
		heap := heapText(t, inputs, pageURL)
		fmt.Printf("| %s | %.3f | %.3f | %.3f | %d / %d | %d / %d | %d / %d | %.1f | %s |\n", t.name,
			quantile(rec, 0.5), quantile(prec, 0.5), quantile(f1, 0.1), fences, pres, hs, heads, gfm, inline, mbps, heap)
	}
	fmt.Println()
	return nil
}
