package documents

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"time"

	"github.com/agentready/caddy-agentready/manifest"
	"github.com/agentready/caddy-agentready/negotiate"
)

// maxRobotsSize is the largest origin robots.txt that is merged with ours
// (Google reads the first 500 KiB); a larger one is streamed to the client
// unmerged, the origin's bytes untouched, and never held whole.
const maxRobotsSize = 512 << 10

// servedDoc is a generated document with its ETag.
type servedDoc struct {
	manifest.Document
	etag string
}

func newServedDoc(doc manifest.Document, loaded time.Time) *servedDoc {
	if doc.ModTime.IsZero() {
		doc.ModTime = loaded
	}
	sum := sha256.Sum256(doc.Body)
	return &servedDoc{Document: doc, etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`}
}

// Serve answers the request when it names a generated document, asking
// next for the origin's copy where the origin's may win or be merged.
// handled is false when the request is not for one of ours (or the
// documents fail to generate, which is logged): it must go on to the next
// handler. An error is next's, returned untouched.
func (s *Set) Serve(w http.ResponseWriter, r *http.Request, next negotiate.Next) (handled bool, err error) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false, nil
	}
	path := r.URL.Path
	part := isSitemapPart(path)
	if !s.paths[path] && !part {
		return false, nil
	}
	if path != manifest.PathSitemap && !part {
		s.awaitSitemap(r.Context())
	}
	b := s.bundleFor(r)
	if b.err != nil {
		s.opts.Logger.Error("generating documents", "origin", originOf(r), "error", b.err)
		return false, nil
	}
	switch {
	case path == manifest.PathLLMsFullTxt:
		return true, s.serveLLMsFull(w, r, next)
	case part:
		doc, ok := b.parts[path]
		if !ok {
			return false, nil
		}
		return true, s.serveOriginFirst(w, r, next, doc)
	case path == manifest.PathRobots:
		if b.Robots == nil {
			return false, nil
		}
		return true, s.serveRobots(w, r, next, b)
	case path == manifest.PathSitemap:
		if b.sitemap == nil {
			return false, nil
		}
		return true, s.serveOriginFirst(w, r, next, b.sitemap)
	}
	doc, ok := b.byPath[path]
	if !ok {
		return false, nil
	}
	if doc.OriginWins {
		return true, s.serveOriginFirst(w, r, next, doc)
	}
	doc.serveHTTP(w, r)
	return true, nil
}

// isSitemapPart reports whether path is where a part of a split generated
// sitemap is served: /sitemap-N.xml, N a decimal number from 1 without
// leading zeros.
func isSitemapPart(path string) bool {
	n, ok := strings.CutPrefix(path, "/sitemap-")
	if !ok {
		return false
	}
	n, ok = strings.CutSuffix(n, ".xml")
	if !ok || n == "" || len(n) > 6 || n[0] == '0' {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// serveHTTP writes the document with its validators; http.ServeContent
// answers conditional requests (RFC 9110 §13) and HEAD.
func (doc *servedDoc) serveHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", doc.ContentType)
	h.Set("ETag", doc.etag)
	if doc.CacheControl != "" {
		h.Set("Cache-Control", doc.CacheControl)
	}
	h.Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, "", doc.ModTime, bytes.NewReader(doc.Body))
}

// serveOriginFirst lets the origin answer and serves the generated document
// only when the origin has none (404).
func (s *Set) serveOriginFirst(w http.ResponseWriter, r *http.Request, next negotiate.Next, doc *servedDoc) error {
	rec := newDroppingRecorder(w, func(status int) bool { return status == http.StatusNotFound })
	if err := next(rec, r); err != nil {
		if s.opts.NotFound(err) && !rec.wrote() {
			doc.serveHTTP(w, r)
			return nil
		}
		return err
	}
	if !rec.buffered() {
		return nil
	}
	// The origin's 404 headers were recorded, not written: start clean.
	clear(w.Header())
	doc.serveHTTP(w, r)
	return nil
}

// serveRobots merges the origin's robots.txt with the site's additions. An
// origin file that is missing yields ours alone; one that is malformed is
// served unmerged, with a warning; one larger than maxRobotsSize streams
// through unmerged, with a warning, at most maxRobotsSize of it held. A
// HEAD is answered with the headers its GET would have; its body is never
// held past the same bound (the client's writer discards it).
func (s *Set) serveRobots(w http.ResponseWriter, r *http.Request, next negotiate.Next, b *bundle) error {
	rec := newRecorder(w, func(status int) bool {
		return status == http.StatusOK || status == http.StatusNotFound
	}, maxRobotsSize)
	// Ask for the plain file: merging needs the bytes, not a compressed stream.
	or := r.Clone(r.Context())
	or.Method = http.MethodGet
	for _, h := range []string{"Accept-Encoding", "Range", "If-None-Match", "If-Modified-Since"} {
		or.Header.Del(h)
	}
	err := next(rec, or)
	var origin []byte
	switch {
	case err != nil:
		if !s.opts.NotFound(err) || rec.wrote() {
			return err
		}
	case rec.spilled && !b.Robots.OriginWins:
		s.opts.Logger.Warn("origin robots.txt too large to merge; served it unmerged",
			"status", rec.status, "limit_bytes", maxRobotsSize)
		return nil
	case !rec.buffered():
		// Streamed already (a redirect, an error page): nothing to merge.
		return nil
	case rec.status == http.StatusOK && b.Robots.OriginWins:
		// documents.robots_txt: origin — the origin's own file, unmerged.
		return rec.writeResponse()
	case rec.status == http.StatusOK:
		origin = rec.body.Bytes()
	}
	merged, warnings, merr := b.MergeRobots(origin)
	for _, msg := range warnings {
		s.opts.Logger.Warn("robots.txt merge", "warning", msg)
	}
	if merr != nil {
		s.opts.Logger.Warn("origin robots.txt not merged; serving it unchanged", "error", merr)
		return rec.writeResponse()
	}
	clear(w.Header())
	newServedDoc(manifest.Document{
		Path:         manifest.PathRobots,
		ContentType:  "text/plain; charset=utf-8",
		Body:         merged,
		CacheControl: "public, max-age=3600",
	}, s.loaded).serveHTTP(w, r)
	return nil
}
