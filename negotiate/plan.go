package negotiate

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"sync"

	"github.com/agentready/caddy-agentready/internal/lru"
)

// A rewrite plan is where the rewriter inserted bytes into one page. The
// rewrite depends only on the page's bytes and on the injection, so a page
// seen before, with the same injection, gets the same insertions: the
// handler keeps the plans of the pages it buffered (see maxPlannedPage) and
// applies them by copying, without tokenizing the page again.

// DefaultRewriteCache is the default Options.RewriteCache: a plan holds the
// bytes it inserts (a few kilobytes with the head elements), so this keeps
// the plans of a few thousand pages.
const DefaultRewriteCache = 8 << 20

// maxPlannedPage is the largest page, by its Content-Length, that the HTML
// path buffers whole: it is then sent with its exact Content-Length and its
// plan is looked up or recorded. A larger page, or one of unknown length,
// streams through the rewriter.
const maxPlannedPage = 256 << 10

// planSeed keys the page hashes of this process.
var planSeed = maphash.MakeSeed()

// planKey identifies a page by a hash of its bytes and of its injection.
type planKey struct{ page, inj uint64 }

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

// add records an insertion made at offset off of the page being recorded.
func (p *plan) add(off int64, ins []byte) {
	p.edits = append(p.edits, edit{off: int(off), ins: append([]byte(nil), ins...)})
	p.size += int64(len(ins)) + 48
}

// seal finishes a recorded plan of page: its length and the check bytes.
func (p *plan) seal(page []byte) {
	p.n = len(page)
	for i := range p.edits {
		p.edits[i].before = beforeBytes(page, p.edits[i].off)
	}
	p.size += 128
}

func beforeBytes(page []byte, off int) uint64 {
	var b [8]byte
	copy(b[:], page[max(0, off-8):off])
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

// planCache keeps plans up to a bound on their bytes, dropping the least
// recently used. It is safe for concurrent use.
type planCache struct {
	mu    sync.Mutex
	plans *lru.Cache[planKey, *plan]
}

func newPlanCache(maxBytes int64) *planCache {
	return &planCache{plans: lru.New[planKey, *plan](maxBytes)}
}

// get returns the plan for k, or nil.
func (c *planCache) get(k planKey) *plan {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, _ := c.plans.Get(k)
	return p
}

// put stores p, replacing any plan of the same key; a plan larger than the
// whole bound is not kept.
func (c *planCache) put(p *plan) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.plans.Add(p.key, p, p.size)
}

// drop removes the plan of p's key, if it is p (a plan that no longer
// applies), and not a plan recorded since.
func (c *planCache) drop(p *plan) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur, _ := c.plans.Peek(p.key); cur == p {
		c.plans.Remove(p.key)
	}
}

// len is the number of plans kept.
func (c *planCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.plans.Len()
}

// rewritePage returns page rewritten with inj, in buf (from pageBufPool):
// by the plan of an earlier identical page when the cache has one
// (fromPlan), else by the rewriter, whose insertions become the plan for
// the next time. An injection without a Key is never planned.
func (h *Handler) rewritePage(buf *[]byte, page []byte, inj *Injection) (out *[]byte, fromPlan bool) {
	planned := h.plans != nil && inj.Key != ""
	var key planKey
	if planned {
		key = planKey{page: maphash.Bytes(planSeed, page), inj: maphash.String(planSeed, inj.Key)}
		if p := h.plans.get(key); p != nil {
			if out, ok := p.apply((*buf)[:0], page); ok {
				*buf = out
				return buf, true
			}
			h.plans.drop(p)
		}
	}
	w := bytes.NewBuffer((*buf)[:0])
	r := newRewriter(w, inj)
	if planned {
		r.plan = &plan{key: key}
	}
	_, _ = r.Write(page)
	_ = r.Close()      // a bytes.Buffer never fails
	if r.plan != nil { // set when planned, dropped if the rewrite gave up
		r.plan.seal(page)
		h.plans.put(r.plan)
	}
	*buf = w.Bytes()
	return buf, false
}

// pageBufPool holds the buffers of the pages rewritten whole.
var pageBufPool = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

func putPageBuf(b *[]byte) {
	if cap(*b) <= 2*maxPlannedPage {
		*b = (*b)[:0]
		pageBufPool.Put(b)
	}
}
