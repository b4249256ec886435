package connect

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// clockLeeway tolerates clock drift between this server and the issuer when
// checking exp, nbf and iat.
const clockLeeway = 30 * time.Second

// signingAlgorithms are the JWS algorithms accepted for access tokens:
// asymmetric only (RFC 9068 §4 requires a key the resource server can fetch;
// shared-secret HS* and "none" are refused).
var signingAlgorithms = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512, jose.EdDSA,
}

// verifier checks JWT access tokens against the issuer's key set.
type verifier struct {
	cfg  *OAuth
	keys *jwksCache
	now  func() time.Time
}

func newVerifier(cfg *OAuth) *verifier {
	return &verifier{cfg: cfg, keys: newJWKSCache(cfg.JWKSURL, cfg.HTTPClient), now: time.Now}
}

// accessClaims are the RFC 9068 §2.2 claims read beyond the registered ones.
type accessClaims struct {
	Scope    string   `json:"scope"` // RFC 8693 §4.2: space-separated
	Scp      []string `json:"scp"`   // the array form some servers send
	ClientID string   `json:"client_id"`
}

// verify checks signature, issuer, audience and lifetime, and returns the
// token's scopes and subject. Every failure wraps auth.ErrInvalidToken.
func (v *verifier) verify(ctx context.Context, raw string) (*auth.TokenInfo, error) {
	tok, err := jwt.ParseSigned(raw, signingAlgorithms)
	if err != nil {
		return nil, invalidToken("malformed token")
	}
	if len(tok.Headers) != 1 {
		return nil, invalidToken("token must carry one signature")
	}
	// RFC 9068 §4: the type is at+jwt; plain JWT or no type is accepted, as
	// many authorization servers send, but an ID token's type is not.
	if typ, _ := tok.Headers[0].ExtraHeaders[jose.HeaderType].(string); typ != "" &&
		!slices.Contains([]string{"at+jwt", "application/at+jwt", "jwt"}, strings.ToLower(typ)) {
		return nil, invalidToken("token type " + typ + " is not an access token")
	}
	keys, err := v.keys.keys(ctx, tok.Headers[0].KeyID)
	if err != nil {
		return nil, invalidToken(err.Error())
	}
	var std jwt.Claims
	var extra accessClaims
	verified := false
	for _, k := range keys {
		if tok.Claims(k.Key, &std, &extra) == nil {
			verified = true
			break
		}
	}
	if !verified {
		return nil, invalidToken("signature does not verify")
	}
	if std.Expiry == nil {
		return nil, invalidToken("token has no expiry")
	}
	err = std.ValidateWithLeeway(jwt.Expected{
		Issuer: v.cfg.Issuer, AnyAudience: jwt.Audience{v.cfg.Audience}, Time: v.now(),
	}, clockLeeway)
	if err != nil {
		return nil, invalidToken(err.Error())
	}
	scopes := slices.Concat(strings.Fields(extra.Scope), extra.Scp)
	return &auth.TokenInfo{
		Scopes: scopes, Expiration: std.Expiry.Time().Add(clockLeeway), UserID: std.Subject,
		Extra: map[string]any{"client_id": extra.ClientID},
	}, nil
}

func invalidToken(reason string) error {
	return fmt.Errorf("%w: %s", auth.ErrInvalidToken, reason)
}

// requiredScopes are the scopes a request calling tools needs: the "*"
// entry plus each tool's own, without repeats.
func (s *Server) requiredScopes(tools ...string) []string {
	if s.opts.Auth == nil {
		return nil
	}
	need := slices.Clone(s.opts.Auth.Scopes["*"])
	for _, t := range tools {
		for _, sc := range s.opts.Auth.Scopes[t] {
			if !slices.Contains(need, sc) {
				need = append(need, sc)
			}
		}
	}
	return need
}

// missingScopes returns the scopes of need that info lacks.
func missingScopes(info *auth.TokenInfo, need []string) []string {
	var miss []string
	for _, sc := range need {
		if info == nil || !slices.Contains(info.Scopes, sc) {
			miss = append(miss, sc)
		}
	}
	return miss
}

// toolAllowed re-checks a tool's scopes inside the MCP session (the HTTP
// layer already answered 403 for a tools/call it could read): a missing
// scope is a tool error.
func (s *Server) toolAllowed(extra *mcp.RequestExtra, tool string) error {
	if s.tokens == nil {
		return nil
	}
	var info *auth.TokenInfo
	if extra != nil {
		info = extra.TokenInfo
	}
	if miss := missingScopes(info, s.requiredScopes(tool)); len(miss) > 0 {
		return fmt.Errorf("insufficient_scope: %s needs scope %s", tool, strings.Join(miss, " "))
	}
	return nil
}

type tokenKey struct{}

// verifiedToken returns the token info authenticate stored in ctx.
func verifiedToken(ctx context.Context) *auth.TokenInfo {
	info, _ := ctx.Value(tokenKey{}).(*auth.TokenInfo)
	return info
}

// authenticate verifies the request's bearer token and its scopes for the
// tools the request calls.
// On failure it writes the challenge and returns false: 401 with
// WWW-Authenticate naming the resource metadata (RFC 9728 §5.1, RFC 6750 §3)
// when the token is missing or invalid, 403 insufficient_scope with the
// scopes needed (RFC 6750 §3.1) when it lacks some.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request, tools ...string) (*http.Request, bool) {
	if s.tokens == nil {
		return r, true
	}
	need := s.requiredScopes(tools...)
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		// RFC 6750 §3.1: no error code when the request carried no credentials.
		s.challenge(w, http.StatusUnauthorized, "", "", need)
		return r, false
	}
	info, err := s.tokens.verify(r.Context(), token)
	if err != nil {
		s.log.Debug("connect: token refused", "error", err)
		s.challenge(w, http.StatusUnauthorized, "invalid_token", strings.TrimPrefix(err.Error(), auth.ErrInvalidToken.Error()+": "), need)
		return r, false
	}
	if miss := missingScopes(info, need); len(miss) > 0 {
		s.challenge(w, http.StatusForbidden, "insufficient_scope", "missing scope "+strings.Join(miss, " "), need)
		return r, false
	}
	return r.WithContext(context.WithValue(r.Context(), tokenKey{}, info)), true
}

// challenge writes a Bearer challenge (RFC 6750 §3) with the RFC 9728 §5.1
// resource_metadata parameter and a JSON problem body.
func (s *Server) challenge(w http.ResponseWriter, status int, code, desc string, scopes []string) {
	params := []string{fmt.Sprintf("resource_metadata=%q", s.opts.Auth.ResourceMetadataURL)}
	if code != "" {
		params = append(params, fmt.Sprintf("error=%q", code))
	}
	if desc != "" {
		params = append(params, fmt.Sprintf("error_description=%q", sanitizeQuoted(desc)))
	}
	if len(scopes) > 0 {
		params = append(params, fmt.Sprintf("scope=%q", strings.Join(scopes, " ")))
	}
	w.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(params, ", "))
	title := map[int]string{http.StatusUnauthorized: "unauthorized", http.StatusForbidden: "forbidden"}[status]
	writeProblem(w, status, title, cmp.Or(desc, "a bearer token is required"))
}

// sanitizeQuoted keeps an error description inside RFC 6750 §3's allowed
// characters (%x20-21 / %x23-5B / %x5D-7E).
func sanitizeQuoted(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return ' '
		}
		return r
	}, truncate(s, 200))
}
