package selfcheck

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

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
