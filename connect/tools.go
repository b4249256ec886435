package connect

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool names, stable API: scopes are configured by them.
const (
	toolSearch = "search_site"
	toolGet    = "get_page"
	toolList   = "list_pages"
	toolAsk    = "ask"
)

type searchInput struct {
	Query string `json:"query" jsonschema:"words to look for in the site's pages"`
	Limit int    `json:"limit,omitempty" jsonschema:"most results to return"`
}

type searchOutput struct {
	Query   string         `json:"query" jsonschema:"the query as received"`
	Results []searchResult `json:"results" jsonschema:"matching pages, best first"`
}

type searchResult struct {
	Title   string  `json:"title" jsonschema:"the page title"`
	URL     string  `json:"url" jsonschema:"the page's canonical URL"`
	Section string  `json:"section,omitempty" jsonschema:"the heading of the best-matching section of the page"`
	Snippet string  `json:"snippet" jsonschema:"the text around the best match, or the page description when only the title matched"`
	Score   float64 `json:"score" jsonschema:"relevance score, higher is better"`
}

type getInput struct {
	URL string `json:"url" jsonschema:"the page's URL on this site, absolute or a path starting with /"`
}

type getOutput struct {
	URL      string `json:"url" jsonschema:"the page's canonical URL"`
	Title    string `json:"title" jsonschema:"the page title"`
	Markdown string `json:"markdown" jsonschema:"the page as Markdown, starting with YAML front matter"`
}

type listInput struct {
	Prefix string `json:"prefix,omitempty" jsonschema:"only pages whose URL or path starts with this"`
	Cursor string `json:"cursor,omitempty" jsonschema:"nextCursor of the previous call, to continue"`
}

type listOutput struct {
	Pages      []listedPage `json:"pages" jsonschema:"pages in URL order"`
	NextCursor string       `json:"nextCursor,omitempty" jsonschema:"pass as cursor to get the next pages; absent on the last page"`
}

type listedPage struct {
	URL         string `json:"url" jsonschema:"the page's canonical URL"`
	Title       string `json:"title" jsonschema:"the page title"`
	Description string `json:"description,omitempty" jsonschema:"the page description"`
	Updated     string `json:"updated,omitempty" jsonschema:"the page's last-modified date"`
}

type askInput struct {
	Query string `json:"query" jsonschema:"a question or words about the site's content"`
}

// readOnly marks a tool as reading the site and changing nothing.
func readOnly(title string) *mcp.ToolAnnotations {
	closed := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &closed}
}

func (s *Server) searchSite(ctx context.Context, req *mcp.CallToolRequest, in searchInput) (*mcp.CallToolResult, searchOutput, error) {
	if err := s.toolAllowed(req.Extra, toolSearch); err != nil {
		return nil, searchOutput{}, err
	}
	hits, err := s.find(ctx, in.Query, in.Limit)
	if err != nil {
		return nil, searchOutput{}, err
	}
	out := searchOutput{Query: in.Query, Results: make([]searchResult, 0, len(hits))}
	for _, h := range hits {
		out.Results = append(out.Results, searchResult{
			Title: h.doc.displayTitle(), URL: h.doc.url, Section: h.heading, Snippet: h.excerpt(), Score: h.score,
		})
	}
	return nil, out, nil
}

func (s *Server) getPage(_ context.Context, req *mcp.CallToolRequest, in getInput) (*mcp.CallToolResult, getOutput, error) {
	if err := s.toolAllowed(req.Extra, toolGet); err != nil {
		return nil, getOutput{}, err
	}
	if err := s.checkReady(); err != nil {
		return nil, getOutput{}, err
	}
	d, err := s.lookup(in.URL)
	if err != nil {
		return nil, getOutput{}, err
	}
	md := string(pageMarkdown(d))
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: md}}}
	return res, getOutput{URL: d.url, Title: d.displayTitle(), Markdown: md}, nil
}

// lookup finds the indexed page for a URL or path of this site.
func (s *Server) lookup(raw string) (*doc, error) {
	key, err := normalizePageURL(s.opts.Origin, raw)
	if err != nil {
		return nil, fmt.Errorf("refused url %q: %v", truncate(raw, 200), err)
	}
	d := s.index.get(key)
	if d == nil {
		return nil, fmt.Errorf("no indexed page at %s", key)
	}
	return d, nil
}

func (s *Server) listPages(_ context.Context, req *mcp.CallToolRequest, in listInput) (*mcp.CallToolResult, listOutput, error) {
	if err := s.toolAllowed(req.Extra, toolList); err != nil {
		return nil, listOutput{}, err
	}
	if err := s.checkReady(); err != nil {
		return nil, listOutput{}, err
	}
	prefix := s.opts.Origin + "/"
	if in.Prefix != "" {
		p, err := normalizePageURL(s.opts.Origin, in.Prefix)
		if err != nil {
			return nil, listOutput{}, fmt.Errorf("refused prefix: %v", err)
		}
		prefix = p
	}
	after := ""
	if in.Cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(in.Cursor)
		if err != nil || !strings.HasPrefix(string(b), s.opts.Origin+"/") {
			return nil, listOutput{}, fmt.Errorf("invalid cursor")
		}
		after = string(b)
	}
	docs, more := s.index.list(prefix, after, listPageSize)
	out := listOutput{Pages: make([]listedPage, 0, len(docs))}
	for _, d := range docs {
		out.Pages = append(out.Pages, listedPage{URL: d.url, Title: d.displayTitle(), Description: d.description, Updated: d.updated})
	}
	if more {
		out.NextCursor = base64.RawURLEncoding.EncodeToString([]byte(docs[len(docs)-1].key))
	}
	return nil, out, nil
}

func (s *Server) askTool(ctx context.Context, req *mcp.CallToolRequest, in askInput) (*mcp.CallToolResult, AskResponse, error) {
	if err := s.toolAllowed(req.Extra, toolAsk); err != nil {
		return nil, AskResponse{}, err
	}
	out, err := s.ask(ctx, in.Query, 0)
	return nil, out, err
}

// truncate cuts s to n bytes on a rune boundary, for error messages.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return ellipsize(s, 0, n)
}
