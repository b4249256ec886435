package discover

import (
	"net/url"
	"path"
	"strings"
)

// maxURLLen is the longest URL the crawler considers; longer ones are
// ignored (sitemaps.org caps a loc at 2,048 characters).
const maxURLLen = 2048

// linkKind classifies a reference found on a page or in a sitemap.
type linkKind int

const (
	linkInvalid linkKind = iota // not an http(s) URL, or malformed
	linkOffSite                 // on another origin
	linkOnSite                  // one of the site's own
)

// resolve turns raw, relative to base, into the site key of the URL it
// names: its escaped path (dot segments removed, "/" when empty) and query,
// fragment dropped. The key is the same whichever of the site's origins the
// URL was written on.
func (s *site) resolve(base *url.URL, raw string) (string, linkKind) {
	raw = strings.TrimSpace(raw)
	if raw == "" || len(raw) > maxURLLen || strings.ContainsFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return "", linkInvalid
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return "", linkInvalid
	}
	u := ref
	if base != nil {
		u = base.ResolveReference(ref)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" || u.Host == "" {
		return "", linkInvalid
	}
	if u.User != nil || !s.hosts[hostKey(scheme, u.Host)] {
		return "", linkOffSite
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if !strings.HasPrefix(p, "/") {
		return "", linkInvalid
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return p, linkOnSite
}

// publicURL is the URL of a key on the public origin.
func (s *site) publicURL(key string) string { return s.public + key }

// fetchURL is the URL a key is requested at.
func (s *site) fetchURL(key string) string { return s.fetch.Scheme + "://" + s.fetch.Host + key }

// keyPath is the key's path, query removed.
func keyPath(key string) string {
	p, _, _ := strings.Cut(key, "?")
	return p
}

// nonHTMLExt are file extensions whose URLs are never pages; they are
// skipped without a request.
var nonHTMLExt = map[string]bool{
	".7z": true, ".apk": true, ".avi": true, ".avif": true, ".bin": true, ".bmp": true, ".bz2": true,
	".css": true, ".csv": true, ".dmg": true, ".doc": true, ".docx": true, ".eot": true, ".epub": true,
	".exe": true, ".flac": true, ".gif": true, ".gz": true, ".ico": true, ".iso": true, ".jar": true,
	".jpeg": true, ".jpg": true, ".js": true, ".json": true, ".m4a": true, ".md": true, ".mjs": true,
	".mov": true, ".mp3": true, ".mp4": true, ".msi": true, ".odt": true, ".ogg": true, ".otf": true,
	".pdf": true, ".png": true, ".ppt": true, ".pptx": true, ".rar": true, ".rss": true, ".svg": true,
	".tar": true, ".tgz": true, ".tif": true, ".tiff": true, ".ttf": true, ".txt": true, ".wasm": true,
	".wav": true, ".webm": true, ".webp": true, ".woff": true, ".woff2": true, ".xls": true, ".xlsx": true,
	".xml": true, ".xz": true, ".zip": true, ".zst": true,
}

// looksNonHTML says whether the key's path ends in a non-page extension.
func looksNonHTML(key string) bool {
	return nonHTMLExt[strings.ToLower(path.Ext(keyPath(key)))]
}
