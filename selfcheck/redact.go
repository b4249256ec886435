package selfcheck

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// redacted replaces every credential a receipt would otherwise record.
const redacted = "[REDACTED]"

// credentialHeaders are header names that always carry credentials.
var credentialHeaders = map[string]bool{
	"authorization":       true,
	"proxy-authorization": true,
	"cookie":              true,
	"set-cookie":          true,
	"x-api-key":           true,
	"api-key":             true,
	"apikey":              true,
	"x-auth-token":        true,
	"x-csrf-token":        true,
	"mcp-session-id":      true,
}

// credentialWords mark a header or query parameter as credential-like when
// they appear anywhere in its lower-cased name.
var credentialWords = []string{"token", "secret", "password", "passwd", "api-key", "api_key", "apikey", "signature", "credential", "session"}

// credentialParams are query parameters that carry credentials by name
// (OAuth 2.0 RFC 6749 §4.1.2 `code`, signed URLs' `sig`, `key`…).
var credentialParams = map[string]bool{
	"token": true, "access_token": true, "refresh_token": true, "id_token": true,
	"key": true, "api_key": true, "apikey": true, "sig": true, "signature": true,
	"code": true, "password": true, "pass": true, "pwd": true, "secret": true,
	"client_secret": true, "auth": true, "jwt": true, "x-amz-signature": true,
	"x-amz-credential": true, "x-goog-signature": true, "x-goog-credential": true,
}

// credentialNameWords mark a header as a credential when one of the words
// of its name (split at '-' and '_') is one of them: X-Auth-Token,
// X-Client-Secret, X-Session-Id. Whole words, not substrings, so that a
// header about credentials is not taken for one: X-Markdown-Tokens is a
// count, Access-Control-Allow-Credentials a boolean.
var credentialNameWords = map[string]bool{
	"token": true, "secret": true, "password": true, "passwd": true,
	"apikey": true, "signature": true, "credential": true, "session": true,
	"sessionid": true, "jwt": true, "csrf": true, "xsrf": true,
}

// metadataHeaders carry names or counts of credentials, never one: CORS
// lists header names (Fetch §3.2.3), WebSocket keys are per-handshake
// nonces (RFC 6455 §4.2.2), X-Markdown-Tokens counts tokens of text.
var metadataHeaders = map[string]bool{
	"access-control-allow-credentials": true,
	"access-control-allow-headers":     true,
	"access-control-expose-headers":    true,
	"access-control-request-headers":   true,
	"sec-websocket-key":                true,
	"sec-websocket-accept":             true,
	"x-markdown-tokens":                true,
}

// isCredentialHeader reports whether a header named name must be redacted;
// extra lists further names (Options.Redact).
func isCredentialHeader(name string, extra []string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, e := range extra {
		if strings.EqualFold(e, n) {
			return true
		}
	}
	if credentialHeaders[n] {
		return true
	}
	if metadataHeaders[n] {
		return false
	}
	words := strings.FieldsFunc(n, func(r rune) bool { return r == '-' || r == '_' })
	for i, w := range words {
		if credentialNameWords[w] || w == "key" && i > 0 && (words[i-1] == "api" || words[i-1] == "access" || words[i-1] == "secret") {
			return true
		}
	}
	return false
}

// isCredentialParam reports whether a query parameter must be redacted.
func isCredentialParam(name string) bool {
	n := strings.ToLower(name)
	if credentialParams[n] {
		return true
	}
	for _, w := range credentialWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// redactHeaderValue returns value, or the redaction marker when the header
// carries credentials.
func redactHeaderValue(name, value string, extra []string) string {
	if isCredentialHeader(name, extra) {
		return redacted
	}
	return redactText(value)
}

// redactURL removes user information and token-like query parameters from a
// URL. A string that does not parse is returned with its query dropped.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.IndexAny(raw, "?#"); i >= 0 {
			return raw[:i] + "?" + redacted
		}
		return raw
	}
	if u.User != nil {
		// RFC 3986 §3.2.1: user information may hold a password; never keep it.
		u.User = url.User("REDACTED")
	}
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			name, _, _ := strings.Cut(p, "=")
			if dec, err := url.QueryUnescape(name); err == nil {
				name = dec
			}
			if isCredentialParam(name) {
				parts[i] = url.QueryEscape(name) + "=" + redacted
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	return u.String()
}

// itoa is strconv.Itoa, named short for the renderers.
func itoa(i int) string { return strconv.Itoa(i) }

// Credentials inside free text (body excerpts, error messages): token-like
// query parameters, JSON members and bearer tokens.
var (
	textParamRe  = regexp.MustCompile(`(?i)\b([a-z0-9_.-]*(?:token|secret|password|passwd|signature|credential|session|api_key|apikey|api-key)[a-z0-9_.-]*|code|key|sig|pass|pwd|auth|jwt)=([^&\s"'<>]+)`)
	textJSONRe   = regexp.MustCompile(`(?i)("[a-z0-9_.-]*(?:token|secret|password|passwd|signature|credential|api_key|apikey|api-key)[a-z0-9_.-]*"\s*:\s*)"[^"]*"`)
	textBearerRe = regexp.MustCompile(`(?i)\b(bearer|basic)\s+[a-z0-9._~+/=-]+`)
)

// redactText removes credentials from free text.
func redactText(s string) string {
	s = textParamRe.ReplaceAllString(s, "$1="+redacted)
	s = textJSONRe.ReplaceAllString(s, `$1"`+redacted+`"`)
	return textBearerRe.ReplaceAllString(s, "$1 "+redacted)
}
