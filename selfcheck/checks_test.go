package selfcheck

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/selfcheck/internal/parse"
)

// formPage is a bare site whose home page holds the given body.
func formPage(body string) func(t testing.TB) http.Handler {
	return bare(replace("/", htmlDoc(`<!doctype html><html lang="en"><body>`+body+`</body></html>`)))
}

const (
	goodForm     = `<form toolname="search_catalog" tooldescription="Search the catalogue by keyword."><label for="q">Q</label><input id="q" name="q" toolparamdescription="Words."></form>`
	plainForm    = `<form action="/login"><input name="user"><input type="password" name="pw"></form>`
	hyphenForm   = `<form tool-name="search" tool-description="Search."><input name="q"></form>`
	nameOnlyForm = `<form toolname="search"><input name="q"></form>`
)

func TestCheckWebActionsDeclared(t *testing.T) {
	runVerdictCases(t, "web_actions_declared", []verdictCase{
		{name: "annotated form", site: formPage(goodForm), verdict: Pass},
		{name: "registerTool script", site: formPage(plainForm + `<script>document.modelContext.registerTool({name:"login"})</script>`), verdict: Pass},
		{name: "toolname without description", site: formPage(nameOnlyForm), verdict: Partial, fraction: 0.5},
		{name: "hyphenated only", site: formPage(hyphenForm), verdict: Partial, fraction: 0.5},
		{name: "navigator.modelContext only", site: formPage(plainForm + `<script>navigator.modelContext.provideContext({})</script>`), verdict: Partial, fraction: 0.5},
		{name: "unannotated form", site: formPage(plainForm), verdict: Fail},
		{name: "no form", site: bare(), verdict: NotApplicable},
		{name: "hidden form only", site: formPage(`<div hidden>` + plainForm + `</div><template>` + plainForm + `</template>`), verdict: NotApplicable},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckToolFormQuality(t *testing.T) {
	runVerdictCases(t, "tool_form_quality", []verdictCase{
		{name: "well described", site: formPage(goodForm), verdict: Pass},
		{name: "labels wrap fields", site: formPage(`<form toolname="a_b" tooldescription="Ten chars or more."><label>Q <input name="q" toolparamdescription="x"></label></form>`), verdict: Pass},
		{name: "short description, no labels", site: formPage(nameOnlyForm), verdict: Partial, fraction: 0.25},
		{name: "camelCase name, short description", site: formPage(`<form toolname="searchIt" tooldescription="Find."><label for="q">Q</label><input id="q" name="q" toolparamdescription="x"></form>`), verdict: Partial, fraction: 0.5},
		{name: "hyphenated form meets nothing", site: formPage(hyphenForm), verdict: Fail},
		{name: "no annotated form", site: formPage(plainForm), verdict: NotApplicable},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckSurfaceCoverage(t *testing.T) {
	runVerdictCases(t, "surface_coverage", []verdictCase{
		{name: "one of two", site: formPage(goodForm + plainForm), verdict: Pass},
		{name: "one of four", site: formPage(goodForm + plainForm + plainForm + `<input type="search" name="s">`), verdict: Partial, fraction: 0.5},
		{name: "hidden surfaces not counted", site: formPage(goodForm + `<div inert>` + plainForm + `</div><div style="display: none">` + plainForm + `</div>`), verdict: Pass},
		{name: "none annotated", site: formPage(plainForm + `<div role="search"></div>`), verdict: Fail},
		{name: "no surface", site: bare(), verdict: NotApplicable},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckToolsPermissionsPolicy(t *testing.T) {
	policy := func(v string) func(t testing.TB) http.Handler {
		return bare(replace("/", &doc{ctype: "text/html", header: http.Header{"Permissions-Policy": {v}}, body: "<html></html>"}))
	}
	runVerdictCases(t, "tools_permissions_policy", []verdictCase{
		{name: "no policy: default self (rule 7)", site: bare(), verdict: Pass},
		{name: "other features only", site: policy(`camera=(), geolocation=(self "https://maps.test")`), verdict: Pass},
		{name: "tools self", site: policy(`camera=(), tools=(self)`), verdict: Pass},
		{name: "tools star", site: policy(`tools=*`), verdict: Pass},
		{name: "tools disabled", site: policy(`tools=()`), verdict: Fail},
		{name: "disabled on one route of two", site: ready(func(s *testSite) { s.edit("/pricing", func(d *doc) { d.header.Set("Permissions-Policy", "tools=()") }) }), verdict: Partial, fraction: 0.5},
		{name: "tools for another origin only", site: policy(`tools=("https://other.test")`), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

// fakeMCP is a hand-written Streamable HTTP endpoint (JSON responses):
// mode "ok" answers everything, "tools-error" fails tools/list,
// "init-401" demands a token, "garbage" answers HTML.
func fakeMCP(mode string) *doc {
	return &doc{handler: func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		var m struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &m)
		switch {
		case mode == "garbage":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html>not mcp</html>"))
			return
		case mode == "init-401":
			// RFC 9728 §5.1: the challenge names the resource metadata.
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://`+r.Host+`/.well-known/oauth-protected-resource"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		case strings.HasPrefix(m.Method, "notifications/"):
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		var result any
		switch m.Method {
		case "initialize":
			result = map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "fake", "version": "1"}}
		case "tools/list":
			if mode == "tools-error" {
				json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "no"}})
				return
			}
			result = map[string]any{"tools": []any{map[string]any{"name": "a", "inputSchema": map[string]any{"type": "object"}}}}
		}
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
	}}
}

// card serves a capability card at both addresses.
func card(body string) func(s *testSite) {
	return func(s *testSite) {
		d := &doc{ctype: "application/json", body: body}
		s.set("/agents.json", d)
		s.set("/.well-known/agents.json", d)
	}
}

const swagger2 = `{"swagger":"2.0","info":{"title":"x","version":"1"},"paths":{}}`

func TestCheckBackendInterface(t *testing.T) {
	runVerdictCases(t, "backend_interface_declared", []verdictCase{
		{name: "live MCP", site: ready(), verdict: Pass},
		{name: "MCP guessed at /mcp", site: bare(replace("/mcp", fakeMCP("ok"))), verdict: Pass},
		{name: "OpenAPI only", site: bare(replace("/openapi.json", &doc{ctype: "application/json", body: fixture(t, "openapi.json")})), verdict: Pass},
		{name: "OpenAPI YAML", site: bare(replace("/openapi.yaml", &doc{ctype: "application/yaml", body: "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\n"})), verdict: Pass},
		{name: "GraphQL named in the card answers", site: bare(card(`{"interfaces":[{"type":"graphql","url":"/graphql"}]}`), replace("/graphql", &doc{status: 400, ctype: "application/json", body: `{"errors":[]}`})), verdict: Pass},
		{name: "Swagger 2.0", site: bare(replace("/swagger.json", &doc{ctype: "application/json", body: swagger2})), verdict: Partial, fraction: 0.5},
		{name: "MCP demands a token to initialize", site: bare(replace("/mcp", fakeMCP("init-401"))), verdict: Partial, fraction: 0.5},
		{name: "declared MCP but silent", site: bare(card(`{"interfaces":[{"type":"mcp","url":"/mcp"}]}`)), verdict: Fail},
		{name: "declared OpenAPI answers 404", site: bare(card(`{"interfaces":[{"id":"rest","type":"openapi","url":"/api/openapi.json"}]}`)), verdict: Fail},
		{name: "live MCP beside a declared OpenAPI that answers 404", site: ready(editBody("/agents.json", `"interfaces": [`, `"interfaces": [{"id":"rest","type":"openapi","url":"/api/openapi.json"},`), editBody("/.well-known/agents.json", `"interfaces": [`, `"interfaces": [{"id":"rest","type":"openapi","url":"/api/openapi.json"},`)), verdict: Partial, fraction: 0.5},
		{name: "A2A card", site: bare(replace("/.well-known/agent-card.json", &doc{ctype: "application/json", body: `{"name":"a","supportedInterfaces":[{"url":"/a2a","protocolBinding":"JSONRPC"}]}`})), verdict: Pass},
		{name: "declares none", site: bare(card(`{"name":"x","interfaces":[]}`)), verdict: NotApplicable},
		{name: "content-only site, nothing declared", site: bare(), verdict: NotApplicable},
		{name: "content-only site with a card and no interfaces key", site: bare(card(`{"name":"x","authentication":{"type":"none"}}`)), verdict: NotApplicable},
		{name: "a form that posts, nothing declared", site: bare(replace("/", &doc{ctype: "text/html", body: `<!doctype html><html><body><form method="post" action="/order"><input name="q"></form></body></html>`})), verdict: Fail},
		{name: "WordPress's REST API link header, nothing declared", site: bare(replace("/", &doc{ctype: "text/html", header: http.Header{"Link": {`<http://127.0.0.1/wp-json/>; rel="https://api.w.org/"`}}, body: `<!doctype html><html><body><p>Hello</p></body></html>`})), verdict: Fail},
		{name: "an RFC 8631 service-doc link in the head, nothing declared", site: bare(replace("/", &doc{ctype: "text/html", body: `<!doctype html><html><head><link rel="service-doc" href="/api/docs"></head><body><p>Hello</p></body></html>`})), verdict: Fail},
		{name: "a search form that gets, nothing declared", site: bare(replace("/", &doc{ctype: "text/html", body: `<!doctype html><html><body><form action="/search"><input name="q"></form></body></html>`})), verdict: NotApplicable},
		{name: "everything 500", site: bare(func(s *testSite) { s.fallback = &doc{status: 500} }), verdict: CouldNotCheck},
	})
}

func TestCheckMCPTransport(t *testing.T) {
	declared := card(`{"interfaces":[{"type":"mcp","url":"/mcp"}]}`)
	runVerdictCases(t, "mcp_transport", []verdictCase{
		{name: "SDK server, SSE", site: ready(), verdict: Pass},
		{name: "SDK server, JSON responses", site: ready(replace("/mcp", &doc{handler: newMCPHandler(2, 0, true).ServeHTTP})), verdict: Pass},
		{name: "endpoint on another origin", site: func(t testing.TB) http.Handler {
			other := agentReadySite(t).serve(t)
			return bare(card(`{"interfaces":[{"type":"mcp","url":"` + other.URL + `/mcp"}]}`))(t)
		}, verdict: Partial, fraction: 0.5},
		{name: "tools/list fails", site: bare(declared, replace("/mcp", fakeMCP("tools-error"))), verdict: Partial, fraction: 0.5},
		{name: "token needed to initialize", site: bare(declared, replace("/mcp", fakeMCP("init-401"))), verdict: Partial, fraction: 0.25},
		{name: "garbage", site: bare(declared, replace("/mcp", fakeMCP("garbage"))), verdict: Fail},
		{name: "declared endpoint 500", site: bare(declared, serverError("/mcp")), verdict: CouldNotCheck},
		{name: "no MCP", site: bare(), verdict: NotApplicable},
	})
}

func TestCheckAccessDocumented(t *testing.T) {
	runVerdictCases(t, "access_documented", []verdictCase{
		{name: "card authentication", site: ready(), verdict: Pass},
		{name: "OpenAPI security", site: bare(replace("/openapi.json", &doc{ctype: "application/json", body: fixture(t, "openapi.json")})), verdict: Pass},
		{name: "server card remote headers", site: bare(replace("/.well-known/mcp/server-card.json", &doc{ctype: "application/json", body: `{"name":"a/b","remotes":[{"type":"streamable-http","url":"https://x.test/mcp","headers":[{"name":"Authorization"}]}]}`})), verdict: Pass},
		{name: "interfaces without auth", site: bare(card(`{"interfaces":[{"type":"mcp","url":"/mcp"}]}`)), verdict: Fail},
		{name: "an empty authentication object is not documentation", site: bare(card(`{"interfaces":[{"type":"mcp","url":"/mcp"}],"authentication":{}}`)), verdict: Fail},
		{name: "content-only site: no backend to document", site: bare(card(`{"name":"x"}`)), verdict: NotApplicable},
		{name: "declares no interface", site: bare(card(`{"interfaces":[]}`)), verdict: NotApplicable},
		{name: "card 500", site: bare(serverError("/agents.json", "/.well-known/agents.json")), verdict: CouldNotCheck},
	})
}

func TestCheckSigninDiscovery(t *testing.T) {
	noS256 := replace("/.well-known/oauth-authorization-server", &doc{ctype: "application/json", body: `{"issuer":"{{origin}}","code_challenge_methods_supported":["plain"]}`})
	runVerdictCases(t, "signin_discovery", []verdictCase{
		{name: "metadata with S256", site: ready(), verdict: Pass},
		{name: "MCP 401 with protected-resource metadata", site: bare(replace("/mcp", fakeMCP("init-401")),
			replace("/.well-known/oauth-protected-resource", &doc{ctype: "application/json", body: `{"resource":"{{origin}}/mcp","authorization_servers":["{{origin}}"]}`}),
			replace("/.well-known/oauth-authorization-server", &doc{ctype: "application/json", body: fixture(t, "oauth-authorization-server.json")})), verdict: Pass},
		{name: "metadata without S256", site: ready(noS256), verdict: Partial, fraction: 0.5},
		{name: "token needed, no metadata", site: ready(without("/.well-known/oauth-authorization-server")), verdict: Fail},
		{name: "everything public", site: bare(), verdict: NotApplicable},
		{name: "metadata 500", site: ready(serverError("/.well-known/oauth-authorization-server")), verdict: CouldNotCheck},
	})
}

func TestCheckOpenAPIQuality(t *testing.T) {
	sloppy := strings.NewReplacer(`"operationId": "list_widgets",`, "", `"summary": "List widgets",`, "").Replace(fixture(t, "openapi.json"))
	runVerdictCases(t, "openapi_quality", []verdictCase{
		{name: "complete", site: ready(), verdict: Pass},
		{name: "no operationId or summary", site: ready(replace("/openapi.json", &doc{ctype: "application/json", body: sloppy})), verdict: Partial, fraction: 0.68},
		{name: "unknown path answers HTML", site: ready(without("/api/" + missingProbe)), verdict: Partial, fraction: 0.8},
		{name: "no operations", site: bare(replace("/openapi.json", &doc{ctype: "application/json", body: `{"openapi":"3.0.0","paths":{}}`})), verdict: Fail},
		{name: "no OpenAPI", site: bare(), verdict: NotApplicable},
		{name: "OpenAPI 500", site: bare(serverError("/openapi.json")), verdict: CouldNotCheck},
	})
}

func TestCheckSitemap(t *testing.T) {
	urlset := func(locs ...string) *doc {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, l := range locs {
			b.WriteString("<url><loc>" + l + "</loc></url>")
		}
		b.WriteString("</urlset>")
		return &doc{ctype: "application/xml", body: b.String()}
	}
	runVerdictCases(t, "sitemap", []verdictCase{
		{name: "urlset on origin", site: ready(), verdict: Pass},
		{name: "robots Sitemap line only", site: ready(without("/sitemap.xml"), replace("/robots.txt", &doc{ctype: "text/plain", body: "Sitemap: {{origin}}/maps/main.xml\n"}), replace("/maps/main.xml", urlset("{{origin}}/"))), verdict: Pass},
		{name: "sitemap index", site: ready(replace("/sitemap.xml", &doc{ctype: "application/xml", body: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>{{origin}}/pages.xml</loc></sitemap></sitemapindex>`}), replace("/pages.xml", urlset("{{origin}}/pricing"))), verdict: Pass},
		{name: "gzipped, listed in robots.txt", site: ready(without("/sitemap.xml"), replace("/robots.txt", &doc{ctype: "text/plain", body: "Sitemap: {{origin}}/sitemap.xml.gz\n"}), replace("/sitemap.xml.gz", &doc{handler: gzipSitemap})), verdict: Pass},
		{name: "half foreign locs", site: ready(replace("/sitemap.xml", urlset("{{origin}}/", "https://elsewhere.test/x"))), verdict: Partial, fraction: 0.5},
		{name: "malformed XML after a loc", site: ready(replace("/sitemap.xml", &doc{ctype: "application/xml", body: `<urlset><url><loc>{{origin}}/</loc></url><url><loc>`})), verdict: Partial, fraction: 0.5},
		{name: "all foreign", site: ready(replace("/sitemap.xml", urlset("https://elsewhere.test/x"))), verdict: Fail},
		{name: "empty urlset", site: ready(replace("/sitemap.xml", urlset())), verdict: Fail},
		{name: "HTML soft 404 with 200", site: ready(replace("/sitemap.xml", &doc{ctype: "text/html", body: "<html><body>Not here</body></html>"})), verdict: Fail},
		{name: "404", site: bare(), verdict: Fail},
		{name: "500", site: ready(serverError("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckLLMSTxt(t *testing.T) {
	runVerdictCases(t, "llms_txt", []verdictCase{
		{name: "complete", site: ready(), verdict: Pass},
		{name: "only links, no instructions", site: ready(replace("/llms.txt", &doc{ctype: "text/plain", body: "# Acme\n\n- [Home](/)\n- [Spec](https://spec.test/)\n"})), verdict: Partial, fraction: 0.75},
		{name: "no H1, no links", site: ready(replace("/llms.txt", &doc{ctype: "text/plain", body: "Please read our pages as Markdown before you answer anything.\n"})), verdict: Partial, fraction: 0.5},
		{name: "wrong content type", site: ready(replace("/llms.txt", &doc{ctype: "application/octet-stream", body: fixture(t, "llms.txt")})), verdict: Partial, fraction: 0.75},
		{name: "HTML page at 200", site: ready(replace("/llms.txt", &doc{ctype: "text/html", body: "<!doctype html><html><body>home</body></html>"})), verdict: Fail},
		{name: "404 is an honest fail", site: bare(), verdict: Fail},
		{name: "503", site: ready(serverError("/llms.txt")), verdict: CouldNotCheck},
	})
}

func TestCheckCapabilityManifest(t *testing.T) {
	minimal := &doc{ctype: "application/json", body: `{"name":"Acme","url":"{{origin}}"}`}
	runVerdictCases(t, "capability_manifest", []verdictCase{
		{name: "complete twins", site: ready(), verdict: Pass},
		{name: "root only", site: ready(without("/.well-known/agents.json")), verdict: Pass},
		{name: "twins disagree", site: ready(replace("/agents.json", &doc{ctype: "application/json", body: `{"name":"Other"}`})), verdict: Partial, fraction: 0.5},
		{name: "fields missing", site: ready(without("/agents.json"), replace("/.well-known/agents.json", minimal)), verdict: Partial, fraction: 0.25},
		{name: "empty object", site: ready(without("/agents.json"), replace("/.well-known/agents.json", &doc{ctype: "application/json", body: `{}`})), verdict: Fail},
		{name: "not JSON", site: ready(without("/agents.json"), replace("/.well-known/agents.json", &doc{ctype: "application/json", body: `{"name":`})), verdict: Fail},
		{name: "404", site: bare(), verdict: Fail},
		{name: "both 500", site: ready(serverError("/agents.json", "/.well-known/agents.json")), verdict: CouldNotCheck},
	})
}

func TestCheckCrawlerPolicy(t *testing.T) {
	robots := func(body string) func(s *testSite) {
		return replace("/robots.txt", &doc{ctype: "text/plain", body: body})
	}
	runVerdictCases(t, "crawler_policy", []verdictCase{
		{name: "training refused, search allowed", site: ready(), verdict: Pass},
		{name: "no robots.txt", site: bare(), verdict: Pass},
		{name: "search bots shut out", site: ready(robots("User-agent: OAI-SearchBot\nUser-agent: PerplexityBot\nUser-agent: Claude-SearchBot\nUser-agent: Googlebot\nDisallow: /\n")), verdict: Partial, fraction: 0.5},
		{name: "everything shut out", site: ready(robots("User-agent: *\nDisallow: /\n")), verdict: Fail},
		{name: "robots 500", site: ready(serverError("/robots.txt")), verdict: CouldNotCheck},
	})
}

func TestCheckDiscoveryLinks(t *testing.T) {
	runVerdictCases(t, "discovery_links", []verdictCase{
		{name: "both Link headers", site: ready(), verdict: Pass},
		{name: "head links only", site: bare(replace("/", &doc{ctype: "text/html", body: `<html><head><link rel="describedby" href="/llms.txt"><link rel="alternate" type="application/json" href="/agents.json"></head></html>`})), verdict: Pass},
		{name: "llms only", site: ready(func(s *testSite) {
			s.edit("/", func(d *doc) { d.header = http.Header{"Link": {`</llms.txt>; rel="describedby"`}} })
		}), verdict: Partial, fraction: 0.5},
		{name: "none", site: bare(), verdict: Fail},
	})
}

func TestCheckDiscoveryLinksHomeDown(t *testing.T) {
	runVerdictCases(t, "discovery_links", []verdictCase{
		{name: "home 500", site: ready(serverError("/")), verdict: CouldNotCheck},
	})
}

// gzipSitemap serves a gzip-compressed urlset as application/gzip.
func gzipSitemap(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/gzip")
	zw := gzip.NewWriter(w)
	zw.Write([]byte(`<urlset><url><loc>http://` + r.Host + `/</loc></url></urlset>`))
	zw.Close()
}

func TestGunzipSitemapBomb(t *testing.T) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(bytes.Repeat([]byte("<"), 10<<20))
	zw.Close()
	if _, err := parse.GunzipSitemap(b.Bytes(), 1<<20); err == nil || !strings.Contains(err.Error(), "inflates past") {
		t.Errorf("gzip bomb: err = %v", err)
	}
	if out, err := parse.GunzipSitemap([]byte("<urlset/>"), 10); err != nil || string(out) != "<urlset/>" {
		t.Errorf("plain body changed: %q %v", out, err)
	}
}

// TestOptionalChecks: optional checks never score; they say found or not,
// and what was seen.
func TestOptionalChecks(t *testing.T) {
	cases := []struct {
		name  string
		site  func(t testing.TB) func(s *testSite)
		id    string
		found bool
		note  string
	}{
		{"a2a 1.0", nil, "a2a_agent_card", true, "A2A 1.0 card"},
		{"a2a 0.3", func(t testing.TB) func(s *testSite) {
			return replace("/.well-known/agent-card.json", &doc{ctype: "application/json", body: `{"name":"a","url":"https://a.test/a2a"}`})
		}, "a2a_agent_card", true, "0.3 card"},
		{"a2a missing", func(t testing.TB) func(s *testSite) { return without("/.well-known/agent-card.json") }, "a2a_agent_card", false, "not found (404)"},
		{"a2a empty object", func(t testing.TB) func(s *testSite) {
			return replace("/.well-known/agent-card.json", &doc{ctype: "application/json", body: `{}`})
		}, "a2a_agent_card", false, "empty {}"},
		{"server card valid", nil, "mcp_server_card", true, "valid v1 server card"},
		{"server card invalid name", func(t testing.TB) func(s *testSite) {
			return replace("/.well-known/mcp/server-card.json", &doc{ctype: "application/json", body: `{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"no-slash","version":"1","description":"d"}`})
		}, "mcp_server_card", true, "invalid against the v1 schema"},
		{"server card plural form", func(t testing.TB) func(s *testSite) {
			return func(s *testSite) {
				s.set("/.well-known/mcp/server-card.json", nil)
				s.set("/.well-known/mcp/server-cards.json", &doc{ctype: "application/json", body: `[` + fixture(t, "server-card.json") + `]`})
			}
		}, "mcp_server_card", true, "valid v1 server card"},
		{"skills digest verified", nil, "agent_skills_index", true, "1 of 1 digest(s) verified"},
		{"skills digest mismatch", func(t testing.TB) func(s *testSite) { return editBody("/skills/search.md", "Search", "Find") }, "agent_skills_index", true, "does not match"},
		{"api catalog", nil, "api_catalog", true, "linkset with 1"},
		{"api catalog wrong type", func(t testing.TB) func(s *testSite) {
			return func(s *testSite) { s.edit("/.well-known/api-catalog", func(d *doc) { d.ctype = "application/json" }) }
		}, "api_catalog", true, "not application/linkset+json"},
		{"content signal", nil, "content_signals", true, "ai-train=no"},
		{"tokens", nil, "markdown_tokens", true, "x-markdown-tokens: 25; scanner's o200k_base count"},
		{"no tokens", func(t testing.TB) func(s *testSite) {
			return func(s *testSite) { s.edit("/", func(d *doc) { d.header.Del("X-Markdown-Tokens") }) }
		}, "markdown_tokens", false, "no x-markdown-tokens"},
		{"nlweb", nil, "nlweb_ask", true, "1 result"},
		{"nlweb html", func(t testing.TB) func(s *testSite) { return replace("/ask", htmlDoc("<html></html>")) }, "nlweb_ask", false, "does not answer JSON"},
		{"ard clean", nil, "ard_manifest", true, "audit score 1"},
		{"ard broken", func(t testing.TB) func(s *testSite) {
			return replace("/.well-known/ard.json", &doc{ctype: "application/json", body: `{"entries":[{"displayName":"x"}]}`})
		}, "ard_manifest", true, "audit score 0"},
		{"ard absent", func(t testing.TB) func(s *testSite) { return without("/.well-known/ard.json") }, "ard_manifest", false, "not applicable"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := agentReadySite(t)
			if tc.site != nil {
				tc.site(t)(s)
			}
			r := scanHandler(t, s, Options{})
			c := r.checkByID(tc.id)
			if c.Verdict != Optional || c.Weight != 0 || c.Earned != 0 {
				t.Errorf("%s: verdict %s weight %v earned %v, want OPTIONAL and no points", tc.id, c.Verdict, c.Weight, c.Earned)
			}
			if c.Found == nil || *c.Found != tc.found {
				t.Errorf("%s found = %v, want %v (%s)", tc.id, c.Found, tc.found, c.Receipt.Note)
			}
			if !strings.Contains(c.Receipt.Note, tc.note) {
				t.Errorf("%s note %q does not mention %q", tc.id, c.Receipt.Note, tc.note)
			}
		})
	}
}

// TestOptionalNeverChangesTheScore: removing every optional document
// leaves the score untouched.
func TestOptionalNeverChangesTheScore(t *testing.T) {
	full := scanHandler(t, agentReadySite(t), Options{})
	s := agentReadySite(t)
	without("/.well-known/agent-card.json", "/.well-known/mcp/server-card.json", "/.well-known/agent-skills/index.json", "/.well-known/api-catalog", "/ask", "/.well-known/ard.json")(s)
	s.edit("/", func(d *doc) { d.header.Del("X-Markdown-Tokens") })
	stripped := scanHandler(t, s, Options{})
	if full.Score != stripped.Score || full.Applicable != stripped.Applicable {
		t.Errorf("score %v/%v with optional documents, %v/%v without", full.Score, full.Applicable, stripped.Score, stripped.Applicable)
	}
}

// shell is an empty single-page-app shell.
const shell = `<!doctype html><html lang="en"><head><script src="/app.js"></script></head><body><div id="root"></div></body></html>`

// markdownAlways answers every request with Markdown, whatever it accepts.
func markdownAlways(s *testSite) {
	s.set("/", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		w.Header().Set("Vary", "Accept")
		w.Write([]byte("# Home\n"))
	}})
}

func TestCheckContentInInitialHTML(t *testing.T) {
	words := strings.Repeat("word ", 60)
	runVerdictCases(t, "content_in_initial_html", []verdictCase{
		{name: "server-rendered main", site: ready(), verdict: Pass},
		{name: "no main landmark", site: bare(replace("/", htmlDoc(`<html><body><div>`+words+`</div></body></html>`))), verdict: Partial, fraction: 0.5},
		{name: "role=main counts", site: bare(replace("/", htmlDoc(`<html><body><div role="main">`+words+`</div></body></html>`))), verdict: Pass},
		{name: "text hidden in a template does not count", site: bare(replace("/", htmlDoc(`<html><body><main></main><template>`+words+`</template></body></html>`))), verdict: Fail},
		{name: "app shell", site: bare(replace("/", htmlDoc(shell))), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckMarkdownRepresentation(t *testing.T) {
	noCharset := func(s *testSite) {
		s.set("/", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.Header.Get("Accept"), "text/markdown") {
				w.Header().Set("Content-Type", "text/markdown")
				w.Write([]byte("# Home\n"))
				return
			}
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html></html>"))
		}})
	}
	runVerdictCases(t, "markdown_representation", []verdictCase{
		{name: "negotiated", site: ready(), verdict: Pass},
		{name: "no charset", site: ready(noCharset, without("/sitemap.xml")), verdict: Partial, fraction: 0.5},
		{name: "a tie with text/html gets HTML", site: ready(without("/sitemap.xml"), func(s *testSite) {
			s.set("/", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Vary", "Accept")
				if r.Header.Get("Accept") == "text/markdown" { // the old rule: only a strict preference
					w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
					w.Write([]byte("# Home\n"))
					return
				}
				w.Header().Set("Content-Type", "text/html")
				w.Write([]byte("<html></html>"))
			}})
		}), verdict: Partial, fraction: 0.5},
		{name: "one route HTML only", site: ready(func(s *testSite) { s.edit("/pricing", func(d *doc) { d.markdown = "" }) }), verdict: Partial, fraction: 0.5},
		{name: "HTML only", site: bare(), verdict: Fail},
		{name: "markdown request fails", site: ready(without("/sitemap.xml"), func(s *testSite) {
			s.set("/", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.Header.Get("Accept"), "text/markdown") {
					w.WriteHeader(502)
					return
				}
				w.Write([]byte("<html></html>"))
			}})
		}), verdict: CouldNotCheck},
	})
}

func TestCheckVaryAccept(t *testing.T) {
	runVerdictCases(t, "vary_accept", []verdictCase{
		{name: "both forms", site: ready(), verdict: Pass},
		{name: "Vary star counts", opts: Options{Pages: -1}, site: ready(without("/sitemap.xml"), func(s *testSite) { s.edit("/", func(d *doc) { d.header.Set("Vary", "*") }) }), verdict: Pass},
		{name: "merged Vary list", opts: Options{Pages: -1}, site: ready(without("/sitemap.xml"), func(s *testSite) { s.edit("/", func(d *doc) { d.header.Set("Vary", "Accept-Encoding, accept") }) }), verdict: Pass},
		{name: "HTML form only", site: ready(without("/sitemap.xml"), func(s *testSite) {
			s.set("/", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.Header.Get("Accept"), "text/markdown") {
					w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
					return
				}
				w.Header().Set("Vary", "Accept")
				w.Header().Set("Content-Type", "text/html")
			}})
		}), verdict: Partial, fraction: 0.5},
		{name: "none", site: bare(), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckMarkdownFrontMatter(t *testing.T) {
	fm := func(md string) func(s *testSite) {
		return func(s *testSite) {
			s.set("/sitemap.xml", nil)
			s.edit("/", func(d *doc) { d.markdown = md })
		}
	}
	runVerdictCases(t, "markdown_front_matter", []verdictCase{
		{name: "all four fields", site: ready(), verdict: Pass},
		{name: "title only", opts: Options{Pages: -1}, site: ready(fm("---\ntitle: Home\n---\n# Home\n")), verdict: Partial, fraction: 0.25},
		{name: "canonical is an AI URL", opts: Options{Pages: -1}, site: ready(fm("---\ntitle: Home\ncanonical: {{origin}}/index.md\nupdated: 2026-01-01\nlanguage: en\n---\n# Home\n")), verdict: Partial, fraction: 0.75},
		{name: "no front matter", opts: Options{Pages: -1}, site: ready(fm("# Home\n")), verdict: Fail},
		{name: "no markdown at all", site: bare(), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestFrontMatter(t *testing.T) {
	tests := []struct {
		in   string
		ok   bool
		keys int
	}{
		{"---\ntitle: \"A: B\"\nlanguage: en\n---\nbody", true, 2},
		{"\xef\xbb\xbf---\ntitle: x\n---\n", true, 1},
		{"---\ntitle: x\n", false, 0},
		{"# no\n---\n", false, 0},
		{"", false, 0},
	}
	for _, tc := range tests {
		f, ok := frontMatter([]byte(tc.in))
		if ok != tc.ok || len(f) != tc.keys {
			t.Errorf("frontMatter(%q) = %v %v, want %d keys %v", tc.in, f, ok, tc.keys, tc.ok)
		}
	}
}

func TestCheckMarkdownAlternate(t *testing.T) {
	runVerdictCases(t, "markdown_alternate_advertised", []verdictCase{
		{name: "header and head", site: ready(), verdict: Pass},
		{name: "head only", site: ready(func(s *testSite) {
			s.edit("/", func(d *doc) { d.header.Del("Link") })
			s.edit("/pricing", func(d *doc) { d.header.Del("Link") })
		}), verdict: Partial, fraction: 0.5},
		{name: "header only", site: ready(editBody("/", `<link rel="alternate" type="text/markdown" href="{{origin}}/index.md">`, ""), editBody("/pricing", `<link rel="alternate" type="text/markdown" href="{{origin}}/pricing.md">`, "")), verdict: Partial, fraction: 0.5},
		{name: "none", site: bare(), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckBrowserGetsHTML(t *testing.T) {
	starMarkdown := func(s *testSite) {
		s.set("/sitemap.xml", nil)
		s.set("/", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Accept") == "*/*" {
				w.Header().Set("Content-Type", "text/markdown")
				return
			}
			w.Header().Set("Content-Type", "text/html")
		}})
	}
	runVerdictCases(t, "browser_gets_html", []verdictCase{
		{name: "HTML for both", site: ready(), verdict: Pass},
		{name: "*/* gets markdown", site: ready(starMarkdown), verdict: Partial, fraction: 0.5},
		{name: "markdown for everyone", site: ready(markdownAlways, without("/sitemap.xml")), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func FuzzFrontMatter(f *testing.F) {
	f.Add([]byte("---\ntitle: x\ncanonical: https://a.test/\n---\n# x"))
	f.Fuzz(func(t *testing.T, b []byte) { frontMatter(b) })
}

func TestCheckHumanHandoff(t *testing.T) {
	runVerdictCases(t, "human_handoff", []verdictCase{
		{name: "everything", site: ready(), verdict: Pass},
		{name: "mailto link", site: bare(replace("/", htmlDoc(`<html><body><a href="mailto:a@b.test">mail</a></body></html>`))), verdict: Pass},
		{name: "contact page link", site: bare(replace("/", htmlDoc(`<html><body><a href="/contact-us">Contact</a></body></html>`))), verdict: Pass},
		{name: "JSON-LD contactPoint", site: bare(replace("/", htmlDoc(`<html><head><script type="application/ld+json">{"@type":"Organization","contactPoint":{"@type":"ContactPoint","telephone":"+1"}}</script></head></html>`))), verdict: Pass},
		{name: "llms.txt contact line", site: bare(replace("/llms.txt", &doc{ctype: "text/plain", body: "# A\n\nContact: support@a.test\n"})), verdict: Pass},
		{name: "nobody", site: bare(), verdict: Fail},
		{name: "everything 500", site: bare(serverError("/"), func(s *testSite) { s.fallback = &doc{status: 500} }), verdict: CouldNotCheck},
	})
}

func TestCheckAccessPolicy(t *testing.T) {
	runVerdictCases(t, "access_policy_declared", []verdictCase{
		{name: "authentication and policy", site: ready(), verdict: Pass},
		{name: "authentication none plus robots Content-Signal", site: bare(card(`{"authentication":{"type":"none"}}`), replace("/robots.txt", &doc{ctype: "text/plain", body: "User-agent: *\nContent-Signal: search=yes, ai-train=no\n"})), verdict: Pass},
		{name: "policy line in llms.txt only", site: bare(replace("/llms.txt", &doc{ctype: "text/plain", body: "# A\n\nOur usage policy: answers yes, training no.\n"})), verdict: Partial, fraction: 0.5},
		{name: "authentication only", site: bare(card(`{"authentication":{"type":"none"}}`)), verdict: Partial, fraction: 0.5},
		{name: "an empty authentication object states nothing", site: bare(card(`{"authentication":{}}`)), verdict: Fail},
		{name: "nothing", site: bare(), verdict: Fail},
		{name: "all sources 500", site: bare(serverError("/", "/agents.json", "/.well-known/agents.json", "/llms.txt")), verdict: CouldNotCheck},
	})
}

func TestCheckSecurityContact(t *testing.T) {
	sec := func(body string) func(s *testSite) {
		return replace("/.well-known/security.txt", &doc{ctype: "text/plain", body: body})
	}
	runVerdictCases(t, "security_contact", []verdictCase{
		{name: "contact and future expiry", site: ready(), verdict: Pass},
		{name: "expired", site: ready(sec("Contact: mailto:s@a.test\nExpires: 2020-01-01T00:00:00Z\n")), verdict: Partial, fraction: 0.5},
		{name: "no expiry", site: ready(sec("Contact: https://a.test/security\n")), verdict: Partial, fraction: 0.5},
		{name: "bad date, no contact", site: ready(sec("Expires: next year\n")), verdict: Fail},
		{name: "404", site: bare(), verdict: Fail},
		{name: "500", site: ready(serverError("/.well-known/security.txt")), verdict: CouldNotCheck},
	})
}

func FuzzSecurityTxt(f *testing.F) {
	f.Add([]byte("Contact: mailto:a@b.test\nExpires: 2030-01-01T00:00:00Z\n"))
	f.Fuzz(func(t *testing.T, b []byte) { parseSecurityTxt(b) })
}

// page builds an HTML page document.
func htmlDoc(html string) *doc { return &doc{ctype: "text/html; charset=utf-8", body: html} }

func TestCheckLanguageDeclared(t *testing.T) {
	runVerdictCases(t, "language_declared", []verdictCase{
		{name: "en and en-GB", site: ready(), verdict: Pass},
		{name: "one route lacks lang", site: ready(editBody("/pricing", `<html lang="en-GB">`, `<html>`)), verdict: Partial, fraction: 0.5},
		{name: "malformed tag", site: ready(editBody("/", `<html lang="en">`, `<html lang="english_US!">`), editBody("/pricing", `<html lang="en-GB">`, `<html lang="">`)), verdict: Fail},
		{name: "bare", site: bare(), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestBCP47(t *testing.T) {
	for tag, ok := range map[string]bool{"en": true, "en-GB": true, "zh-Hant-TW": true, "sr-Latn-RS": true, "de-CH-1996": true, "x-private": true, "es-419": true,
		"": false, "english": true, "en_US": false, "e": false, "en-": false, "123": false} {
		if bcp47.MatchString(tag) != ok {
			t.Errorf("bcp47(%q) = %v, want %v", tag, !ok, ok)
		}
	}
}

func TestCheckCanonicalDeclared(t *testing.T) {
	runVerdictCases(t, "canonical_declared", []verdictCase{
		{name: "absolute on origin", site: ready(), verdict: Pass},
		{name: "Link header", site: bare(replace("/", &doc{ctype: "text/html", header: map[string][]string{"Link": {`<{{origin}}/>; rel="canonical"`}}, body: "<html></html>"})), verdict: Pass},
		{name: "relative", site: ready(editBody("/", `<link rel="canonical" href="{{origin}}/">`, `<link rel="canonical" href="/">`), editBody("/pricing", `href="{{origin}}/pricing"`, `href="/pricing"`)), verdict: Partial, fraction: 0.5},
		{name: "foreign", site: ready(editBody("/", `<link rel="canonical" href="{{origin}}/">`, `<link rel="canonical" href="https://elsewhere.test/">`)), verdict: Partial, fraction: 0.5},
		{name: "missing", site: bare(), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckStructuredIdentity(t *testing.T) {
	ld := func(json string) *doc {
		return htmlDoc(`<html lang="en"><head><script type="application/ld+json">` + json + `</script></head><body></body></html>`)
	}
	runVerdictCases(t, "structured_identity", []verdictCase{
		{name: "organization in a graph", site: ready(), verdict: Pass},
		{name: "person", site: bare(replace("/", ld(`{"@type":"Person","name":"Ada","url":"https://ada.test/"}`))), verdict: Pass},
		{name: "identity without url", site: bare(replace("/", ld(`{"@type":"Organization","name":"Acme"}`))), verdict: Partial, fraction: 0.5},
		{name: "no identity node", site: bare(replace("/", ld(`{"@type":"BreadcrumbList","itemListElement":[]}`))), verdict: Partial, fraction: 0.25},
		{name: "identity plus a broken block", site: ready(editBody("/pricing", `</head>`, `<script type="application/ld+json">{broken</script></head>`)), verdict: Partial, fraction: 0.75},
		{name: "only broken blocks", site: bare(replace("/", ld(`{"@type":`))), verdict: Fail},
		{name: "no JSON-LD", site: bare(), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckStructuredFreshness(t *testing.T) {
	ld := func(json string) *doc {
		return htmlDoc(`<html><head><script type="application/ld+json">` + json + `</script></head></html>`)
	}
	runVerdictCases(t, "structured_freshness", []verdictCase{
		{name: "dated content nodes", site: ready(), verdict: Pass},
		{name: "organization alone is not asked (rule 8)", site: bare(replace("/", ld(`{"@type":"Organization","name":"A","url":"https://a.test"}`))), verdict: NotApplicable},
		{name: "one of two dated", site: bare(replace("/", ld(`[{"@type":"Article","dateModified":"2026-01-01"},{"@type":"WebPage"}]`))), verdict: Partial, fraction: 0.5},
		{name: "undated article", site: bare(replace("/", ld(`{"@type":"https://schema.org/BlogPosting","headline":"x"}`))), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}
