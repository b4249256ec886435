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
	secretMember = regexp.MustCompile(`(?i)("[^"\\]*(?:token|secret|password|passwd|api[_-]?key|authorization|cookie|credential|session[_-]?id|code_verifier)[^"\\]*"\s*:\s*)"(?:[^"\\]|\\.)*"`)
	bearer       = regexp.MustCompile(`(?i)\b(bearer|basic)\s+[A-Za-z0-9\-._~+/]+=*`)
	secretQuery  = regexp.MustCompile(`(?i)([?&;](?:access_token|id_token|refresh_token|token|api[_-]?key|apikey|key|code|secret|client_secret|signature|sig|password|session)=)[^&;\s"'#]*`)
)

// redacted is what a secret becomes.
const redacted = "[redacted]"

// redact removes credentials from s.
func redact(s string) string {
	s = secretMember.ReplaceAllString(s, `$1"`+redacted+`"`)
	s = bearer.ReplaceAllString(s, "$1 "+redacted)
	return secretQuery.ReplaceAllString(s, "$1"+redacted)
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
