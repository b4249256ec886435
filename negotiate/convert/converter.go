package convert

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"github.com/agentready/caddy-agentready/frontmatter"
	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Converter converts HTML pages to Markdown. It is built once with New and
// is safe for concurrent use.
type Converter struct {
	opts       Options
	content    []namedSel
	pruneGroup *selectorSet // nil for none
	keepGroup  cascadia.SelectorGroup
	ownPrune   cascadia.Matcher     // the operator's own prune rules, without the defaults (nil for none)
	md         *converter.Converter // spanned table cells repeated
	mdEmpty    *converter.Converter // spanned table cells left empty
}

// Result is one converted page.
type Result struct {
	// Markdown is the front matter (when enabled), the converted content
	// and the JSON-LD blocks (when enabled), ending in one newline.
	Markdown []byte
	// Meta is the page's metadata, whether or not it was written as front
	// matter.
	Meta frontmatter.Meta
	// Tokens is the o200k_base token count of Markdown.
	Tokens int
	// Extraction says how the content was chosen: "selector:<selector>",
	// "landmark:main", "landmark:role-main", "landmark:article" (each
	// followed by "+pruned" when chrome inside the landmark was removed),
	// "readability", "body+oracle" (the body narrowed with readability as
	// an oracle, where readability's article left out the page's
	// structure: a reference page), "readability+posts" (the posts of a
	// thread readability's article is one of), "body+cleaned" (the body without its
	// header, widget forms and link lists) or "body".
	Extraction string
}

// New fills in the defaults of the options' Settings, compiles their
// selectors (an error names the setting and the bad selector) and builds
// the html-to-markdown converter.
func New(opts Options) (*Converter, error) {
	sel, err := opts.Settings.provision()
	if err != nil {
		return nil, fmt.Errorf("convert: %w", err)
	}
	c := &Converter{opts: opts, content: sel.content}
	c.pruneGroup, c.keepGroup = newSelectorSet(sel.prune), group(sel.keep)
	if own := len(opts.Settings.Prune); own > 0 {
		c.ownPrune = group(sel.prune[len(sel.prune)-own:])
	}
	if c.md, err = newMarkdownConverter(table.SpanBehaviorMirror); err != nil {
		return nil, err
	}
	if c.mdEmpty, err = newMarkdownConverter(table.SpanBehaviorEmpty); err != nil {
		return nil, err
	}
	return c, nil
}

// Options returns the options the Converter was built with, defaults
// filled in.
func (c *Converter) Options() Options { return c.opts }

// Convert converts one HTML page with no deadline; see ConvertContext.
func (c *Converter) Convert(htmlUTF8 []byte, pageURL *url.URL, header http.Header) (*Result, error) {
	return c.ConvertContext(context.Background(), htmlUTF8, pageURL, header)
}

// ConvertContext converts one HTML page. htmlUTF8 is the decoded body
// (invalid UTF-8 is replaced); pageURL is the address it was requested at
// (relative links and images become absolute against it, and it is the
// fallback canonical); header is the origin's response header
// (Last-Modified, Content-Language, Link). The conversion stops when ctx is
// done (the client left, or the time budget, a deadline on ctx, ran out)
// and when the Markdown grows past Options.MaxMarkdownSize: ctx is looked
// at between the stages and while the Markdown is written and its tokens
// counted. An error means the caller should send the original HTML:
// ErrTooDeep, ErrNoContent, ErrTooLarge, ctx's error (wrapped), a parse
// error, or a recovered panic from the libraries.
func (c *Converter) ConvertContext(ctx context.Context, htmlUTF8 []byte, pageURL *url.URL, header http.Header) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("convert: panic: %v", p)
		}
	}()
	if header == nil {
		header = http.Header{}
	}
	bud := &budget{ctx: ctx, maxOut: c.opts.maxMarkdownSize()}
	if err := bud.check(); err != nil {
		return nil, err
	}
	doc, err := parse(htmlUTF8)
	if err != nil {
		return nil, err
	}
	meta, jsonld := frontmatter.ExtractWithJSONLD(doc, pageURL, header, c.opts.DefaultLanguage)
	base := documentBase(doc, pageURL)
	article := declaredArticle(doc)
	scripts := strip(doc)
	if on(c.opts.PruneDefaults) {
		revealDisclosures(doc, c.ownPrune)
		revealHiddenPage(findFirst(doc, atom.Body), scripts, jsonld)
	}
	if err := bud.check(); err != nil {
		return nil, err
	}

	cl := c.newCleaner(doc, declaredDiscussion(doc, jsonld))
	cl.article, cl.base = article, base
	cl.byAuthor = article || meta.Author != ""
	// A standfirst that repeats the description, and a header line that
	// dates the page on its day, leave the body because the front matter
	// states them; without front matter, nothing would.
	if c.opts.FrontMatter {
		if article || meta.Published != "" {
			cl.description = meta.Description
		}
		for _, d := range []string{meta.Published, meta.Updated} {
			if d != "" {
				cl.days = append(cl.days, d)
			}
		}
	}
	cl.headerLines = on(c.opts.PruneDefaults)
	picked := c.selectContent(doc, base, cl)
	if err := bud.check(); err != nil {
		return nil, err
	}
	root, md := c.assemble(picked.roots, cl)
	if err := bud.check(); err != nil {
		return nil, err
	}
	body, err := render(md, root, base, bud)
	if err != nil {
		return nil, err
	}
	var front []byte
	if c.opts.FrontMatter {
		front = meta.Marshal()
	}
	out, err := c.compose(front, body, jsonld, scripts)
	if err != nil {
		return nil, err
	}
	if err := bud.output(len(out)); err != nil {
		return nil, err
	}
	tokens, err := countTokens(out, bud)
	if err != nil {
		return nil, err
	}
	return &Result{Markdown: out, Meta: meta, Tokens: tokens, Extraction: picked.how}, nil
}

// assemble moves the chosen content roots, then the kept elements they do
// not hold, under one new <div>, cleans it, and returns it with the
// html-to-markdown converter its tables need.
func (c *Converter) assemble(roots []*html.Node, cl *cleaner) (*html.Node, *converter.Converter) {
	root := element(atom.Div)
	for _, r := range roots {
		if r.Parent != nil {
			r.Parent.RemoveChild(r)
		}
		root.AppendChild(r)
	}
	// Kept elements that the chosen content does not hold come after it.
	for _, n := range cl.keepList {
		if !contains(root, n) {
			if n.Parent != nil {
				n.Parent.RemoveChild(n)
			}
			root.AppendChild(n)
		}
	}
	if !cl.visibleAfterPrune(root) {
		// Pruning would leave nothing (the only content is hidden by an
		// inline style, or sits in an <aside>): a prune rule never empties
		// a page, so none applies.
		cl.prune = nil
	}
	cl.clean(root, false)
	if cl.headerLines {
		dropHeaderLines(root, cl)
		dropRepeats(root, cl)
		dropTickers(root)
	}
	if bound(root) {
		return root, c.mdEmpty
	}
	return root, c.md
}

// render converts the assembled content to Markdown, links resolved
// against base, within bud.
func render(md *converter.Converter, root *html.Node, base *url.URL, bud *budget) ([]byte, error) {
	opts := []converter.ConvertOptionFunc{withBudget(bud)}
	if base != nil {
		opts = append(opts, converter.WithDomain(base.String()))
	}
	body, err := md.ConvertNode(root, opts...)
	if err != nil {
		return nil, fmt.Errorf("convert: html-to-markdown: %w", err)
	}
	if err := bud.output(len(body)); err != nil {
		return nil, err
	}
	if err := bud.check(); err != nil {
		return nil, err
	}
	return body, nil
}

// compose writes the page: the front matter, the tidied body and, when
// enabled, the JSON-LD blocks. A page with no text but scripts is
// ErrNoContent.
func (c *Converter) compose(front, body []byte, jsonld [][]byte, scripts bool) ([]byte, error) {
	// One buffer of about the final size: the Markdown of a large page is
	// megabytes, and each copy of it is heap the page holds.
	size := len(front) + len(body) + 1
	if *c.opts.JSONLDBlock {
		for _, b := range jsonld {
			size += 2*len(b) + 64 // indented, fenced
		}
	}
	out := appendTidy(append(make([]byte, 0, size), front...), body)
	if len(out) == len(front) && scripts {
		// No text but scripts: an application shell, whose HTML serves an
		// agent better than an empty Markdown page. An empty page without
		// scripts converts to its front matter and an empty body.
		return nil, ErrNoContent
	}
	if *c.opts.JSONLDBlock && len(jsonld) > 0 {
		buf := bytes.NewBuffer(out)
		for _, b := range jsonld {
			jsonFence(buf, b)
		}
		out = buf.Bytes()
	}
	return out, nil
}

// documentBase returns the URL relative references resolve against: the
// <base href> resolved against pageURL, else pageURL (HTML Living Standard,
// "document base URL").
func documentBase(doc *html.Node, pageURL *url.URL) *url.URL {
	b := findFirst(doc, atom.Base)
	if b == nil || attr(b, "href") == "" {
		return pageURL
	}
	ref, err := url.Parse(attr(b, "href"))
	if err != nil {
		return pageURL
	}
	if pageURL != nil {
		ref = pageURL.ResolveReference(ref)
	}
	if !ref.IsAbs() {
		return pageURL
	}
	return ref
}

// jsonIndent pretty-prints a JSON-LD block with two-space indentation.
func jsonIndent(w *bytes.Buffer, b []byte) error {
	return json.Indent(w, b, "", "  ")
}
