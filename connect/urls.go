package connect

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// errForeignURL refuses a URL outside the site's origin.
var errForeignURL = errors.New("not a page of this site")

// normalizePageURL resolves raw (an absolute URL or a path) against origin and
// returns the page key: scheme and host lower-cased, default port dropped,
// fragment removed, query kept. It refuses other origins, dot segments
// (plain or percent-encoded: RFC 3986 §3.3 gives them meaning, and nothing
// legitimate needs them here), backslashes, control characters and URLs over
// maxURLLength.
func normalizePageURL(origin, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", errors.New("empty url")
	}
	if len(raw) > maxURLLength {
		return "", fmt.Errorf("url longer than %d bytes", maxURLLength)
	}
	if strings.ContainsFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }) {
		return "", errors.New("url holds control characters or backslashes")
	}
	base, err := url.Parse(origin + "/")
	if err != nil {
		return "", fmt.Errorf("origin: %v", err)
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("malformed url: %v", err)
	}
	if ref.User != nil {
		return "", errForeignURL
	}
	if ref.Scheme == "" && ref.Host == "" && !strings.HasPrefix(ref.Path, "/") {
		return "", errors.New("a relative url must start with /")
	}
	if hasDotSegment(ref.EscapedPath()) {
		return "", errors.New("url path holds . or .. segments")
	}
	u := base.ResolveReference(ref)
	if strings.ToLower(u.Scheme)+"://"+canonicalHost(u) != origin {
		return "", errForeignURL
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = canonicalHost(u)
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	// Escaping can triple the length: the bound holds for the result too,
	// so a normalised URL always normalises to itself.
	out := u.String()
	if len(out) > maxURLLength {
		return "", fmt.Errorf("url longer than %d bytes once escaped", maxURLLength)
	}
	return out, nil
}

// hasDotSegment reports whether an escaped path holds a "." or ".." segment,
// percent-encoded or not.
func hasDotSegment(escaped string) bool {
	for seg := range strings.SplitSeq(strings.ToLower(escaped), "/") {
		decoded := strings.ReplaceAll(seg, "%2e", ".")
		if decoded == "." || decoded == ".." {
			return true
		}
		// An encoded slash or backslash hides a segment boundary.
		if (strings.Contains(seg, "%2f") || strings.Contains(seg, "%5c")) && strings.Contains(decoded, "..") {
			return true
		}
	}
	return false
}

// alternateSlash returns key with its trailing slash toggled, for lookups of
// "/docs" when "/docs/" is indexed and back; "" when not applicable.
func alternateSlash(key string) string {
	u, err := url.Parse(key)
	if err != nil || u.Path == "/" || u.RawQuery != "" {
		return ""
	}
	if strings.HasSuffix(u.Path, "/") {
		u.Path = strings.TrimSuffix(u.Path, "/")
	} else {
		u.Path += "/"
	}
	return u.String()
}
