package selfcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"reflect"
	"strings"

	"github.com/agentready/caddy-agentready/selfcheck/internal/parse"
	"github.com/agentready/caddy-agentready/selfcheck/mcpprobe"
)

// robotsResult is the site's robots.txt, fetched and parsed once.
type robotsResult struct {
	resp *response
	doc  *parse.RobotsTxt // nil when there is no usable robots.txt
}

// robots returns the site's robots.txt (RFC 9309 §2.3: at /robots.txt).
func (s *site) robots(ctx context.Context) robotsResult {
	return s.robotsDoc.get(func() robotsResult {
		r := robotsResult{resp: s.f.get(ctx, s.abs("/robots.txt"), "text/plain")}
		if r.resp.ok() && !isHTMLish(r.resp) {
			r.doc = parse.Robots(r.resp.body)
		}
		return r
	})
}

// sitemapResult is the site's sitemap: the candidate that answered, parsed,
// and every candidate tried.
type sitemapResult struct {
	resp  *response        // the chosen candidate (nil when none was tried)
	doc   parse.SitemapDoc // its parse
	tried []*response      // every candidate, in order
	pages []string         // page URLs (from the urlset, or the index's first children)
}

// sitemapMaxCandidates bounds the sitemaps tried (robots.txt lines first).
const sitemapMaxCandidates = 3

// sitemap finds and parses the site's sitemap: the robots.txt Sitemap lines
// (RFC 9309 §2.2.4) first, then /sitemap.xml.
func (s *site) sitemap(ctx context.Context) sitemapResult {
	return s.sitemapDoc.get(func() sitemapResult {
		var cands []string
		if rb := s.robots(ctx); rb.doc != nil {
			for _, sm := range rb.doc.Sitemaps {
				if u, err := url.Parse(sm); err == nil && u.IsAbs() && (u.Scheme == "http" || u.Scheme == "https") {
					cands = append(cands, u.String())
				}
			}
		}
		cands = append(cands, s.abs("/sitemap.xml"))
		var res sitemapResult
		seen := map[string]bool{}
		for _, c := range cands {
			if seen[c] || len(res.tried) >= sitemapMaxCandidates {
				continue
			}
			seen[c] = true
			resp := s.f.get(ctx, c, "application/xml, text/xml;q=0.9, */*;q=0.1")
			res.tried = append(res.tried, resp)
			if !resp.ok() {
				continue
			}
			doc := s.parseSitemapBody(resp.body)
			if res.resp == nil || (res.doc.Kind == "" && doc.Kind != "") {
				res.resp, res.doc = resp, doc
			}
			if doc.Kind != "" && len(doc.Locs) > 0 {
				break
			}
		}
		if res.resp == nil && len(res.tried) > 0 {
			res.resp = res.tried[len(res.tried)-1]
		}
		res.pages = s.sitemapPages(ctx, res.doc)
		return res
	})
}

// parseSitemapBody parses a sitemap, inflating it first when gzipped.
func (s *site) parseSitemapBody(body []byte) parse.SitemapDoc {
	b, err := parse.GunzipSitemap(body, s.opts.MaxBodyBytes)
	if err != nil {
		return parse.SitemapDoc{Err: err}
	}
	return parse.Sitemap(b, parse.SitemapMaxLocs)
}

// sitemapPages lists page URLs: a urlset's locs, or the locs of the first
// two child sitemaps of an index (on the site's origin only).
func (s *site) sitemapPages(ctx context.Context, doc parse.SitemapDoc) []string {
	switch doc.Kind {
	case "urlset":
		return doc.Locs
	case "sitemapindex":
		var out []string
		n := 0
		for _, loc := range doc.Locs {
			if n >= 2 {
				break
			}
			if !onOrigin(loc, s.origin) {
				continue
			}
			n++
			resp := s.f.get(ctx, loc, "application/xml, text/xml;q=0.9, */*;q=0.1")
			if resp.ok() {
				if child := s.parseSitemapBody(resp.body); child.Kind == "urlset" {
					out = append(out, child.Locs...)
				}
			}
		}
		return out
	}
	return nil
}

// sitemapRoutes picks up to n pages besides the home page that represent
// the site (pickRoutes): from the sitemap's same-origin pages, or, when the
// site has no sitemap, from the home page's same-origin links.
func (s *site) sitemapRoutes(ctx context.Context, n int) []string {
	if n <= 0 {
		return nil
	}
	// The home page counts under its address and where its redirects landed.
	seen := map[string]bool{s.home: true, s.page(ctx, s.home).resp.finalURL: true}
	var candidates []string
	add := func(loc string) {
		u, err := url.Parse(loc)
		if err != nil || !onOrigin(loc, s.origin) {
			return
		}
		u.Fragment = ""
		if u.Path == "" {
			u.Path = "/"
		}
		k := u.String()
		if seen[k] {
			return
		}
		seen[k] = true
		candidates = append(candidates, k)
	}
	pages := s.sitemap(ctx).pages
	for _, loc := range pages {
		add(loc)
	}
	if len(pages) == 0 {
		for _, loc := range s.homeLinks(ctx) {
			add(loc)
		}
	}
	return pickRoutes(candidates, n)
}

// manifestResult is the capability card (agents.json) at both addresses.
type manifestResult struct {
	wellKnown, root *response
	chosen          *response      // the one judged (.well-known first)
	doc             map[string]any // its parsed object, nil when none parsed
	parseErr        error
	twinsDiffer     bool
}

// manifest fetches the capability card at /.well-known/agents.json and
// /agents.json (STANDARD.md §10: scanners read the .well-known one first).
func (s *site) manifest(ctx context.Context) manifestResult {
	return s.manifestDoc.get(func() manifestResult {
		m := manifestResult{
			wellKnown: s.f.get(ctx, s.abs("/.well-known/agents.json"), acceptJSON),
			root:      s.f.get(ctx, s.abs("/agents.json"), acceptJSON),
		}
		docs := make([]map[string]any, 2)
		for i, r := range []*response{m.wellKnown, m.root} {
			if !r.ok() {
				continue
			}
			var v map[string]any
			if err := json.Unmarshal(bytes.TrimSpace(r.body), &v); err != nil {
				if m.parseErr == nil {
					m.parseErr, m.chosen = err, r
				}
				continue
			}
			docs[i] = v
			if m.doc == nil {
				m.doc, m.chosen = v, r
			}
		}
		if docs[0] != nil && docs[1] != nil && !reflect.DeepEqual(docs[0], docs[1]) {
			m.twinsDiffer = true // rule 10: the twin must agree with itself
		}
		if m.chosen == nil {
			m.chosen = m.wellKnown
			if !m.wellKnown.unreachable() && m.root.unreachable() {
				m.chosen = m.root
			}
		}
		return m
	})
}

// interfaces returns the card's declared interfaces (its "interfaces" array
// and the "agents" array other scanners read), each as an object.
func (m manifestResult) interfaces() []map[string]any {
	var out []map[string]any
	for _, key := range []string{"interfaces", "agents"} {
		arr, _ := m.doc[key].([]any)
		for _, e := range arr {
			if o, ok := e.(map[string]any); ok {
				out = append(out, o)
			}
		}
	}
	return out
}

// str reads a string field of a JSON object.
func str(o map[string]any, key string) string {
	s, _ := o[key].(string)
	return s
}

// jsonResult is a JSON document found at the first of several addresses.
type jsonResult struct {
	resp     *response      // the address judged: the first that answered 2xx, else the first tried
	doc      map[string]any // the parsed object (nil when none parsed)
	parseErr error
	tried    []*response
}

// allUnreachable reports whether every address tried gave no usable answer.
func (j jsonResult) allUnreachable() bool { return allUnreachable(j.tried) }

// allUnreachable reports whether tried is non-empty and no answer in it is
// usable.
func allUnreachable(tried []*response) bool {
	for _, t := range tried {
		if !t.unreachable() {
			return false
		}
	}
	return len(tried) > 0
}

// jsonDoc fetches the first of paths that answers 2xx and parses it as a
// JSON object; the result is shared between checks.
func (s *site) jsonDoc(ctx context.Context, paths ...string) jsonResult {
	key := strings.Join(paths, " ")
	s.jsonMu.Lock()
	l := s.jsonDocs[key]
	if l == nil {
		l = &lazy[jsonResult]{}
		s.jsonDocs[key] = l
	}
	s.jsonMu.Unlock()
	return l.get(func() jsonResult {
		var j jsonResult
		for _, p := range paths {
			u := p
			if strings.HasPrefix(p, "/") {
				u = s.abs(p)
			}
			resp := s.f.get(ctx, u, acceptJSON)
			j.tried = append(j.tried, resp)
			if !resp.ok() {
				continue
			}
			j.resp = resp
			v, err := jsonObject(resp.body)
			if err != nil {
				j.parseErr = err
				continue
			}
			j.doc, j.parseErr = v, nil
			return j
		}
		if j.resp == nil {
			j.resp = j.tried[0]
		}
		return j
	})
}

// serverCard is the MCP server card (STANDARD.md §9 addresses).
func (s *site) serverCard(ctx context.Context) jsonResult {
	return s.jsonDoc(ctx, "/.well-known/mcp/server-card.json", "/.well-known/mcp.json", "/.well-known/mcp/server-cards.json")
}

// llmsTxt fetches /llms.txt once.
func (s *site) llmsTxt(ctx context.Context) *response {
	return s.llmsDoc.get(func() *response {
		return s.f.get(ctx, s.abs("/llms.txt"), "text/plain, text/markdown;q=0.9, */*;q=0.1")
	})
}

// llmsUsable reports a 200 text answer that is not an HTML page.
func llmsUsable(r *response) bool {
	mt := r.mediaType()
	return r.ok() && !isHTMLish(r) && (strings.HasPrefix(mt, "text/") || mt == "")
}

// mcpEndpoint is the site's MCP endpoint and what the probe found there.
type mcpEndpoint struct {
	url      string
	source   string // "agents.json", "server card" or "/mcp probe"
	declared bool   // named by the site, not guessed
	found    bool   // an MCP endpoint exists (declared, or the guess answered)
	probe    mcpprobe.Result
}

// mcp finds the site's MCP endpoint (agents.json interfaces, then the MCP
// server card's remotes, then a guess at /mcp) and probes it once through
// the scanner's client: only initialize and tools/list, never a tool call
// (rule 1).
func (s *site) mcp(ctx context.Context) mcpEndpoint {
	return s.mcpDoc.get(func() mcpEndpoint {
		e := mcpEndpoint{source: "/mcp probe", url: s.abs("/mcp")}
		if u := mcpprobe.DeclaredURL(s.manifest(ctx).interfaces()); u != "" {
			e.url, e.source, e.declared = parse.Resolve(s.origin, u), "agents.json", true
		} else if u := mcpprobe.RemoteURL(s.serverCard(ctx).doc); u != "" {
			e.url, e.source, e.declared = parse.Resolve(s.origin, u), "server card", true
		}
		e.probe = mcpprobe.Probe(ctx, s.f.httpClient(), e.url)
		e.found = e.declared || e.probe.Initialize || e.probe.NeedsToken()
		return e
	})
}

// jsonObject parses body as a JSON object, or as an array whose first
// element is an object (the plural server-cards.json form).
func jsonObject(body []byte) (map[string]any, error) {
	var v any
	if err := json.Unmarshal(bytes.TrimSpace(body), &v); err != nil {
		return nil, err
	}
	switch t := v.(type) {
	case map[string]any:
		return t, nil
	case []any:
		if len(t) > 0 {
			if o, ok := t[0].(map[string]any); ok {
				return o, nil
			}
		}
	}
	return nil, errors.New("not a JSON object")
}
