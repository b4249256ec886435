package documents

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/agentready/caddy-agentready/manifest"
	"github.com/agentready/caddy-agentready/negotiate"
)

// maxOrigins bounds how many origins documents are generated for when the
// site's YAML names no canonical origin and it is taken from the request.
// A catch-all site (`:8080`) sees arbitrary Host headers: the bound keeps a
// hostile client from making us generate without end.
const maxOrigins = 16

// Options configure a Set. The zero value is usable.
type Options struct {
	// MarkdownSuffix is the Markdown suffix the documents advertise
	// (manifest.Env.MarkdownSuffix), "" when it is disabled. Default: "".
	MarkdownSuffix string
	// ConfigDir is where relative paths of the YAML (skill files) resolve
	// from. Default: the working directory.
	ConfigDir string
	// Logger receives what is worth a line: documents that fail to
	// generate, robots.txt files that are not merged. Default: none.
	Logger *slog.Logger
	// NotFound reports whether an error the next handler returned means it
	// has no such document (in Caddy, a handler error with status 404), so
	// that the generated one is served. Default: no error does.
	NotFound func(error) bool
	// ClientURL returns the URL the client asked for, before any rewrite
	// inside the server, for the canonical link of a page; nil when it is
	// not known (the page then gets no canonical). Default: the request's
	// URL.
	ClientURL func(*http.Request) *url.URL
}

// Set is the generated documents of one site, for each origin it is served
// under. It is safe for concurrent use.
type Set struct {
	site   *manifest.Site
	opts   Options
	loaded time.Time

	// paths are the request paths of the generated documents; they do not
	// depend on the origin, so requests for anything else skip the bundles.
	paths map[string]bool
	// contentSignal is the policy's Content-Signal value, "" for none.
	contentSignal string

	mu      sync.RWMutex
	bundles map[string]*bundle // by origin
	// last is the bundle of the last host found in bundles by
	// bundleFor, remembered with its host; nil whenever bundles changes
	// (stored and cleared under mu).
	last  atomic.Pointer[hostBundle]
	order []string // insertion order, for eviction
	// pages are the site's pages as discovery found them, for the
	// generated sitemap and llms.auto_list (see SetPages).
	pages []manifest.PageInfo
	// sitemap is the path of the origin's own sitemap, "" when none was
	// found, or not yet (see SetSitemap); noSitemap is true once no sitemap
	// was found answering, not even the generated one at /sitemap.xml
	// (manifest.Env.NoSitemap).
	sitemap   string
	noSitemap bool
	// full is /llms-full.txt once built (see SetLLMsFull), nil before.
	full *servedDoc

	// findSitemap, when set, looks for the origin's own sitemap and calls
	// SetSitemap (see SetSitemapFinder).
	findSitemap func(context.Context)
	sitemapOnce sync.Once
	sitemapDone chan struct{}
}

// maxSitemapWait bounds how long a request for a generated document waits
// for the sitemap discovery; past it, the documents name /sitemap.xml and
// robots.txt adds no Sitemap: line where the origin names one.
const maxSitemapWait = 10 * time.Second

// bundle is a manifest.Bundle with each document's validators computed once.
type bundle struct {
	*manifest.Bundle
	byPath  map[string]*servedDoc
	sitemap *servedDoc
	parts   map[string]*servedDoc // the parts of a split sitemap, by path
	inject  *negotiate.Injection
	pages   *pageInjections // inject with each page's canonical link, once built
	err     error
	host    hostBundle // the bundle under the host of its origin (Set.last)
}

// hostBundle is a bundle and the Host header (lower-case ASCII, as its
// origin has it) and TLS of the requests it is for.
type hostBundle struct {
	host string
	tls  bool
	b    *bundle
}

// New generates the site's documents once for a placeholder origin, so
// that a configuration that cannot generate fails at load time, and records
// which paths are ours.
func New(site *manifest.Site, opts Options) (*Set, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.NotFound == nil {
		opts.NotFound = func(error) bool { return false }
	}
	if opts.ClientURL == nil {
		opts.ClientURL = func(r *http.Request) *url.URL { return r.URL }
	}
	s := &Set{
		site:    site,
		opts:    opts,
		loaded:  time.Now().UTC().Truncate(time.Second),
		bundles: make(map[string]*bundle),
		paths:   map[string]bool{manifest.PathRobots: true, manifest.PathSitemap: true},

		sitemapDone: make(chan struct{}),
	}
	origin := site.Info.Origin
	if origin == "" {
		origin = "http://localhost"
	}
	b := s.generate(origin)
	if b.err != nil {
		return nil, fmt.Errorf("generating documents: %v", b.err)
	}
	for p := range b.byPath {
		s.paths[p] = true
	}
	if site.Documents.LLMsFullTxt != manifest.ServeOff {
		s.paths[manifest.PathLLMsFullTxt] = true
	}
	s.contentSignal = b.ContentSignal
	return s, nil
}

// ContentSignal is the Content-Signal value of the site's usage policy, ""
// when it has none.
func (s *Set) ContentSignal() string { return s.contentSignal }

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
func (s *Set) bundleFor(r *http.Request) *bundle {
	origin := s.site.Info.Origin
	if origin == "" {
		// Every HTML page asks (for its annotations): the common case is
		// the host of the request before (a comparison), else a read,
		// looked up by the origin's bytes without making the string (one
		// allocation a request).
		if m := s.last.Load(); m != nil && m.tls == (r.TLS != nil) && m.host == r.Host {
			return m.b
		}
		var buf [128]byte
		if key, ok := appendOrigin(buf[:0], r); ok {
			s.mu.RLock()
			b, ok := s.bundles[string(key)]
			if ok && b.host.tls == (r.TLS != nil) && b.host.host == r.Host {
				s.last.Store(&b.host)
			}
			s.mu.RUnlock()
			if ok {
				return b
			}
		}
		origin = originOf(r)
	}
	return s.bundleOf(origin)
}

// appendOrigin appends originOf(r) to dst; ok is false, and dst
// unchanged, when the host is not all ASCII (strings.ToLower lowers other
// letters too).
func appendOrigin(dst []byte, r *http.Request) ([]byte, bool) {
	upper := false
	for i := 0; i < len(r.Host); i++ {
		c := r.Host[i]
		if c >= utf8.RuneSelf {
			return dst, false
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	if r.TLS != nil {
		dst = append(dst, "https://"...)
	} else {
		dst = append(dst, "http://"...)
	}
	if !upper {
		return append(dst, r.Host...), true // most hosts: copied whole
	}
	for i := 0; i < len(r.Host); i++ {
		c := r.Host[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst, true
}

// bundleOf returns the documents for origin, generating them on first
// use.
func (s *Set) bundleOf(origin string) *bundle {
	s.mu.RLock()
	b, ok := s.bundles[origin]
	s.mu.RUnlock()
	if ok {
		return b
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.bundles[origin]; ok {
		return b
	}
	b = s.generate(origin)
	b.host.b = b
	b.host.host, b.host.tls = strings.CutPrefix(origin, "https://")
	if !b.host.tls {
		b.host.host = strings.TrimPrefix(origin, "http://")
	}
	if len(s.order) >= maxOrigins {
		delete(s.bundles, s.order[0])
		s.order = s.order[1:]
	}
	s.last.Store(nil)
	s.bundles[origin] = b
	s.order = append(s.order, origin)
	return b
}

// generate makes the bundle of origin; s.mu is held, or s is not shared yet.
func (s *Set) generate(origin string) *bundle {
	mb, err := s.site.Generate(manifest.Env{
		Origin:         origin,
		MarkdownSuffix: s.opts.MarkdownSuffix,
		Now:            s.loaded,
		ConfigDir:      s.opts.ConfigDir,
		Pages:          s.pages,
		OriginSitemaps: originSitemaps(origin, s.sitemap),
		NoSitemap:      s.noSitemap,
	})
	if err != nil {
		return &bundle{err: err}
	}
	b := &bundle{Bundle: mb, byPath: make(map[string]*servedDoc, len(mb.Documents)), inject: injectionTemplate(mb.Inject), pages: newPageInjections()}
	if err := b.inject.Validate(); err != nil {
		return &bundle{err: fmt.Errorf("html annotations: %v", err)}
	}
	for _, doc := range mb.Documents {
		b.byPath[doc.Path] = newServedDoc(doc, s.loaded)
	}
	if mb.Sitemap != nil {
		b.sitemap = newServedDoc(*mb.Sitemap, s.loaded)
	}
	if len(mb.SitemapParts) > 0 {
		b.parts = make(map[string]*servedDoc, len(mb.SitemapParts))
		for _, p := range mb.SitemapParts {
			b.parts[p.Path] = newServedDoc(p, s.loaded)
		}
	}
	return b
}

// SetPages records the site's pages as discovery found them (URL, title,
// description, lastmod when known) and drops the generated bundles, so the
// next request regenerates the sitemap (when the origin has none) and
// llms.auto_list with them.
func (s *Set) SetPages(pages []manifest.PageInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages = pages
	clear(s.bundles)
	s.last.Store(nil)
	s.order = s.order[:0]
}

// SetSitemapFinder sets find, which looks for the origin's own sitemap and
// calls SetSitemap. It runs once, on the first request for a generated
// document other than the sitemap (those name the sitemap), which waits for
// it; set it before the Set serves.
func (s *Set) SetSitemapFinder(find func(context.Context)) {
	s.findSitemap = find
}

// awaitSitemap starts the sitemap discovery on first use and waits for it
// to finish, for at most maxSitemapWait or until the client leaves. The
// discovery itself runs on its own context: a client that leaves does not
// stop it for the next one.
func (s *Set) awaitSitemap(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, maxSitemapWait)
	defer cancel()
	s.FindSitemap(ctx)
}

// FindSitemap starts the sitemap discovery (see SetSitemapFinder) unless
// it ran or runs already, and waits for it to finish or for ctx to end. It
// lets the caller look at start rather than on the first request.
func (s *Set) FindSitemap(ctx context.Context) {
	if s.findSitemap == nil {
		return
	}
	s.sitemapOnce.Do(func() {
		go func() {
			defer close(s.sitemapDone)
			s.findSitemap(context.Background())
		}()
	})
	select {
	case <-s.sitemapDone:
	case <-ctx.Done():
	}
}

// SetSitemap records the path of the origin's own sitemap ("" for none)
// and whether no sitemap answers at all, and drops the generated bundles,
// so the next request regenerates the documents that name it.
func (s *Set) SetSitemap(path string, none bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sitemap == path && s.noSitemap == none {
		return
	}
	s.sitemap, s.noSitemap = path, none
	clear(s.bundles)
	s.last.Store(nil)
	s.order = s.order[:0]
}

// originSitemaps is manifest.Env.OriginSitemaps for a bundle of origin:
// the origin's sitemap found at path, on that origin.
func originSitemaps(origin, path string) []string {
	if path == "" {
		return nil
	}
	return []string{origin + path}
}
