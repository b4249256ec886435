package connect

import (
	"context"
	"maps"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentready/caddy-agentready/fulltext"
)

// doc is one indexed page as held in memory.
type doc struct {
	key         string // normalised URL the Source listed; the index id
	url         string // canonical URL
	title       string
	description string
	language    string
	updated     string
	markdown    packed // as the Source returned it
	bodyStart   int    // offset of the body after any front matter
	validators  Validators
	text        fulltext.Packed // the text the search reads, by section
}

// size is what the page counts against the byte budget: its Markdown and
// the text the search reads.
func (d *doc) size() int64 { return int64(d.markdown.n) + int64(d.text.TextBytes()) }

// document is the page as the full-text index reads it.
func (d *doc) document() fulltext.Document {
	path := d.url
	if u, err := url.Parse(d.url); err == nil {
		path = u.Path
	}
	return fulltext.Document{Title: d.title, Description: d.description, Path: path, Packed: d.text}
}

// hit is one search result.
type hit struct {
	doc     *doc
	score   float64
	heading string // of the best-matching section
	snippet string // text around the best match
}

// index holds the pages (a map for lookups, a sorted key list for listing)
// and the full-text index over them, rebuilt from all pages after each
// refresh that changed them and swapped in whole, so a search sees either
// the last complete build or none.
type index struct {
	mu       sync.RWMutex
	docs     map[string]*doc
	keys     []string // sorted; rebuilt by rebuild
	bytes    int64    // Markdown held
	held     int64    // sizes held (Markdown and text), for the budget
	dirty    bool     // pages changed since the last build
	language string

	full atomic.Pointer[built]
}

// built is one complete build of the full-text index.
type built struct {
	ft   *fulltext.Index
	docs []*doc // by the full-text index's document numbers
	at   time.Time
}

// newIndex creates an empty index for a site in language (a BCP 47 tag, ""
// when not configured; see fulltext.Build).
func newIndex(language string) *index {
	return &index{docs: make(map[string]*doc), language: language}
}

// get returns the page stored under key, trying the other trailing-slash
// form too.
func (x *index) get(key string) *doc {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if d, ok := x.docs[key]; ok {
		return d
	}
	if alt := alternateSlash(key); alt != "" {
		return x.docs[alt]
	}
	return nil
}

// validators returns the validators held for key.
func (x *index) validators(key string) (Validators, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	d, ok := x.docs[key]
	if !ok {
		return Validators{}, false
	}
	return d.validators, true
}

// counts returns the number of pages, their Markdown bytes and the bytes
// they count against the budget.
func (x *index) counts() (pages int, markdown, held int64) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.docs), x.bytes, x.held
}

// builtAt is when the full-text index was last built (zero before the
// first build) and the memory it holds besides the pages' text.
func (x *index) builtAt() (time.Time, int64) {
	if b := x.full.Load(); b != nil {
		return b.at, b.ft.Size()
	}
	return time.Time{}, 0
}

// list returns up to n pages whose URL starts with prefix, in URL order,
// after the key after ("" for the first page), and whether more follow.
func (x *index) list(prefix, after string, n int) ([]*doc, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	start := sort.SearchStrings(x.keys, max(prefix, after))
	if start < len(x.keys) && x.keys[start] == after {
		start++
	}
	var out []*doc
	for i := start; i < len(x.keys); i++ {
		k := x.keys[i]
		if !strings.HasPrefix(k, prefix) {
			break
		}
		if len(out) == n {
			return out, true
		}
		if d, ok := x.docs[k]; ok {
			out = append(out, d)
		}
	}
	return out, false
}

// search runs q over the last complete build and returns up to limit
// pages, best first, one per canonical URL.
func (x *index) search(ctx context.Context, q string, limit int) ([]hit, error) {
	b := x.full.Load()
	if b == nil || strings.TrimSpace(q) == "" || limit <= 0 {
		return nil, nil
	}
	// Pages under two listed URLs with one canonical URL are one result:
	// ask for a few more to fill limit.
	res := b.ft.Search(q, limit+limit/2+2)
	hits := make([]hit, 0, min(limit, len(res)))
	seen := make(map[string]bool, len(res))
	for _, h := range res {
		d := b.docs[h.Doc]
		if seen[d.url] || len(hits) == limit {
			continue
		}
		seen[d.url] = true
		hits = append(hits, hit{doc: d, score: h.Score, heading: h.Heading, snippet: h.Snippet})
	}
	return hits, ctx.Err()
}

// put stores d, replacing any page under the same key.
func (x *index) put(d *doc) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if old, ok := x.docs[d.key]; ok {
		x.bytes -= int64(old.markdown.n)
		x.held -= old.size()
	}
	x.docs[d.key] = d
	x.bytes += int64(d.markdown.n)
	x.held += d.size()
	x.dirty = true
}

// remove drops the page under key.
func (x *index) remove(key string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if old, ok := x.docs[key]; ok {
		x.bytes -= int64(old.markdown.n)
		x.held -= old.size()
		delete(x.docs, key)
		x.dirty = true
	}
}

// rebuild builds the full-text index over the pages held, when they changed
// since the last build (or none was made), and swaps it in; searches
// meanwhile use the previous build. Only a refresh calls it, so the pages
// do not change underneath.
func (x *index) rebuild(now time.Time) {
	x.mu.Lock()
	if !x.dirty && x.full.Load() != nil {
		x.mu.Unlock()
		return
	}
	x.keys = slices.Sorted(maps.Keys(x.docs))
	docs := make([]*doc, len(x.keys))
	for i, k := range x.keys {
		docs[i] = x.docs[k]
	}
	x.dirty = false
	x.mu.Unlock()
	in := make([]fulltext.Document, len(docs))
	for i, d := range docs {
		in[i] = d.document()
	}
	x.full.Store(&built{ft: fulltext.Build(in, x.language), docs: docs, at: now})
}

// snapshotKeys returns the keys of the pages held now.
func (x *index) snapshotKeys() []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return slices.Collect(maps.Keys(x.docs))
}
