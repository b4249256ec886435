package connect

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	testIssuer   = "https://auth.shop.example"
	testAudience = testOrigin + "/mcp"
	testPRM      = testOrigin + "/.well-known/oauth-protected-resource"
)

// authServer is a local authorization server publishing a JWKS.
type authServer struct {
	ts      *httptest.Server
	keys    atomic.Pointer[jose.JSONWebKeySet]
	signer  jose.Signer
	kid     string
	fetches atomic.Int64
}

func newAuthServer(t *testing.T) *authServer {
	t.Helper()
	a := &authServer{}
	a.rotate(t, "key-1")
	a.ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.fetches.Add(1)
		w.Header().Set("Content-Type", "application/jwk-set+json")
		json.NewEncoder(w).Encode(a.keys.Load())
	}))
	t.Cleanup(a.ts.Close)
	return a
}

// rotate replaces the signing key with a new RSA key named kid.
func (a *authServer) rotate(t *testing.T, kid string) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("at+jwt"))
	if err != nil {
		t.Fatal(err)
	}
	a.signer, a.kid = signer, kid
	a.keys.Store(&jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: kid, Algorithm: "RS256", Use: "sig"}}})
}

// tokenSpec describes a token to mint.
type tokenSpec struct {
	issuer, audience, scope string
	expires                 time.Duration // from now; 0 = no exp claim
	signer                  jose.Signer   // default: the server's key
}

func (a *authServer) token(t *testing.T, spec tokenSpec) string {
	t.Helper()
	now := time.Now()
	claims := jwt.Claims{
		Issuer: cmpOr(spec.issuer, testIssuer), Audience: jwt.Audience{cmpOr(spec.audience, testAudience)},
		Subject: "user-42", IssuedAt: jwt.NewNumericDate(now.Add(-time.Minute)),
	}
	if spec.expires != 0 {
		claims.Expiry = jwt.NewNumericDate(now.Add(spec.expires))
	}
	signer := spec.signer
	if signer == nil {
		signer = a.signer
	}
	tok, err := jwt.Signed(signer).Claims(claims).Claims(map[string]any{"scope": spec.scope, "client_id": "agent"}).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func newAuthTestServer(t *testing.T, a *authServer) *httptest.Server {
	t.Helper()
	_, ts := newTestServer(t, Options{Auth: &OAuth{
		Issuer: testIssuer, JWKSURL: a.ts.URL, Audience: testAudience, ResourceMetadataURL: testPRM,
		Scopes: map[string][]string{"*": {"content:read"}, toolGet: {"pages:read"}},
	}}, nil)
	return ts
}

func TestOAuthHTTP(t *testing.T) {
	a := newAuthServer(t)
	ts := newAuthTestServer(t, a)
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	stranger, _ := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: ecKey, KeyID: "key-1"}}, nil)
	hmac, _ := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: []byte("0123456789abcdef0123456789abcdef")}, nil)
	callGet := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_page","arguments":{"url":"/about"}}}`

	tests := []struct {
		name       string
		auth       string
		body       string
		wantStatus int
		wantError  string // the error parameter of WWW-Authenticate
	}{
		{name: "no token", body: initializeBody, wantStatus: 401},
		{name: "not bearer", auth: "Basic dXNlcjpwYXNz", body: initializeBody, wantStatus: 401},
		{name: "valid", auth: a.token(t, tokenSpec{scope: "content:read", expires: time.Hour}), body: initializeBody, wantStatus: 200},
		{name: "expired", auth: a.token(t, tokenSpec{scope: "content:read", expires: -time.Hour}), body: initializeBody, wantStatus: 401, wantError: "invalid_token"},
		{name: "no expiry", auth: a.token(t, tokenSpec{scope: "content:read"}), body: initializeBody, wantStatus: 401, wantError: "invalid_token"},
		{name: "wrong audience", auth: a.token(t, tokenSpec{scope: "content:read", expires: time.Hour, audience: "https://other.example/mcp"}), body: initializeBody, wantStatus: 401, wantError: "invalid_token"},
		{name: "wrong issuer", auth: a.token(t, tokenSpec{scope: "content:read", expires: time.Hour, issuer: "https://evil.example"}), body: initializeBody, wantStatus: 401, wantError: "invalid_token"},
		{name: "foreign key", auth: a.token(t, tokenSpec{scope: "content:read", expires: time.Hour, signer: stranger}), body: initializeBody, wantStatus: 401, wantError: "invalid_token"},
		{name: "shared-secret algorithm", auth: a.token(t, tokenSpec{scope: "content:read", expires: time.Hour, signer: hmac}), body: initializeBody, wantStatus: 401, wantError: "invalid_token"},
		{name: "garbage", auth: "not.a.jwt", body: initializeBody, wantStatus: 401, wantError: "invalid_token"},
		{name: "missing global scope", auth: a.token(t, tokenSpec{scope: "pages:read", expires: time.Hour}), body: initializeBody, wantStatus: 403, wantError: "insufficient_scope"},
		{name: "missing tool scope", auth: a.token(t, tokenSpec{scope: "content:read", expires: time.Hour}), body: callGet, wantStatus: 403, wantError: "insufficient_scope"},
		{name: "missing tool scope inside a batch", auth: a.token(t, tokenSpec{scope: "content:read", expires: time.Hour}),
			body: `[{"jsonrpc":"2.0","id":1,"method":"ping"},` + callGet + `]`, wantStatus: 403, wantError: "insufficient_scope"},
		{name: "tool scope present", auth: a.token(t, tokenSpec{scope: "content:read pages:read", expires: time.Hour}), body: callGet, wantStatus: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			if tt.auth != "" {
				if !strings.Contains(tt.auth, " ") {
					tt.auth = "Bearer " + tt.auth
				}
				h.Set("Authorization", tt.auth)
			}
			resp, body := postMCP(t, ts.URL, tt.body, h)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.wantStatus, body)
			}
			if tt.wantStatus == 200 {
				return
			}
			challenge := resp.Header.Get("WWW-Authenticate")
			if !strings.HasPrefix(challenge, `Bearer resource_metadata="`+testPRM+`"`) {
				t.Errorf("WWW-Authenticate = %q", challenge)
			}
			if tt.wantError != "" && !strings.Contains(challenge, `error="`+tt.wantError+`"`) {
				t.Errorf("WWW-Authenticate = %q, want error %s", challenge, tt.wantError)
			}
			if tt.wantError == "" && strings.Contains(challenge, "error=") {
				t.Errorf("WWW-Authenticate = %q carries an error code without credentials", challenge)
			}
			if tt.wantStatus == 403 && !strings.Contains(challenge, `scope="content:read`) {
				t.Errorf("WWW-Authenticate = %q does not name the scopes", challenge)
			}
		})
	}
}

func TestOAuthAsk(t *testing.T) {
	a := newAuthServer(t)
	ts := newAuthTestServer(t, a)
	resp, err := http.Get(ts.URL + DefaultAskPath + "?query=kiln")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("anonymous /ask = %d, want 401", resp.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodGet, ts.URL+DefaultAskPath+"?query=kiln", nil)
	req.Header.Set("Authorization", "Bearer "+a.token(t, tokenSpec{scope: "content:read", expires: time.Hour}))
	if resp, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/ask with a token = %d, want 200", resp.StatusCode)
	}
}

// bearerTransport adds a bearer token to every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestOAuthSDKClient drives the protected server with the SDK client: the
// token reaches the tool handlers, and a tool whose scope the token lacks is
// refused before the call runs.
func TestOAuthSDKClient(t *testing.T) {
	a := newAuthServer(t)
	ts := newAuthTestServer(t, a)
	tok := a.token(t, tokenSpec{scope: "content:read", expires: time.Hour})
	cs := connectClient(t, ts, &http.Client{Transport: bearerTransport{tok}})
	var out searchOutput
	if res := callTool(t, cs, toolSearch, map[string]any{"query": "kiln"}, &out); res.IsError || len(out.Results) == 0 {
		t.Fatalf("search_site with a token: %+v", res)
	}
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: toolGet, Arguments: map[string]any{"url": "/about"}})
	if err == nil {
		t.Fatal("get_page without pages:read succeeded")
	}
}

func TestToolAllowedInsideSession(t *testing.T) {
	a := newAuthServer(t)
	s, err := New(Options{Origin: testOrigin, Auth: &OAuth{
		Issuer: testIssuer, JWKSURL: a.ts.URL, Audience: testAudience, ResourceMetadataURL: testPRM,
		Scopes: map[string][]string{toolGet: {"pages:read"}},
	}}, newFakeSource(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	info, err := s.tokens.verify(context.Background(), a.token(t, tokenSpec{scope: "other", expires: time.Hour}))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.toolAllowed(&mcp.RequestExtra{TokenInfo: info}, toolGet); err == nil || !strings.Contains(err.Error(), "insufficient_scope") {
		t.Errorf("toolAllowed = %v, want insufficient_scope", err)
	}
	if err := s.toolAllowed(&mcp.RequestExtra{TokenInfo: info}, toolSearch); err != nil {
		t.Errorf("search_site needs no scope: %v", err)
	}
	if err := s.toolAllowed(nil, toolGet); err == nil {
		t.Error("no token passed")
	}
}

func TestJWKSRotation(t *testing.T) {
	a := newAuthServer(t)
	v := newVerifier(&OAuth{Issuer: testIssuer, JWKSURL: a.ts.URL, Audience: testAudience})
	clock := &fakeClock{t: time.Now()}
	v.keys.now = clock.now
	ctx := context.Background()
	if _, err := v.verify(ctx, a.token(t, tokenSpec{expires: time.Hour})); err != nil {
		t.Fatal(err)
	}
	if _, err := v.verify(ctx, a.token(t, tokenSpec{expires: time.Hour})); err != nil || a.fetches.Load() != 1 {
		t.Fatalf("second token: %v, %d fetches; want the cached set", err, a.fetches.Load())
	}
	a.rotate(t, "key-2")
	// A new kid refetches at most every jwksMinRefetch.
	if _, err := v.verify(ctx, a.token(t, tokenSpec{expires: time.Hour})); err == nil {
		t.Fatal("accepted a key fetched too soon after the last fetch")
	}
	clock.t = clock.t.Add(jwksMinRefetch)
	if _, err := v.verify(ctx, a.token(t, tokenSpec{expires: time.Hour})); err != nil {
		t.Fatalf("after rotation: %v", err)
	}
	if a.fetches.Load() != 2 {
		t.Errorf("%d fetches, want 2", a.fetches.Load())
	}
}
