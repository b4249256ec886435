package connect

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mimeMarkdown is the media type of page resources (RFC 7763).
const mimeMarkdown = "text/markdown; charset=utf-8"

// newMCPServer builds the MCP server: four read-only tools with schemas
// inferred from their Go types and tightened to the configured limits, a
// resource template for every page, and the llms.txt resource once the
// Source serves one.
func (s *Server) newMCPServer() (*mcp.Server, error) {
	srv := mcp.NewServer(&mcp.Implementation{
		Name: s.opts.ServerName, Title: "Content of " + s.opts.Origin, Version: s.opts.ServerVersion,
	}, &mcp.ServerOptions{
		Instructions: s.opts.Instructions,
		Logger:       s.log,
		// No logging capability: a stateless read-only server has nothing to
		// stream. Tools and resources are added below.
		Capabilities: &mcp.ServerCapabilities{
			Tools:     &mcp.ToolCapabilities{},
			Resources: &mcp.ResourceCapabilities{},
		},
	})
	queryMax := s.opts.MaxQueryLength
	err := errors.Join(
		addTool(srv, &s.tools, &mcp.Tool{
			Name: toolSearch, Annotations: readOnly("Search the site"),
			Description: fmt.Sprintf("Full-text search over the pages of %s. Returns up to %d pages, best first, each with its title, canonical URL and a snippet.", s.opts.Origin, s.opts.MaxResults),
		}, s.searchSite, func(sc *jsonschema.Schema) {
			limitString(sc.Properties["query"], queryMax)
			limitInt(sc.Properties["limit"], 1, s.opts.MaxResults)
		}),
		addTool(srv, &s.tools, &mcp.Tool{
			Name: toolGet, Annotations: readOnly("Read a page"),
			Description: "Returns one page of " + s.opts.Origin + " as Markdown with YAML front matter (title, description, canonical, updated, language): the same text as requesting the page with Accept: text/markdown. Only pages of this site are served.",
		}, s.getPage, func(sc *jsonschema.Schema) { limitString(sc.Properties["url"], maxURLLength) }),
		addTool(srv, &s.tools, &mcp.Tool{
			Name: toolList, Annotations: readOnly("List pages"),
			Description: fmt.Sprintf("Lists the indexed pages of %s in URL order, %d per call; pass nextCursor back as cursor for more. prefix narrows to a section (\"/docs/\").", s.opts.Origin, listPageSize),
		}, s.listPages, func(sc *jsonschema.Schema) {
			limitString(sc.Properties["prefix"], maxURLLength)
			limitString(sc.Properties["cursor"], 4*maxURLLength)
		}),
		addTool(srv, &s.tools, &mcp.Tool{
			Name: toolAsk, Annotations: readOnly("Ask the site"),
			Description: "NLWeb-style answer: the pages of " + s.opts.Origin + " that match the query, as schema.org WebPage items (the same answer as GET " + s.opts.AskPath + "?query=…).",
		}, s.askTool, func(sc *jsonschema.Schema) { limitString(sc.Properties["query"], queryMax) }),
	)
	if err != nil {
		return nil, err
	}

	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name: "page", Title: "A page of " + s.opts.Origin, MIMEType: mimeMarkdown,
		URITemplate: s.opts.Origin + "/{+path}",
		Description: "Any indexed page of the site, as Markdown with front matter.",
	}, s.readPage)
	return srv, nil
}

// addTool registers a tool (and appends it to registered) with schemas inferred from its Go types, made
// precise, and tightened to the configured limits by tighten.
func addTool[In, Out any](srv *mcp.Server, registered *[]*mcp.Tool, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out], tighten func(*jsonschema.Schema)) error {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		return fmt.Errorf("connect: inferring %s input schema: %v", t.Name, err)
	}
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		return fmt.Errorf("connect: inferring %s output schema: %v", t.Name, err)
	}
	precise(in, false)
	precise(out, true)
	tighten(in)
	t.InputSchema, t.OutputSchema = in, out
	mcp.AddTool(srv, t, h)
	*registered = append(*registered, t)
	return nil
}

// precise rewrites what inference leaves loose: the handlers never return a
// null list, so arrays are not nullable, and output URL fields are URIs
// (inputs also take paths).
func precise(sc *jsonschema.Schema, output bool) {
	if sc == nil {
		return
	}
	if slices.Equal(sc.Types, []string{"null", "array"}) {
		sc.Type, sc.Types = "array", nil
	}
	for name, p := range sc.Properties {
		if output && name == "url" && p.Type == "string" {
			p.Format = "uri"
		}
		precise(p, output)
	}
	precise(sc.Items, output)
}

func limitString(sc *jsonschema.Schema, maxLen int) {
	one := 1
	sc.MinLength, sc.MaxLength = &one, &maxLen
}

func limitInt(sc *jsonschema.Schema, lo, hi int) {
	minimum, maximum := float64(lo), float64(hi)
	sc.Minimum, sc.Maximum = &minimum, &maximum
}

// readPage serves a page resource.
func (s *Server) readPage(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	if err := s.toolAllowed(req.Extra, toolGet); err != nil {
		return nil, err
	}
	if err := s.checkReady(); err != nil {
		return nil, err
	}
	d, err := s.lookup(req.Params.URI)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
		URI: d.url, MIMEType: mimeMarkdown, Text: string(pageMarkdown(d)),
	}}}, nil
}

// readLLMsTxt serves the llms.txt resource.
func (s *Server) readLLMsTxt(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	if err := s.toolAllowed(req.Extra, toolGet); err != nil {
		return nil, err
	}
	text := string(s.store.llmsTxt().Markdown)
	if text == "" {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
		URI: req.Params.URI, MIMEType: "text/plain; charset=utf-8", Text: text,
	}}}, nil
}

// publishLLMsTxt adds or removes the llms.txt resource as the Source starts
// or stops serving one.
func (s *Server) publishLLMsTxt(present bool) {
	uri := s.opts.Origin + "/llms.txt"
	if !present {
		s.mcp.RemoveResources(uri)
		return
	}
	s.mcp.AddResource(&mcp.Resource{
		Name: "llms.txt", Title: "llms.txt of " + s.opts.Origin, URI: uri, MIMEType: "text/plain; charset=utf-8",
		Description: "The site's llms.txt: what the site is and where its main content lives.",
	}, s.readLLMsTxt)
}
