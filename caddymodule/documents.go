package caddymodule

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/manifest"
	"github.com/agentready/caddy-agentready/negotiate"
)

// maxOrigins bounds how many origins documents are generated for when the
// site's YAML names no canonical origin and it is taken from the request.
// A catch-all site (`:8080`) sees arbitrary Host headers: the bound keeps a
// hostile client from making us generate without end.
const maxOrigins = 16

// maxRobotsSize is the largest origin robots.txt that is merged with ours;
// a larger one is served unmerged.
const maxRobotsSize = 512 << 10

// documents serves the generated discovery documents of one site.
type documents struct {
	site    *manifest.Site
	suffix  string
	loaded  time.Time
	baseDir string

	// paths are the request paths of the generated documents; they do not
	// depend on the origin, so requests for anything else skip the bundles.
	paths map[string]bool
	// contentSignal is the policy's Content-Signal value, "" for none.
	contentSignal string

	mu      sync.RWMutex
	bundles map[string]*bundle // by origin
	order   []string           // insertion order, for eviction
	// sitemapURLs are the pages of the site's sitemap, for llms.auto_list;
	// read once the config runs (see setSitemapURLs).
	sitemapURLs []string
	// sitemap is the path of the origin's own sitemap, found once the
	// config runs (see setSitemap); "" when none was found, or not yet.
	sitemap string
	// noSitemap is true once no sitemap was found answering, not even the
	// generated one at /sitemap.xml (manifest.Env.NoSitemap).
	noSitemap bool

	// findSitemap, when set, looks for the origin's own sitemap and calls
	// setSitemap (AgentReady.findSitemap). It runs once, on the first
	// request for a generated document: those name the sitemap.
	findSitemap func(context.Context)
	sitemapOnce sync.Once
	sitemapDone chan struct{}
}

// maxSitemapWait bounds how long a request for a generated document waits
// for the sitemap discovery; past it, the documents name /sitemap.xml and
// robots.txt adds no Sitemap: line where the origin names one.
const maxSitemapWait = 10 * time.Second

// awaitSitemap starts the sitemap discovery on first use and waits for it
// to finish, for at most maxSitemapWait or until the client leaves. The
// discovery itself runs on its own context: a client that leaves does not
// stop it for the next one.
func (d *documents) awaitSitemap(ctx context.Context) {
	if d.findSitemap == nil {
		return
	}
	d.sitemapOnce.Do(func() {
		go func() {
			defer close(d.sitemapDone)
			d.findSitemap(context.Background())
		}()
	})
	t := time.NewTimer(maxSitemapWait)
	defer t.Stop()
	select {
	case <-d.sitemapDone:
	case <-ctx.Done():
	case <-t.C:
	}
}

// bundle is a manifest.Bundle with each document's validators computed once.
type bundle struct {
	*manifest.Bundle
	byPath  map[string]*servedDoc
	sitemap *servedDoc
	inject  *negotiate.Injection
	err     error
}

type servedDoc struct {
	manifest.Document
	etag string
}

// newDocuments generates the site's documents once for a placeholder origin,
// so that a configuration that cannot generate fails at load time, and
// records which paths are ours.
func newDocuments(site *manifest.Site, suffix, baseDir string) (*documents, error) {
	d := &documents{
		site:    site,
		suffix:  suffix,
		loaded:  time.Now().UTC().Truncate(time.Second),
		baseDir: baseDir,
		bundles: make(map[string]*bundle),
		paths:   map[string]bool{"/robots.txt": true, "/sitemap.xml": true},

		sitemapDone: make(chan struct{}),
	}
	origin := site.Info.Origin
	if origin == "" {
		origin = "http://localhost"
	}
	b := d.generate(origin)
	if b.err != nil {
		return nil, fmt.Errorf("generating documents: %v", b.err)
	}
	for p := range b.byPath {
		d.paths[p] = true
	}
	d.contentSignal = b.ContentSignal
	return d, nil
}

// originOf is the scheme and host the request was addressed to.
func originOf(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + strings.ToLower(r.Host)
}

// bundleFor returns the documents for the request's site, generating them on
// first use for that origin.
func (d *documents) bundleFor(r *http.Request) *bundle {
	origin := d.site.Info.Origin
	if origin == "" {
		origin = originOf(r)
	}
	// Every HTML page asks (for its annotations): the common case is a read.
	d.mu.RLock()
	b, ok := d.bundles[origin]
	d.mu.RUnlock()
	if ok {
		return b
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if b, ok := d.bundles[origin]; ok {
		return b
	}
	b = d.generate(origin)
	if len(d.order) >= maxOrigins {
		delete(d.bundles, d.order[0])
		d.order = d.order[1:]
	}
	d.bundles[origin] = b
	d.order = append(d.order, origin)
	return b
}

func (d *documents) generate(origin string) *bundle {
	mb, err := d.site.Generate(manifest.Env{
		Origin:         origin,
		MarkdownSuffix: d.suffix,
		Now:            d.loaded,
		ConfigDir:      d.baseDir,
		SitemapURLs:    d.sitemapURLs,
		OriginSitemaps: originSitemaps(origin, d.sitemap),
		NoSitemap:      d.noSitemap,
	})
	if err != nil {
		return &bundle{err: err}
	}
	b := &bundle{Bundle: mb, byPath: make(map[string]*servedDoc, len(mb.Documents)), inject: injectionTemplate(mb.Inject)}
	if err := b.inject.Validate(); err != nil {
		return &bundle{err: fmt.Errorf("html annotations: %v", err)}
	}
	for _, doc := range mb.Documents {
		b.byPath[doc.Path] = newServedDoc(doc, d.loaded)
	}
	if mb.Sitemap != nil {
		b.sitemap = newServedDoc(*mb.Sitemap, d.loaded)
	}
	return b
}

func newServedDoc(doc manifest.Document, loaded time.Time) *servedDoc {
	if doc.ModTime.IsZero() {
		doc.ModTime = loaded
	}
	sum := sha256.Sum256(doc.Body)
	return &servedDoc{Document: doc, etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`}
}

// serve answers the request when it names a generated document. handled is
// false when the request is not for one of ours and must be negotiated.
func (d *documents) serve(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler, logger *zap.Logger) (handled bool, err error) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false, nil
	}
	path := r.URL.Path
	if !d.paths[path] || originOnly(r) {
		return false, nil
	}
	if path != manifest.PathSitemap {
		d.awaitSitemap(r.Context())
	}
	b := d.bundleFor(r)
	if b.err != nil {
		logger.Error("generating documents", zap.String("origin", originOf(r)), zap.Error(b.err))
		return false, nil
	}
	switch path {
	case "/robots.txt":
		if b.Robots == nil {
			return false, nil
		}
		countDocument(r, path)
		return true, d.serveRobots(w, r, next, b, logger)
	case "/sitemap.xml":
		if b.sitemap == nil {
			return false, nil
		}
		countDocument(r, path)
		return true, serveOriginFirst(w, r, next, b.sitemap)
	}
	doc, ok := b.byPath[path]
	if !ok {
		return false, nil
	}
	countDocument(r, path)
	if doc.OriginWins {
		return true, serveOriginFirst(w, r, next, doc)
	}
	doc.serveHTTP(w, r)
	return true, nil
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
func serveOriginFirst(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler, doc *servedDoc) error {
	buf := new(bytes.Buffer)
	rec := caddyhttp.NewResponseRecorder(w, buf, func(status int, _ http.Header) bool {
		return status == http.StatusNotFound
	})
	if err := next.ServeHTTP(rec, r); err != nil {
		if herr, ok := err.(caddyhttp.HandlerError); ok && herr.StatusCode == http.StatusNotFound {
			doc.serveHTTP(w, r)
			return nil
		}
		return err
	}
	if !rec.Buffered() {
		return nil
	}
	// The origin's 404 headers were recorded, not written: start clean.
	for k := range w.Header() {
		w.Header().Del(k)
	}
	doc.serveHTTP(w, r)
	return nil
}

// serveRobots merges the origin's robots.txt with the site's additions. An
// origin file that is missing yields ours alone; one that is too large or
// malformed is served unmerged, with a warning.
func (d *documents) serveRobots(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler, b *bundle, logger *zap.Logger) error {
	buf := new(bytes.Buffer)
	rec := caddyhttp.NewResponseRecorder(w, buf, func(status int, h http.Header) bool {
		return status == http.StatusOK || status == http.StatusNotFound
	})
	// Ask for the plain file: merging needs the bytes, not a compressed stream.
	or := r.Clone(r.Context())
	or.Method = http.MethodGet
	or.Header.Del("Accept-Encoding")
	or.Header.Del("Range")
	or.Header.Del("If-None-Match")
	or.Header.Del("If-Modified-Since")
	err := next.ServeHTTP(rec, or)
	var origin []byte
	switch {
	case err != nil:
		herr, ok := err.(caddyhttp.HandlerError)
		if !ok || herr.StatusCode != http.StatusNotFound {
			return err
		}
	case !rec.Buffered():
		// Streamed already (a redirect, an error page): nothing to merge.
		return nil
	case rec.Status() == http.StatusOK && b.Robots.OriginWins:
		// documents.robots_txt: origin — the origin's own file, unmerged.
		return rec.WriteResponse()
	case rec.Status() == http.StatusOK:
		if buf.Len() > maxRobotsSize {
			logger.Warn("origin robots.txt too large to merge; serving it unmerged", zap.Int("size", buf.Len()))
			return rec.WriteResponse()
		}
		origin = buf.Bytes()
	}
	merged, warnings, merr := b.MergeRobots(origin)
	for _, wmsg := range warnings {
		logger.Warn("robots.txt merge", zap.String("warning", wmsg))
	}
	if merr != nil {
		logger.Warn("origin robots.txt not merged; serving it unchanged", zap.Error(merr))
		return rec.WriteResponse()
	}
	for k := range w.Header() {
		w.Header().Del(k)
	}
	doc := newServedDoc(manifest.Document{
		Path:         "/robots.txt",
		ContentType:  "text/plain; charset=utf-8",
		Body:         merged,
		CacheControl: "public, max-age=3600",
	}, d.loaded)
	doc.serveHTTP(w, r)
	return nil
}

// loadSite reads the site's YAML from the file or the inline string, or
// returns the defaults.
func (ar *AgentReady) loadSite() (*manifest.Site, error) {
	switch {
	case ar.Config != "":
		return manifest.Load(ar.Config)
	case ar.SiteYAML != "":
		return manifest.Parse([]byte(ar.SiteYAML), "site_yaml")
	}
	return manifest.Default(), nil
}

// configDir is where relative paths of the YAML (skill files) resolve from.
func (ar *AgentReady) configDir() string {
	if ar.Config == "" {
		wd, _ := os.Getwd()
		return wd
	}
	return filepath.Dir(ar.Config)
}

// setSitemapURLs records the site's sitemap pages and drops the generated
// bundles, so the next request regenerates llms.txt with them.
func (d *documents) setSitemapURLs(urls []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.sitemapURLs = urls
	clear(d.bundles)
	d.order = d.order[:0]
}

// setSitemap records the path of the origin's own sitemap ("" for none)
// and whether no sitemap answers at all, and drops the generated bundles,
// so the next request regenerates the documents that name it.
func (d *documents) setSitemap(path string, none bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.sitemap == path && d.noSitemap == none {
		return
	}
	d.sitemap, d.noSitemap = path, none
	clear(d.bundles)
	d.order = d.order[:0]
}

// originSitemaps is manifest.Env.OriginSitemaps for a bundle of origin:
// the origin's sitemap found at path, on that origin.
func originSitemaps(origin, path string) []string {
	if path == "" {
		return nil
	}
	return []string{origin + path}
}
