package mcpprobe

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Credentials are never recorded (STANDARD §4): secret-looking JSON members,
// bearer tokens and secret query parameters are replaced before anything
// reaches the receipt.
var (
	secretMember = regexp.MustCompile(`(?i)("(?:access_token|refresh_token|id_token|token|client_secret|secret|password|passwd|api[_-]?key|apikey|authorization|cookie|set-cookie|session[_-]?id|mcp-session-id|code_verifier|credentials?|private_key)"\s*:\s*)"(?:[^"\\]|\\.)*"`)
	// cutSecret is a secret member whose value the read cap cut off.
	cutSecret   = regexp.MustCompile(`(?i)("(?:access_token|refresh_token|id_token|token|client_secret|secret|password|passwd|api[_-]?key|apikey|authorization|cookie|set-cookie|session[_-]?id|mcp-session-id|code_verifier|credentials?|private_key)"\s*:\s*)"(?:[^"\\]|\\.)*\\?$`)
	credential  = regexp.MustCompile(`(?i)\b(bearer|basic)\s+([A-Za-z0-9\-._~+/]+=*)`)
	secretQuery = regexp.MustCompile(`(?i)([?&;](?:access_token|id_token|refresh_token|token|api[_-]?key|apikey|key|code|secret|client_secret|signature|sig|password|session)=)[^&;\s"'#]*`)
)

// redacted is what a secret becomes.
const redacted = "[redacted]"

// redact removes credentials from s.
func redact(s string) string {
	s = secretMember.ReplaceAllString(s, `$1"`+redacted+`"`)
	s = cutSecret.ReplaceAllString(s, `$1"`+redacted)
	s = redactCredentials(s)
	return secretQuery.ReplaceAllString(s, "$1"+redacted)
}

// redactCredentials replaces the token68 after "Bearer"/"Basic" (RFC 9110
// §11.4, RFC 6750 §2.1), but not an auth-param of a challenge such as
// `Bearer resource_metadata="…"` (RFC 9110 §11.2), which is no secret.
func redactCredentials(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range credential.FindAllStringSubmatchIndex(s, -1) {
		tok := s[m[4]:m[5]]
		next := byte(0)
		if m[1] < len(s) {
			next = s[m[1]]
		}
		if strings.HasSuffix(tok, "=") && next != 0 && next != ',' && next != ' ' && next != '\t' {
			continue // name=value: an auth-param, not a credential
		}
		b.WriteString(s[last:m[4]])
		b.WriteString(redacted)
		last = m[5]
	}
	b.WriteString(s[last:])
	return b.String()
}

// excerpt redacts b, then keeps at most n bytes cut on a rune boundary.
// Redaction comes first so a secret cut in half is still recognised.
func excerpt(b []byte, n int) string {
	s := redact(strings.ToValidUTF8(string(b), "\uFFFD"))
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
