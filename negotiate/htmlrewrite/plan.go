package htmlrewrite

import (
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
//
// A plan is replayed only where the replay is the rewrite: the rewriter
// reads a page from its start and decides each insertion, and where it
// stops looking, on the bytes it has read so far, so a page whose first
// bytes are those of the page the plan was recorded on gets the same
// insertions. Each edit carries a hash of every byte of the page before the
// point where the rewriter decided it (check), and the plan one of the
// bytes up to where the rewriter stopped deciding (done): the rest of the
// page was copied. Applied to a page held whole, the plan checks done's
// hash; streamed (PlanWriter), each edit's before making it. Only the
// length and 8 bytes before each insertion were checked before, which let
// an origin that reuses a strong ETag and length for other bytes (a
// per-cookie variant, say) get markup inserted inside a script or an
// attribute value (issue 23, hole 7).
type plan struct {
	key   planKey
	n     int // the page's length
	edits []edit
	done  int    // the rewriter decided nothing on the bytes from here on
	sum   uint64 // pageSum of the page's bytes before done
	size  int64  // memory the plan holds, for the cache bound
}

// edit inserts ins at offset off of the page. The rewriter decided it on
// the bytes before check (at or after off: a tag it inserts into is read
// to its end), whose pageSum is sum.
type edit struct {
	off, check int
	sum        uint64
	ins        []byte
}

// add records an insertion made at offset off of the page being recorded,
// decided on the bytes before check, whose hash is sum.
func (p *plan) add(off, check int64, sum uint64, ins []byte) {
	p.edits = append(p.edits, edit{off: int(off), check: int(check), sum: sum, ins: append([]byte(nil), ins...)})
	p.size += int64(len(ins)) + 56
}

// finish records where the rewriter stopped deciding, and the hash of the
// bytes before.
func (p *plan) finish(done int64, sum uint64) { p.done, p.sum = int(done), sum }

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

// pageSum is the hash of a page's first bytes the plans check: maphash,
// keyed by this process's secret seed, so an origin cannot choose bytes
// that hash as another page's.
func pageSum(b []byte) uint64 { return maphash.Bytes(planSeed, b) }

// apply appends page with the plan's insertions to dst. ok is false, and
// dst unchanged, when the page is not the one the plan was made for: of
// another length, or other bytes before done.
func (p *plan) apply(dst, page []byte) (out []byte, ok bool) {
	if len(page) != p.n || p.done > len(page) || pageSum(page[:p.done]) != p.sum {
		return dst, false
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
