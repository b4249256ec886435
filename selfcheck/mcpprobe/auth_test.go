package mcpprobe

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// oauthSite serves an SDK MCP server at /mcp behind a bearer check, plus
// whichever metadata documents docs holds (path → JSON with {{base}}
// replaced by the server's URL). protect decides which JSON-RPC methods
// need the token.
func oauthSite(t *testing.T, challenge string, docs map[string]string, protect func(method string) bool) *httptest.Server {
	t.Helper()
	inner := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newServer(2, 1, nil) },
		&mcp.StreamableHTTPOptions{JSONResponse: true})
	var srv *httptest.Server
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m struct{ Method string }
		_ = json.Unmarshal(body, &m)
		if m.Method != "initialize" && m.Method != "notifications/initialized" && m.Method != "tools/list" && m.Method != "server/discover" && m.Method != "agentready/no-such-method" && r.Method == "POST" {
			t.Errorf("probe sent %q", m.Method)
		}
		if r.Header.Get("Authorization") != "" {
			t.Error("probe sent a credential")
		}
		if protect(m.Method) {
			if challenge != "" {
				w.Header().Set("WWW-Authenticate", strings.ReplaceAll(challenge, "{{base}}", srv.URL))
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":"invalid_token","access_token":"leaked-secret-123"}`)
			return
		}
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		inner.ServeHTTP(w, r)
	})
	for path, doc := range docs {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != path {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, strings.ReplaceAll(doc, "{{base}}", srv.URL))
		})
	}
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

const (
	prmDoc = `{"resource":"{{base}}/mcp","authorization_servers":["{{base}}/auth"]}`
	asDoc  = `{"issuer":"{{base}}/auth","authorization_endpoint":"{{base}}/auth/authorize","token_endpoint":"{{base}}/auth/token",` +
		`"code_challenge_methods_supported":["S256"],"registration_endpoint":"{{base}}/auth/register"}`
)

func all(string) bool { return true }

func TestProbeOAuth(t *testing.T) {
	tests := []struct {
		name       string
		challenge  string
		docs       map[string]string
		protect    func(string) bool
		initialize bool
		mode       string
		prm, as    string // expected metadata paths ("" = none)
		pkce       []string
		dynamicReg bool
	}{
		{"resource_metadata parameter", `Bearer realm="mcp", resource_metadata="{{base}}/meta/prm.json", scope="tools"`,
			map[string]string{"/meta/prm.json": prmDoc, "/.well-known/oauth-authorization-server/auth": asDoc},
			all, false, AuthOAuth, "/meta/prm.json", "/.well-known/oauth-authorization-server/auth", []string{"S256"}, true},
		{"well-known fallback with path", `Bearer realm="mcp"`,
			map[string]string{"/.well-known/oauth-protected-resource/mcp": prmDoc, "/.well-known/oauth-authorization-server/auth": asDoc},
			all, false, AuthOAuth, "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server/auth", []string{"S256"}, true},
		{"root well-known, OpenID Connect only", `Bearer`,
			map[string]string{"/.well-known/oauth-protected-resource": prmDoc,
				"/auth/.well-known/openid-configuration": `{"issuer":"{{base}}/auth","authorization_endpoint":"{{base}}/auth/authorize"}`},
			all, false, AuthOAuth, "/.well-known/oauth-protected-resource", "/auth/.well-known/openid-configuration", nil, false},
		{"2025-03-26 style: metadata at the origin", `Bearer`,
			map[string]string{"/.well-known/oauth-authorization-server": `{"issuer":"{{base}}","code_challenge_methods_supported":["plain","S256"]}`},
			all, false, AuthOAuth, "", "/.well-known/oauth-authorization-server", []string{"plain", "S256"}, false},
		{"no metadata anywhere", ``, nil, all, false, AuthUnknown, "", "", nil, false},
		{"initialize open, tools protected", `Bearer resource_metadata="{{base}}/meta/prm.json"`,
			map[string]string{"/meta/prm.json": prmDoc, "/.well-known/oauth-authorization-server/auth": asDoc},
			func(m string) bool { return m == "tools/list" }, true, AuthOAuth, "/meta/prm.json", "/.well-known/oauth-authorization-server/auth", []string{"S256"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := oauthSite(t, tt.challenge, tt.docs, tt.protect)
			res := Probe(context.Background(), srv.Client(), srv.URL+"/mcp")
			if res.Initialize != tt.initialize || res.ToolsList {
				t.Errorf("initialize = %v, toolsList = %v, err %q", res.Initialize, res.ToolsList, res.Err)
			}
			if !eqIntPtr(res.Tools.ListedWithoutToken, intp(0)) || res.Tools.WithReadOnlyHint != nil || res.Tools.Authenticated != nil {
				t.Errorf("tools = %+v", res.Tools)
			}
			a := res.Auth
			if a.Mode != tt.mode {
				t.Errorf("mode = %q, want %q", a.Mode, tt.mode)
			}
			wantURL := func(p string) string {
				if p == "" {
					return ""
				}
				return srv.URL + p
			}
			if a.ResourceMetadataURL != wantURL(tt.prm) || a.MetadataURL != wantURL(tt.as) || a.OAuthMetadata != (tt.as != "") {
				t.Errorf("metadata = %q / %q (oauth %v), want %q / %q", a.ResourceMetadataURL, a.MetadataURL, a.OAuthMetadata, wantURL(tt.prm), wantURL(tt.as))
			}
			if !slices.Equal(a.PKCE, tt.pkce) || a.DynamicRegistration != tt.dynamicReg {
				t.Errorf("pkce = %v, dynamicRegistration = %v", a.PKCE, a.DynamicRegistration)
			}
			receipt, _ := json.Marshal(res)
			if strings.Contains(string(receipt), "leaked-secret-123") {
				t.Errorf("receipt leaks a credential: %s", receipt)
			}
		})
	}
}

func TestChallengeParam(t *testing.T) {
	tests := []struct {
		values []string
		want   string
	}{
		{[]string{`Bearer resource_metadata="https://a.example/prm"`}, "https://a.example/prm"},
		{[]string{`Basic realm="x", Bearer error="invalid_token", resource_metadata=https://b.example/prm`}, "https://b.example/prm"},
		{[]string{`Bearer realm="a\"b, c"`, `Bearer resource_metadata="https://c.example/p"`}, "https://c.example/p"},
		{[]string{`Negotiate abc==`}, ""},
		{[]string{`Bearer resource_metadata="unterminated`}, "unterminated"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := challengeParam(tt.values, "resource_metadata"); got != tt.want {
			t.Errorf("challengeParam(%q) = %q, want %q", tt.values, got, tt.want)
		}
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ in, out string }{
		{`{"access_token":"abc","x":"y"}`, `{"access_token":"[redacted]","x":"y"}`},
		{`{"client_secret" : "s\"q"}`, `{"client_secret" : "[redacted]"}`},
		{`Authorization: Bearer eyJhbGciOi.x.y`, `Authorization: Bearer [redacted]`},
		{`https://a.example/mcp?api_key=123&x=1`, `https://a.example/mcp?api_key=[redacted]&x=1`},
		{`{"name":"tool_0"}`, `{"name":"tool_0"}`},
	}
	for _, tt := range tests {
		if got := redact(tt.in); got != tt.out {
			t.Errorf("redact(%q) = %q, want %q", tt.in, got, tt.out)
		}
	}
	if got := excerpt([]byte(`{"token":"0123456789"}`), 12); strings.Contains(got, "0123") {
		t.Errorf("excerpt leaks a cut secret: %q", got)
	}
	// A body the read cap cut inside a secret.
	if got := redact(`{"x":1,"client_secret":"abc\`); strings.Contains(got, "abc") {
		t.Errorf("redact leaks a truncated secret: %q", got)
	}
}

func TestRedactKeepsMetadata(t *testing.T) {
	for _, in := range []string{
		`Bearer resource_metadata="https://a.example/prm", scope="x"`,
		`{"authorization_endpoint":"https://a.example/authorize","token_endpoint":"https://a.example/token"}`,
		`Bearer realm="mcp"`,
	} {
		if got := redact(in); got != in {
			t.Errorf("redact(%q) = %q, want it unchanged", in, got)
		}
	}
	if got := redact(`Basic dXNlcjpwYXNz, Bearer abc==`); got != `Basic [redacted], Bearer [redacted]` {
		t.Errorf("credentials kept: %q", got)
	}
}
