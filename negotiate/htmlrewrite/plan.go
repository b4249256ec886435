package htmlrewrite

import (
	"encoding/binary"
	"hash/maphash"
	"sync"

	"github.com/agentready/caddy-agentready/internal/lru"
)

// A rewrite plan is where the rewriter inserted bytes into one page. The
// rewrite depends only on the page's bytes and on the injection, so a page
// seen before, with the same injection, gets the same insertions:
// RewritePage keeps the plans of the pages it rewrites whole in a PlanCache
// and applies them by copying, without tokenizing the page again.

// planSeed keys the page hashes of this process.
var planSeed = maphash.MakeSeed()

// planKey identifies a page and its injection: the page by a hash of its
// bytes, or by the name its origin gives those bytes (id; page is then 0),
// the injection by a hash of its Key.
type planKey struct {
	page, inj uint64
	id        PageID
}

// PageID names the bytes of a page by what its origin promises about them:
// the address it was asked by and its strong entity tag, which the origin
// changes whenever the bytes change (RFC 9110 §8.8.1, §8.8.3), and its
// length. A plan recorded under a PageID is looked up (LookupPlan) before
// any of the page's bytes arrive, so the page can stream through it
// (PlanWriter) instead of being held and hashed.
type PageID struct {
	Host, Path, Query string // the request's, as the origin saw them
	ETag              string // the strong entity tag, quoted: never a weak one
	Length            int64  // the Content-Length
}

// plan is the insertions the rewriter made into one page.
type plan struct {
	key   planKey
	n     int // the page's length
	edits []edit
	size  int64 // memory the plan holds, for the cache bound
}

// edit inserts ins at offset off of the page. before holds the page bytes
// just before off (up to 8, little endian): applying a plan checks them, so
// a hash collision can never put markup in the wrong place.
type edit struct {
	off    int
	before uint64
	ins    []byte
}

// add records an insertion made at offset off of the page being recorded,
// before being the page's bytes just before off (see tail8).
func (p *plan) add(off int64, ins []byte, before uint64) {
	p.edits = append(p.edits, edit{off: int(off), before: before, ins: append([]byte(nil), ins...)})
	p.size += int64(len(ins)) + 48
}

// seal finishes a recorded plan of a page of n bytes.
func (p *plan) seal(n int64) {
	p.n = int(n)
	p.size += 128 + int64(len(p.key.id.Host)+len(p.key.id.Path)+len(p.key.id.Query)+len(p.key.id.ETag))
}

// out is the length of the page the plan makes.
func (p *plan) out() int64 {
	n := int64(p.n)
	for _, e := range p.edits {
		n += int64(len(e.ins))
	}
	return n
}

func beforeBytes(page []byte, off int) uint64 {
	var b [8]byte
	copy(b[:], page[max(0, off-8):off])
	return binary.LittleEndian.Uint64(b[:])
}

// tail8 is the last 8 bytes of a stream (fewer at its start): pushed the
// whole stream in pieces, its value is beforeBytes of the stream at its
// end, so a plan's check bytes are recorded, and checked, without the
// page held whole.
type tail8 struct {
	b [8]byte
	n int
}

func (t *tail8) push(p []byte) {
	if len(p) >= 8 {
		copy(t.b[:], p[len(p)-8:])
		t.n = 8
		return
	}
	if keep := 8 - len(p); t.n > keep {
		copy(t.b[:], t.b[t.n-keep:t.n])
		t.n = keep
	}
	t.n += copy(t.b[t.n:], p)
}

func (t *tail8) value() uint64 {
	var b [8]byte
	copy(b[:], t.b[:t.n])
	return binary.LittleEndian.Uint64(b[:])
}

// apply appends page with the plan's insertions to dst. ok is false, and
// dst unchanged, when the page is not the one the plan was made for.
func (p *plan) apply(dst, page []byte) (out []byte, ok bool) {
	if len(page) != p.n {
		return dst, false
	}
	for _, e := range p.edits {
		if e.off > len(page) || beforeBytes(page, e.off) != e.before {
			return dst, false
		}
	}
	at := 0
	for _, e := range p.edits {
		dst = append(append(dst, page[at:e.off]...), e.ins...)
		at = e.off
	}
	return append(dst, page[at:]...), true
}

// PlanCache keeps rewrite plans up to a bound on their bytes, dropping the
// least recently used. It is safe for concurrent use.
type PlanCache struct {
	mu    sync.Mutex
	plans *lru.Cache[planKey, *plan]
}

// NewPlanCache returns a cache that keeps plans of at most maxBytes in all.
// A plan holds the bytes it inserts (a few kilobytes with head elements).
func NewPlanCache(maxBytes int64) *PlanCache {
	return &PlanCache{plans: lru.New[planKey, *plan](maxBytes)}
}

// get returns the plan for k, or nil.
func (c *PlanCache) get(k planKey) *plan {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, _ := c.plans.Get(k)
	return p
}

// put stores p, replacing any plan of the same key; a plan larger than the
// whole bound is not kept.
func (c *PlanCache) put(p *plan) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.plans.Add(p.key, p, p.size)
}

// drop removes the plan of p's key, if it is p (a plan that no longer
// applies), and not a plan recorded since.
func (c *PlanCache) drop(p *plan) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur, _ := c.plans.Peek(p.key); cur == p {
		c.plans.Remove(p.key)
	}
}

// Len is the number of plans kept.
func (c *PlanCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.plans.Len()
}
