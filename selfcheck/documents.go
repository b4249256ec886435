package selfcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

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

// declaredDoc is one backend interface the capability card names with an
// address, and what that address answered.
type declaredDoc struct {
	id, kind, url string
	resp          *response
	resolves      bool
}

// backendResult says whether the service offers a backend interface at all
// (R9 applies "when the service offers any", STANDARD.md §2), and how each
// declared interface document answered.
type backendResult struct {
	// offered is true when anything points at a backend: an interface
	// declared in agents.json or an MCP server card, an MCP endpoint, an
	// OpenAPI document or an A2A card found at the well-known paths, an
	// API the home page advertises with a link (apiRels), or a scanned
	// form that writes (method post and the like: something behind it
	// takes the data, issue #14's definition of "offers a backend").
	offered bool
	// why names the first evidence of a backend, for the receipt.
	why string
	// declared are the non-MCP interfaces named with an address.
	declared []declaredDoc
	// a2a is the A2A card lookup (/.well-known/agent-card.json, agent.json).
	a2a jsonResult
}

// missing returns the declared documents that do not resolve: they
// answered, and the answer was 404 or 410. One that gave no usable answer
// (timeout, 5xx) could not be checked and is not called missing.
func (b backendResult) missing() []declaredDoc {
	var out []declaredDoc
	for _, d := range b.declared {
		if !d.resolves && !d.resp.unreachable() {
			out = append(out, d)
		}
	}
	return out
}

// missingText names the declared documents that do not resolve.
func (b backendResult) missingText() string {
	var parts []string
	for _, d := range b.missing() {
		parts = append(parts, fmt.Sprintf("%s interface %q at %s answers %s", d.kind, d.id, redactURL(d.url), statusText(d.resp)))
	}
	return strings.Join(parts, "; ")
}

// statusText is a response's status, or why there was none.
func statusText(r *response) string {
	if r.failed() {
		return "nothing (" + r.errText() + ")"
	}
	return fmt.Sprint(r.status)
}

// a2aCard looks up the A2A agent card at its well-known addresses.
func (s *site) a2aCard(ctx context.Context) jsonResult {
	return s.jsonDoc(ctx, "/.well-known/agent-card.json", "/.well-known/agent.json")
}

// backend gathers the evidence of a backend interface once per scan.
func (s *site) backend(ctx context.Context) backendResult {
	return s.backendDoc.get(func() backendResult {
		var b backendResult
		note := func(why string) {
			if !b.offered {
				b.offered, b.why = true, why
			}
		}
		m := s.manifest(ctx)
		for _, it := range m.interfaces() {
			u := str(it, "url")
			if u == "" {
				continue
			}
			if mcpprobe.NamesMCP(it) {
				note("agents.json names an MCP interface")
				continue
			}
			kind := str(it, "type") + str(it, "protocol")
			if kind == "" {
				kind = "an"
			}
			d := declaredDoc{id: str(it, "id"), kind: kind, url: parse.Resolve(s.origin, u)}
			if d.id == "" {
				d.id = str(it, "name")
			}
			d.resp, d.resolves = s.interfaceAnswers(ctx, d.url)
			b.declared = append(b.declared, d)
			note("agents.json names a " + kind + " interface")
		}
		if mc := s.mcp(ctx); mc.found {
			note("an MCP endpoint (" + mc.source + ")")
		}
		if oa := s.openapi(ctx); oa.doc != nil {
			note("an OpenAPI document at " + redactURL(oa.resp.req.url))
		}
		b.a2a = s.a2aCard(ctx)
		if len(b.a2a.doc) > 0 {
			note("an A2A agent card at " + redactURL(b.a2a.resp.req.url))
		}
		if !b.offered {
			if l, ok := apiAdvertised(s.pageLinks(s.page(ctx, s.home))); ok {
				note(fmt.Sprintf("the home page advertises an API (Link rel=%q to %s)", l.rel, redactURL(l.target)))
			}
		}
		if !b.offered {
			for _, r := range s.routes {
				for _, f := range s.page(ctx, r).facts.Forms {
					if f.Writes() && !f.Hidden {
						note(fmt.Sprintf("a form that writes (method %s) on %s", f.Method, redactURL(r)))
						break
					}
				}
			}
		}
		return b
	})
}

// apiRels are the link relations by which a page says "there is an API
// here": RFC 8631's service-desc, service-doc and service-meta, RFC 9727's
// api-catalog, and the relation WordPress sends on every page for its REST
// API (https://developer.wordpress.org/rest-api/using-the-rest-api/discovery/).
var apiRels = []string{"service-desc", "service-doc", "service-meta", "api-catalog", "https://api.w.org/"}

// advertisedAPI is the first link that advertises an API.
type advertisedAPI struct{ rel, target string }

// apiAdvertised finds the first link whose relation is one of apiRels.
func apiAdvertised(links []parse.Link) (advertisedAPI, bool) {
	for _, l := range links {
		for _, rel := range apiRels {
			if l.HasRel(rel) {
				return advertisedAPI{rel, l.Target}, true
			}
		}
	}
	return advertisedAPI{}, false
}

// authStated reports an authentication statement with content: a
// non-empty object or a non-empty string. An empty object documents
// nothing.
func authStated(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		return len(t) > 0
	case string:
		return strings.TrimSpace(t) != ""
	case []any:
		return len(t) > 0
	case bool:
		return true
	}
	return false
}

// openapiPaths are where OpenAPI documents usually live (STANDARD.md §9).
var openapiPaths = []string{"/openapi.json", "/openapi.yaml", "/swagger.json", "/api-docs", "/.well-known/openapi"}

// openapiResult is the site's OpenAPI document, if any.
type openapiResult struct {
	resp    *response      // the document judged
	doc     map[string]any // parsed (nil when none)
	version string         // "3.x" or "2.0"
	tried   []*response
}

// allUnreachable reports whether every candidate gave no usable answer.
func (o openapiResult) allUnreachable() bool { return allUnreachable(o.tried) }

// openapi looks for an OpenAPI document: interfaces of type openapi in
// agents.json, a Link rel="service-desc" (RFC 8631) on the home page, then
// the usual paths. An HTML UI does not count.
func (s *site) openapi(ctx context.Context) openapiResult {
	return s.openapiDoc.get(func() openapiResult {
		var cands []string
		for _, it := range s.manifest(ctx).interfaces() {
			t := strings.ToLower(str(it, "type") + str(it, "protocol"))
			if (strings.Contains(t, "openapi") || strings.Contains(t, "rest")) && str(it, "url") != "" {
				cands = append(cands, parse.Resolve(s.origin, str(it, "url")))
			}
		}
		home := s.page(ctx, s.home)
		for _, l := range s.pageLinks(home) {
			if l.HasRel("service-desc") {
				cands = append(cands, l.Target)
			}
		}
		for _, p := range openapiPaths {
			cands = append(cands, s.abs(p))
		}
		var res openapiResult
		seen := map[string]bool{}
		for _, c := range cands {
			if seen[c] || len(res.tried) >= 8 {
				continue
			}
			seen[c] = true
			resp := s.f.get(ctx, c, "application/json, application/yaml;q=0.9, */*;q=0.1")
			res.tried = append(res.tried, resp)
			if !resp.ok() || isHTMLish(resp) {
				continue
			}
			doc := parseOpenAPI(resp.body)
			if doc == nil {
				continue
			}
			switch {
			case strings.HasPrefix(str(doc, "openapi"), "3."):
				res.resp, res.doc, res.version = resp, doc, "3.x"
				return res
			case str(doc, "swagger") == "2.0" && res.doc == nil:
				res.resp, res.doc, res.version = resp, doc, "2.0"
			}
		}
		if res.resp == nil && len(res.tried) > 0 {
			res.resp = res.tried[0]
		}
		return res
	})
}

// parseOpenAPI reads a JSON or YAML document as an object; nil when it is
// neither. yaml.v3 refuses excessive aliasing, so alias bombs fail.
func parseOpenAPI(body []byte) (doc map[string]any) {
	defer func() {
		if recover() != nil {
			doc = nil
		}
	}()
	b := bytes.TrimSpace(body)
	if len(b) > 0 && b[0] == '{' {
		if json.Unmarshal(b, &doc) != nil {
			return nil
		}
		return doc
	}
	if yaml.Unmarshal(b, &doc) != nil {
		return nil
	}
	return doc
}

// obj reads an object field.
func obj(o map[string]any, key string) map[string]any {
	m, _ := o[key].(map[string]any)
	return m
}

// httpMethods are the operation keys of an OpenAPI path item.
var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// problemFields are the members an error body names (RFC 9457 problem
// details and the common ad-hoc shapes, STANDARD.md §9).
var problemFields = []string{"title", "detail", "error", "message", "code", "type", "status"}

// missingProbe is the path asked under the API base to see how unknown
// paths fail.
const missingProbe = "agentready-selfcheck-no-such-path"

// opFindings counts an OpenAPI document's operations against the criteria.
type opFindings struct {
	ops, met int
	missing  []string
}

// judgeOperations checks every operation for operationId, a summary or
// description, typed
// parameters, a 2xx schema and an error model.
func judgeOperations(doc map[string]any) opFindings {
	var f opFindings
	paths := obj(doc, "paths")
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		item, _ := paths[p].(map[string]any)
		for _, m := range httpMethods {
			op, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			f.ops++
			name := strings.ToUpper(m) + " " + p
			crit := func(ok bool, what string) {
				if ok {
					f.met++
				} else if len(f.missing) < 8 {
					f.missing = append(f.missing, name+": "+what)
				}
			}
			crit(str(op, "operationId") != "", "operationId")
			// STANDARD.md §11 (4.17): a summary or a description.
			crit(str(op, "summary") != "" || str(op, "description") != "", "a summary or description")
			crit(typedParams(item, op), "typed parameters")
			ok2xx, okErr := responses(op)
			crit(ok2xx, "a 2xx response schema")
			crit(okErr, "an error response model")
		}
	}
	return f
}

// typedParams reports whether every parameter has a schema/type or a $ref.
func typedParams(item, op map[string]any) bool {
	for _, src := range []map[string]any{item, op} {
		params, _ := src["parameters"].([]any)
		for _, p := range params {
			pm, _ := p.(map[string]any)
			if pm == nil {
				return false
			}
			if pm["$ref"] != nil || pm["type"] != nil || pm["content"] != nil {
				continue
			}
			if sch := obj(pm, "schema"); sch != nil && (sch["type"] != nil || sch["$ref"] != nil || sch["oneOf"] != nil || sch["anyOf"] != nil || sch["allOf"] != nil) {
				continue
			}
			return false
		}
	}
	return true
}

// responses reports a 2xx response with a schema and a 4xx/5xx/default
// response (an error model).
func responses(op map[string]any) (ok2xx, okErr bool) {
	for code, r := range obj(op, "responses") {
		rm, _ := r.(map[string]any)
		switch {
		case strings.HasPrefix(code, "2"):
			if rm != nil && (rm["$ref"] != nil || rm["schema"] != nil || hasContentSchema(rm)) || code == "204" {
				ok2xx = true
			}
		case strings.HasPrefix(code, "4"), strings.HasPrefix(code, "5"), code == "default":
			okErr = true
		}
	}
	return ok2xx, okErr
}

// hasContentSchema reports a response whose content has a schema.
func hasContentSchema(r map[string]any) bool {
	for _, mt := range obj(r, "content") {
		if m, ok := mt.(map[string]any); ok && m["schema"] != nil {
			return true
		}
	}
	return false
}

// apiBase returns the API's base URL on the site: the first server URL
// (OpenAPI 3.x) or basePath (Swagger 2.0), resolved against the document.
func (s *site) apiBase(oa openapiResult) string {
	base, _ := url.Parse(oa.resp.req.url)
	ref := "/"
	if servers, ok := oa.doc["servers"].([]any); ok && len(servers) > 0 {
		if sv, ok := servers[0].(map[string]any); ok && str(sv, "url") != "" {
			ref = str(sv, "url")
		}
	} else if bp := str(oa.doc, "basePath"); bp != "" {
		ref = bp
	}
	u := parse.Resolve(base, ref)
	return strings.TrimSuffix(u, "/") + "/"
}

// isProblemBody reports a JSON object naming an error.
func isProblemBody(r *response) bool {
	var v map[string]any
	if json.Unmarshal(r.body, &v) != nil {
		return false
	}
	for _, f := range problemFields {
		if _, ok := v[f]; ok {
			return true
		}
	}
	return false
}
