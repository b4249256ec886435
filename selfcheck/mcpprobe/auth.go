package mcpprobe

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// challengeParam returns the value of auth-param name in the first challenge
// that carries it (RFC 9110 §11.6.1: challenges and auth-params, with
// quoted-string values), across all WWW-Authenticate field lines.
func challengeParam(values []string, name string) string {
	for _, v := range values {
		for _, p := range authParams(v) {
			if strings.EqualFold(p[0], name) {
				return p[1]
			}
		}
	}
	return ""
}

// authParams lists the name=value pairs of a WWW-Authenticate field value.
// Scheme names and token68 values (no "=" follows) are skipped.
func authParams(s string) [][2]string {
	var out [][2]string
	for i := 0; i < len(s) && len(out) < 64; {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == ',') {
			i++
		}
		start := i
		for i < len(s) && s[i] != '=' && s[i] != ' ' && s[i] != '\t' && s[i] != ',' {
			i++
		}
		name := s[start:i]
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j >= len(s) || s[j] != '=' || name == "" {
			if i == start {
				i++
			}
			continue
		}
		i = j + 1
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		var val strings.Builder
		if i < len(s) && s[i] == '"' {
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				val.WriteByte(s[i])
			}
			i++
		} else {
			for i < len(s) && s[i] != ',' && s[i] != ' ' && s[i] != '\t' {
				val.WriteByte(s[i])
				i++
			}
		}
		// token68 padding ("abc==") looks like name "abc" with an empty
		// value; such pairs are harmless here.
		out = append(out, [2]string{name, val.String()})
	}
	return out
}

// wellKnownURLs inserts a well-known suffix between the host and the path of
// u, as RFC 8414 §3.1 and RFC 9728 §3.1 do, falling back to the root form
// when u has a path (the MCP authorization spec's fallback).
func wellKnownURLs(u *url.URL, suffix string) []string {
	base := url.URL{Scheme: u.Scheme, Host: u.Host}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	root := base.String() + "/.well-known/" + suffix
	if path == "" {
		return []string{root}
	}
	return []string{root + path, root}
}

// discoverAuth follows a 401/403 challenge to the sign-in metadata: the
// protected-resource metadata (RFC 9728; the challenge's resource_metadata,
// else the well-known URLs of the endpoint), then the authorization server's
// metadata (RFC 8414, then OpenID Connect Discovery 1.0 §4).
func (p *prober) discoverAuth(challenge []string) {
	a := &p.res.Auth
	a.Mode = AuthUnknown
	var prmURLs []string
	// RFC 9728 §5.1: the resource_metadata auth-param names the document.
	if rm := challengeParam(challenge, "resource_metadata"); rm != "" {
		if u, err := p.endpoint.Parse(rm); err == nil && isHTTP(u) {
			prmURLs = append(prmURLs, u.String())
		}
	}
	prmURLs = append(prmURLs, wellKnownURLs(p.endpoint, "oauth-protected-resource")...)
	var issuer string
	for _, u := range dedupe(prmURLs) {
		doc, ok := p.getJSON("oauth-protected-resource", u)
		if !ok {
			continue
		}
		a.ResourceMetadataURL = p.recordURL(u)
		// RFC 9728 §2: authorization_servers lists issuer identifiers.
		var servers []string
		_ = json.Unmarshal(doc["authorization_servers"], &servers)
		if len(servers) > 0 {
			issuer = servers[0]
		}
		break
	}
	if issuer == "" {
		// MCP 2025-03-26: without protected-resource metadata the
		// authorization base URL is the endpoint with its path removed.
		issuer = (&url.URL{Scheme: p.endpoint.Scheme, Host: p.endpoint.Host}).String()
	}
	iss, err := p.endpoint.Parse(issuer)
	if err != nil || !isHTTP(iss) {
		p.fail("authorization server %q is not an http(s) url", issuer)
		return
	}
	a.AuthorizationServer = p.recordURL(iss.String())
	candidates := wellKnownURLs(iss, "oauth-authorization-server")
	candidates = append(candidates, wellKnownURLs(iss, "openid-configuration")...)
	candidates = append(candidates, strings.TrimSuffix(iss.String(), "/")+"/.well-known/openid-configuration")
	for _, u := range dedupe(candidates) {
		doc, ok := p.getJSON("authorization-server-metadata", u)
		if !ok || (doc["issuer"] == nil && doc["authorization_endpoint"] == nil && doc["token_endpoint"] == nil) {
			continue
		}
		a.OAuthMetadata, a.MetadataURL = true, p.recordURL(u)
		_ = json.Unmarshal(doc["code_challenge_methods_supported"], &a.PKCE)
		var reg string
		_ = json.Unmarshal(doc["registration_endpoint"], &reg)
		a.DynamicRegistration = reg != ""
		break
	}
	if a.OAuthMetadata || a.ResourceMetadataURL != "" {
		a.Mode = AuthOAuth
	}
}

// getJSON GETs a metadata document and decodes it as a JSON object.
func (p *prober) getJSON(what, u string) (map[string]json.RawMessage, bool) {
	if p.ctx.Err() != nil {
		return nil, false
	}
	ex := Exchange{Method: what, Request: "GET " + p.recordURL(u)}
	defer func() { p.res.Exchanges = append(p.res.Exchanges, ex) }()
	req, err := http.NewRequestWithContext(p.ctx, http.MethodGet, u, nil)
	if err != nil {
		ex.Error = err.Error()
		return nil, false
	}
	req.Header.Set("Accept", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		ex.Error = redact(err.Error())
		return nil, false
	}
	defer resp.Body.Close()
	ex.Status, ex.ContentType = resp.StatusCode, resp.Header.Get("Content-Type")
	body, err := io.ReadAll(io.LimitReader(resp.Body, p.opts.MaxBodyBytes+1))
	ex.Excerpt = excerpt(body, p.opts.ExcerptBytes)
	switch {
	case err != nil:
		ex.Error = "reading body: " + err.Error()
	case int64(len(body)) > p.opts.MaxBodyBytes:
		ex.Error = errTooLarge.Error()
	case resp.StatusCode != http.StatusOK:
	default:
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(body, &doc); err != nil {
			ex.Error = "decoding metadata: " + err.Error()
			return nil, false
		}
		return doc, true
	}
	return nil, false
}

func isHTTP(u *url.URL) bool { return (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" }

func dedupe(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
