package connect

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/agentready/caddy-agentready/discover"
	"github.com/agentready/caddy-agentready/frontmatter"
	"github.com/agentready/caddy-agentready/fulltext"
)

// DefaultMaxPageMarkdown is the default HTTPSource.MaxPageMarkdown.
const DefaultMaxPageMarkdown = 4 << 20

// DefaultMaxPageHTML is the default HTTPSource.MaxPageHTML.
const DefaultMaxPageHTML = 8 << 20

// HTTPSource is the [Source] of a site read over HTTP, as an agent reads
// it: its pages are the ones a [discover.Discoverer] finds (sitemaps or a
// bounded crawl), and each page is fetched asking for Markdown (Accept:
// text/markdown), so the index holds what an agent asking for the page
// gets. It is safe for concurrent use.
type HTTPSource struct {
	// Discoverer lists the site's pages, on the public origin (the one
	// Options.Origin of the Server must name). Required.
	Discoverer *discover.Discoverer
	// Client fetches the pages. In the Caddy module it serves each request
	// through the site's own server in process. Required.
	Client *http.Client
	// Origin is where page requests go, scheme://host[:port]: a page is
	// asked for at its path on Origin, whatever the origin of its URL.
	// Default: the origin of each page's URL.
	Origin string
	// MaxPageMarkdown bounds the Markdown read of one page, in bytes; a
	// larger page is not indexed. Default: DefaultMaxPageMarkdown (4 MiB).
	MaxPageMarkdown int64
	// MaxPageHTML bounds the HTML read of one page for its text, in bytes;
	// the text of a larger page is cut there. Default: DefaultMaxPageHTML
	// (8 MiB).
	MaxPageHTML int64
	// Found, when set, receives every successful discovery's result, so
	// that what else lists the site's pages (the generated sitemap,
	// llms.auto_list) stays in step with the index. Default: none.
	Found func(*discover.Result)
}

// Pages runs the discovery (conditionally on its last result) and returns
// the URLs of the pages it found. An error (robots.txt unreachable, the
// context done) leaves the index as it is.
func (s *HTTPSource) Pages(ctx context.Context) ([]string, error) {
	res, err := s.Discoverer.Run(ctx)
	if err != nil {
		return nil, err
	}
	if s.Found != nil {
		s.Found(res)
	}
	return res.URLs(), nil
}

// Fetch gets one page as Markdown, conditionally on the validators of the
// indexed copy (RFC 9110 §13.1), and its HTML's full text for the search:
// from the converter that made the Markdown when it hands the text back
// (see PageText), else by asking for the HTML. A page that answers without
// a Markdown form (over the proxy's size cap, or failing to convert) is an
// error.
func (s *HTTPSource) Fetch(ctx context.Context, pageURL string, prev Validators) (*Page, error) {
	kept := &PageText{limit: s.maxHTML()}
	p, err := s.FetchMarkdown(WithPageText(ctx, kept), pageURL, prev)
	if err != nil {
		return nil, err
	}
	var ok bool
	if p.Sections, ok = kept.text(); !ok {
		p.Sections = s.text(ctx, pageURL)
	}
	return p, nil
}

// maxHTML is MaxPageHTML or its default.
func (s *HTTPSource) maxHTML() int64 {
	if s.MaxPageHTML > 0 {
		return s.MaxPageHTML
	}
	return DefaultMaxPageHTML
}

// FetchMarkdown is Fetch without the HTML: the page's Markdown and what its
// front matter says, for a reader that does not search it (llms-full.txt),
// so the origin is asked for the page once, not twice.
func (s *HTTPSource) FetchMarkdown(ctx context.Context, pageURL string, prev Validators) (*Page, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.at(pageURL), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/markdown, text/plain;q=0.5")
	if prev.ETag != "" {
		req.Header.Set("If-None-Match", prev.ETag)
	} else if prev.LastModified != "" {
		req.Header.Set("If-Modified-Since", prev.LastModified)
	}
	resp, err := s.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	ct := resp.Header.Get("Content-Type")
	switch {
	case resp.StatusCode == http.StatusNotModified:
		return nil, ErrNotModified
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	case !strings.HasPrefix(ct, "text/markdown") && !strings.HasPrefix(ct, "text/plain"): // text/plain: llms.txt
		return nil, fmt.Errorf("no Markdown form (got %q): the page is too large or failed to convert", ct)
	}
	limit := s.MaxPageMarkdown
	if limit <= 0 {
		limit = DefaultMaxPageMarkdown
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > limit {
		return nil, fmt.Errorf("markdown larger than %d bytes", limit)
	}
	meta, _, err := frontmatter.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("front matter: %v", err)
	}
	return &Page{
		URL:         meta.Canonical,
		Title:       meta.Title,
		Description: meta.Description,
		Language:    meta.Language,
		Markdown:    body,
		Updated:     meta.Updated,
		Validators: Validators{
			ETag:         resp.Header.Get("ETag"),
			LastModified: resp.Header.Get("Last-Modified"),
		},
	}, nil
}

// text fetches the page's HTML and returns its full text by section, what
// the search reads: the Markdown an agent gets may leave out parts of the
// page (option lists, tables, navigation) that a question names. It
// returns nil, so that the search reads the Markdown instead, when the page
// has no HTML form or cannot be read.
func (s *HTTPSource) text(ctx context.Context, pageURL string) []fulltext.Section {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.at(pageURL), nil)
	if err != nil {
		return nil
	}
	req.Header.Set("Accept", "text/html")
	resp, err := s.Client.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		return nil
	}
	_, sections, err := fulltext.FromHTML(io.LimitReader(resp.Body, s.maxHTML()))
	if err != nil {
		return nil
	}
	return sections
}

// at is the URL a page is requested at: its path and query on s.Origin.
// The Server asks only for URLs on its own origin, so this changes the
// address, never the site.
func (s *HTTPSource) at(pageURL string) string {
	if s.Origin == "" {
		return pageURL
	}
	pu, err := url.Parse(pageURL)
	if err != nil {
		return pageURL
	}
	ou, err := url.Parse(s.Origin)
	if err != nil {
		return pageURL
	}
	pu.Scheme, pu.Host = ou.Scheme, ou.Host
	return pu.String()
}

// Interface guards
var _ Source = (*HTTPSource)(nil)
