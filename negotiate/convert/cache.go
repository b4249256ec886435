package convert

import (
	"bytes"
	"hash/maphash"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentready/caddy-agentready/internal/canon"
	"github.com/agentready/caddy-agentready/internal/lru"
)

// Cache keeps recent conversions so that repeated agent requests for an
// unchanged page skip the conversion. It is keyed by the page URL, the
// origin's validators and the options hash, bounded by bytes with
// least-recently-used eviction, and safe for concurrent use. A nil *Cache,
// or one made with a size of 0, stores nothing (the off switch).
//
// A conversion is stored the second time its key is put, not the first
// (TinyLFU's "doorkeeper"): a crawler that fetches every page once, as
// agents' crawlers do, would otherwise evict the pages agents come back
// to, and fill the cache, and the heap with it, with pages nobody asks
// for again. A page requested twice is converted twice, then served from
// the cache.
//
// The doorkeeper is this cache's own admission rule, in front of the
// shared byte-bounded LRU (internal/lru) that holds the entries.
type Cache struct {
	max          int64
	mu           sync.Mutex
	entries      *lru.Cache[string, *Result] // cost: entrySize
	seen         []uint64                    // doorkeeper: hashes of keys put once, two places each
	evict        uint64                      // which of its two places a new hash takes when both are full
	hits, misses atomic.Uint64
	skipped      atomic.Uint64 // puts the doorkeeper turned away
}

// doorkeeperSlots is the number of keys the doorkeeper remembers (128 KiB):
// a page is stored if it comes back within about that many conversions of
// other pages.
const doorkeeperSlots = 16384

// entryOverhead approximates the bookkeeping bytes of one entry.
const entryOverhead = 256

// NewCache returns a cache holding at most maxBytes of conversions
// (Markdown plus metadata). maxBytes <= 0 disables it.
func NewCache(maxBytes int64) *Cache {
	c := &Cache{max: maxBytes, entries: lru.New[string, *Result](maxBytes)}
	if maxBytes > 0 {
		c.seen = make([]uint64, doorkeeperSlots)
	}
	return c
}

// admit reports whether key was put before (and forgets it), else
// remembers it; c.mu is held. A key's hash may sit in either of two slots,
// so two pages that share one slot and alternate do not keep forgetting
// each other.
func (c *Cache) admit(key string) bool {
	h := maphash.String(doorkeeperSeed, key) | 1 // 0 marks an empty slot
	n := uint64(len(c.seen))
	a, b := &c.seen[h%n], &c.seen[(h>>32)%n]
	switch {
	case *a == h:
		*a = 0
		return true
	case *b == h:
		*b = 0
		return true
	case *a == 0:
		*a = h
	case *b == 0:
		*b = h
	default:
		c.evict++
		if c.evict&1 == 0 {
			*a = h
		} else {
			*b = h
		}
	}
	return false
}

var doorkeeperSeed = maphash.MakeSeed()

// Key returns the cache key of a page's conversion, or ok=false when the
// response must not be cached. req is the header of the request the page
// answered, resp the origin's response header. It is not cached when:
//   - it has no validator: without ETag (RFC 9110 §8.8.3) or Last-Modified
//     (RFC 9110 §8.8.2) there is no way to tell a changed page from the
//     same one;
//   - it is personal or uncacheable: Cache-Control no-store or private
//     (RFC 9111 §5.2.2.5, §5.2.2.7), Set-Cookie, or a Vary on anything but
//     Accept and Accept-Encoding (RFC 9110 §12.5.5), since two users' pages
//     could then share validators;
//   - it answers a request with credentials and the origin did not mark it
//     shareable (see shareable).
//
// The key also covers the headers the conversion reads (Content-Language,
// Link) and optsHash (Options.Hash), so different settings never share an
// entry.
func (c *Cache) Key(pageURL string, req, resp http.Header, optsHash string) (key string, ok bool) {
	return c.key(pageURL, nil, req, resp, optsHash)
}

// KeyURL is Key(pageURL.String(), req, resp, optsHash), without making
// that string first: the URL is written into the key (a warm Markdown
// request: one allocation and the URL's String less).
func (c *Cache) KeyURL(pageURL *url.URL, req, resp http.Header, optsHash string) (key string, ok bool) {
	return c.key("", pageURL, req, resp, optsHash)
}

// key is Key of u's String when u is not nil, else of pageURL.
func (c *Cache) key(pageURL string, u *url.URL, req, resp http.Header, optsHash string) (key string, ok bool) {
	etag, lastMod := canon.Get(resp, "Etag"), canon.Get(resp, "Last-Modified")
	if etag == "" && lastMod == "" {
		return "", false
	}
	if !cacheable(req, resp) {
		return "", false
	}
	// The key is the parts themselves, each ended by a NUL, which no URL
	// or header value holds: exact, and one allocation where a SHA-256 of
	// them and its hex took three (a warm Markdown request: 21 -> 19
	// allocations, 37,029 -> 30,248 instructions, BenchmarkServeHTTPOverhead).
	lang, link := resp["Content-Language"], resp["Link"]
	var w urlWriter
	if u != nil {
		w = newURLWriter(u)
	} else {
		w = urlWriter{whole: pageURL}
	}
	n := w.len() + len(etag) + len(lastMod) + len(optsHash) + 6
	for _, values := range [...][]string{lang, link} {
		for _, v := range values {
			n += len(v) + 1
		}
	}
	var b strings.Builder
	b.Grow(n)
	w.write(&b)
	b.WriteByte(0)
	for _, part := range [...]string{etag, lastMod} {
		b.WriteString(part)
		b.WriteByte(0)
	}
	for _, values := range [...][]string{lang, link} {
		for i, v := range values {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(v)
		}
		b.WriteByte(0)
	}
	b.WriteString(optsHash)
	b.WriteByte(0)
	return b.String(), true
}

// cacheable reports whether a response with a validator may be kept
// (see Key): not personal, not varying on more than Accept and
// Accept-Encoding, shareable.
func cacheable(req, resp http.Header) bool {
	if hasDirective(resp, "no-store", "private") || len(resp["Set-Cookie"]) > 0 || !shareable(req, resp) {
		return false
	}
	for _, v := range resp["Vary"] {
		for f := range strings.SplitSeq(v, ",") {
			f = strings.TrimSpace(f)
			if f != "" && !strings.EqualFold(f, "Accept") && !strings.EqualFold(f, "Accept-Encoding") {
				return false
			}
		}
	}
	return true
}

// urlWriter writes a URL's String form: whole, or, for the common shape
// of a page's address (scheme, a host that needs no escaping, an escaped
// path starting with "/" or empty, a query), from its pieces.
type urlWriter struct {
	whole                     string // the URL's String, when not in pieces
	scheme, host, path, query string
	pieces                    bool
}

// newURLWriter is the writer of u.String().
func newURLWriter(u *url.URL) urlWriter {
	if u.Scheme == "" || u.Host == "" || u.Opaque != "" || u.User != nil || u.OmitHost ||
		u.ForceQuery || u.Fragment != "" || !plainHost(u.Host) {
		return urlWriter{whole: u.String()}
	}
	path := u.EscapedPath()
	if path != "" && path[0] != '/' {
		return urlWriter{whole: u.String()}
	}
	return urlWriter{scheme: u.Scheme, host: u.Host, path: path, query: u.RawQuery, pieces: true}
}

// len is the length of what write writes.
func (w urlWriter) len() int {
	if !w.pieces {
		return len(w.whole)
	}
	return len(w.scheme) + 3 + len(w.host) + len(w.path) + 1 + len(w.query)
}

func (w urlWriter) write(b *strings.Builder) {
	if !w.pieces {
		b.WriteString(w.whole)
		return
	}
	b.WriteString(w.scheme)
	b.WriteString("://")
	b.WriteString(w.host)
	b.WriteString(w.path)
	if w.query != "" {
		b.WriteByte('?')
		b.WriteString(w.query)
	}
}

// plainHost reports whether URL.String writes host as it is: letters,
// digits and the bytes of a name, an address or a port ("-._~:[]").
func plainHost(host string) bool {
	for i := 0; i < len(host); i++ {
		if !hostBytes[host[i]] {
			return false
		}
	}
	return true
}

// hostBytes marks the bytes plainHost allows: a table rather than a
// comparison chain a byte.
var hostBytes = func() (t [256]bool) {
	for c := range 256 {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '-', c == '.', c == '_', c == '~', c == ':', c == '[', c == ']':
		default:
			continue
		}
		t[c] = true
	}
	return t
}()

// shareable reports whether a conversion may be reused for other clients.
// The cache is shared, so it follows RFC 9111 §3.5: a response to a request
// with Authorization is reused only when the origin marked it public,
// s-maxage or must-revalidate. A request with cookies is treated the same
// way: the origin may have personalised the page without saying so.
func shareable(req, resp http.Header) bool {
	if canon.Get(req, "Authorization") == "" && canon.Get(req, "Cookie") == "" {
		return true
	}
	return hasDirective(resp, "public", "s-maxage", "must-revalidate")
}

// hasDirective reports whether the Cache-Control of h holds one of the
// directives names (RFC 9111 §5.2: names are case-insensitive; a value
// after "=" is ignored).
func hasDirective(h http.Header, names ...string) bool {
	for _, cc := range h["Cache-Control"] {
		for d := range strings.SplitSeq(cc, ",") {
			name, _, _ := strings.Cut(strings.TrimSpace(d), "=")
			for _, n := range names {
				if strings.EqualFold(name, n) {
					return true
				}
			}
		}
	}
	return false
}

// Get returns the cached conversion for key. The Result is shared: callers
// must not modify it.
func (c *Cache) Get(key string) (*Result, bool) {
	if c == nil || c.max <= 0 {
		return nil, false
	}
	c.mu.Lock()
	r, ok := c.entries.Get(key)
	c.mu.Unlock()
	if !ok {
		c.misses.Add(1)
		return nil, false
	}
	c.hits.Add(1)
	return r, true
}

// Put stores r under key, evicting the least recently used entries to stay
// within the size bound. A result larger than the whole cache is not
// stored. r must not be modified afterwards.
func (c *Cache) Put(key string, r *Result) {
	if c == nil || c.max <= 0 || r == nil {
		return
	}
	size := entrySize(key, r)
	if size > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, held := c.entries.Peek(key); !held && !c.admit(key) {
		c.skipped.Add(1)
		return
	}
	// Keep an exact-size copy: the Markdown's backing array may be twice
	// its length, and the bound counts the length.
	if cap(r.Markdown) > len(r.Markdown) {
		cp := *r
		cp.Markdown = bytes.Clone(r.Markdown)
		r = &cp
	}
	c.entries.Add(key, r, size)
}

// entrySize is what an entry counts against the bound: its key, Markdown,
// extraction name and metadata, and entryOverhead.
func entrySize(key string, r *Result) int64 {
	m := r.Meta
	return int64(len(key)+len(r.Markdown)+len(r.Extraction)+entryOverhead) +
		int64(len(m.Title)+len(m.Description)+len(m.Canonical)+len(m.Updated)+len(m.Published)+
			len(m.Language)+len(m.Author)+len(m.Image)+len(m.SiteName))
}

// Stats returns the hit and miss counts since the cache was made, and the
// bytes and entries it holds now.
func (c *Cache) Stats() (hits, misses uint64, bytes int64, entries int) {
	if c == nil {
		return 0, 0, 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits.Load(), c.misses.Load(), c.entries.Cost(), c.entries.Len()
}
