package htmlrewrite

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"sync"

	nethtml "golang.org/x/net/html"
)

// maxTokenBuf caps the bytes the rewriter holds back for one token it may
// change: a tag, or text before the body starts. Past it the rewriter stops
// looking and copies the rest of the page through unchanged, so memory
// stays bounded whatever the input. Tokens it never changes (scripts,
// styles, comments, the body's text) stream through and are not held.
const maxTokenBuf = 1 << 20

// ErrClosed is returned by Write after Close or Abandon.
var ErrClosed = errors.New("htmlrewrite: write to closed html rewriter")

// New returns a Rewriter that copies HTML to w, applying inj on the way. It
// streams: each Write writes out, before it returns, everything of its bytes
// but an incomplete tag at the end, which goes out with the next (see
// maxTokenBuf for the bound). Bytes it does not inject into are copied
// untouched, so invalid HTML comes out byte for byte; a nil or empty inj
// gives back the input exactly. The caller must call Close, which flushes
// what is left and returns the first error writing to w, or Abandon.
func New(w io.Writer, inj *Injection) *Rewriter {
	if inj == nil {
		inj = &Injection{}
	}
	r := &Rewriter{out: w, st: newRewriteState(inj)}
	r.pass = r.st.finished()
	if !r.pass {
		r.take()
	}
	return r
}

// rewriteBufs are the buffers of a rewriter, reused between responses.
type rewriteBufs struct {
	hold, batch, tok, keys, head []byte
	attrs                        []attr
	spans                        []attrSpan
}

var rewriteBufPool = sync.Pool{New: func() any { return new(rewriteBufs) }}

// maxPooledBuf is the largest buffer kept for the next response.
const maxPooledBuf = 64 << 10

// take gives r the buffers of an earlier response.
func (r *Rewriter) take() {
	b := rewriteBufPool.Get().(*rewriteBufs)
	r.bufs = b
	r.hold, r.batch, r.tok, r.tag.keys, r.st.buf = b.hold[:0], b.batch[:0], b.tok[:0], b.keys[:0], b.head[:0]
	r.tag.list, r.z.attrs = b.attrs[:0], b.spans[:0]
}

// release gives r's buffers back once it no longer rewrites.
func (r *Rewriter) release() {
	b := r.bufs
	if b == nil {
		return
	}
	r.bufs = nil
	keep := func(p []byte) []byte {
		if cap(p) > maxPooledBuf {
			return nil
		}
		return p[:0]
	}
	b.hold, b.batch, b.tok, b.keys, b.head = keep(r.hold), keep(r.batch), keep(r.tok), keep(r.tag.keys), keep(r.st.buf)
	b.attrs, b.spans = r.tag.list[:0], r.z.attrs[:0]
	if cap(b.attrs) > 1024 || cap(b.spans) > 1024 {
		b.attrs, b.spans = nil, nil
	}
	clear(b.attrs[:cap(b.attrs)]) // no references into this response's bytes
	r.hold, r.batch, r.tok, r.tag, r.st.buf, r.z.attrs = nil, nil, nil, tagAttrs{}, nil, nil
	rewriteBufPool.Put(b)
}

// Rewriter is the streaming rewrite, driven by Write on the caller's
// goroutine: the tokenizer reports each token as it completes, the
// rewriteState says what to write for it, and the bytes of a token it may
// still change are held until the token is complete.
type Rewriter struct {
	out io.Writer
	st  *rewriteState
	z   tokenizer

	n       int64  // stream offset of the next Write's first byte
	emitted int64  // input before this offset is written or in the batch
	hold    []byte // input [emitted, n): the start of an incomplete token
	batch   []byte // output of this Write, when it is not a slice of the input
	tok     []byte // a token straddling two Writes, made contiguous
	tag     tagAttrs
	bufs    *rewriteBufs // where the buffers above came from; nil once released
	plan    *plan        // when set, the insertions are recorded in it
	sum     maphash.Hash // with a plan: of the input before hashed (pageSum)
	hashed  int64
	record  *PlanCache // with a plan: where Close keeps it (NewRecording)
	atEOF   bool       // Close reads the last token: every byte is read

	pass   bool // nothing left to change: bytes are copied as they come
	closed bool
	err    error // first error writing to out
}

// Write rewrites p and writes out everything it can.
func (r *Rewriter) Write(p []byte) (n int, err error) {
	if r.closed {
		return 0, ErrClosed
	}
	if r.err != nil {
		return 0, r.err
	}
	if r.pass {
		r.n += int64(len(p)) // Close checks a recorded page's length
		return r.write(p)
	}
	base := r.n
	r.n += int64(len(p))
	defer func() {
		if v := recover(); v != nil {
			// A bug of ours: the origin's bytes still go out as they are.
			r.plan = nil
			r.failOpen(p, base)
			n, err = len(p), r.err
		}
	}()
	for {
		tt, s, e, ok := r.z.next(p, base)
		if !ok {
			break
		}
		r.token(tt, s, e, p, base)
		r.z.quiet = r.st.headDone && r.st.started // from here on only the tags needs wants
		if r.st.finished() {
			if r.plan != nil {
				c := r.decided()
				r.plan.finish(c, r.sumTo(c, p, base))
			}
			r.failOpen(p, base) // the rest goes out unchanged
			return len(p), r.err
		}
	}
	if r.plan != nil {
		r.sumTo(r.n, p, base) // the next Write's hashes start where p ends
	}
	keep := max(r.z.holdFrom(!r.st.headDone, r.n), r.emitted)
	if r.n-keep > maxTokenBuf {
		// A tag or text run too large to hold: give up rewriting.
		r.plan = nil
		r.failOpen(p, base)
		return len(p), r.err
	}
	r.flushTo(keep, p, base)
	r.keep(keep, p, base)
	return len(p), r.err
}

// Close rewrites the last, incomplete token (text at the end of the page
// may still start the body) and writes out what is left.
func (r *Rewriter) Close() error {
	if r.closed {
		return r.err
	}
	r.closed = true
	if !r.pass && r.err == nil {
		r.atEOF = true
		if tt, s, ok := r.z.eof(r.n); ok && tt != nethtml.ErrorToken {
			r.token(tt, s, r.n, nil, r.n)
		}
		r.flushTo(r.n, nil, r.n)
		r.release()
		if r.plan != nil {
			r.plan.finish(r.n, r.sumTo(r.n, nil, r.n)) // decided to the end
		}
	}
	if r.record != nil && r.plan != nil && r.err == nil && r.n == r.plan.key.id.Length {
		// The whole page, as long as its origin said: the plan is complete.
		r.plan.seal(r.n)
		r.record.put(r.plan)
	}
	return r.err
}

// Abandon drops the rewrite without writing what it holds back: the caller
// gives up on the page (its input stopped decoding, say) and decides what
// the client gets. Write fails with ErrClosed after it.
func (r *Rewriter) Abandon() {
	r.closed = true
	r.release()
}

// token writes what the rewrite state makes of the token [s, e).
func (r *Rewriter) token(tt nethtml.TokenType, s, e int64, p []byte, base int64) {
	if !r.st.needs(tt, r.z.tagName()) {
		return
	}
	raw := r.bytes(s, e, p, base)
	var tag attrSource
	if tt == nethtml.StartTagToken {
		r.tag.reset(raw, r.z.attrs)
		if r.tag.selfClosing {
			tt = nethtml.SelfClosingTagToken
		}
		tag = &r.tag
	}
	if !r.st.token(tt, raw, tag) {
		return
	}
	if raw == nil || s < r.emitted {
		panic("htmlrewrite: rewriting a token already written")
	}
	for _, in := range r.st.ins {
		r.copyTo(s+int64(in.at), p, base)
		r.batch = append(r.batch, in.b...)
		if r.plan != nil {
			c := r.decided()
			r.plan.add(s+int64(in.at), c, r.sumTo(c, p, base), in.b)
		}
	}
}

// recordPlan makes r record its insertions in p.
func (r *Rewriter) recordPlan(p *plan) {
	r.plan = p
	r.sum.SetSeed(planSeed)
	p.finish(0, r.sum.Sum64()) // nothing decided yet: pageSum(nil)
}

// decided is the offset of the input before which the rewriter read every
// byte it has decided on so far: the tokenizer has looked at the bytes
// before z.off and, for a token that a '<' and the letter after it end, at
// that letter, the byte at z.off; at Close, at every byte.
func (r *Rewriter) decided() int64 {
	if r.atEOF {
		return r.n
	}
	return min(r.z.off+1, r.n)
}

// sumTo hashes the input up to c (in p, whose first byte is at base: the
// input before base is hashed at the end of each Write) and returns the
// hash of the input before c.
func (r *Rewriter) sumTo(c int64, p []byte, base int64) uint64 {
	if c > r.hashed {
		r.sum.Write(p[r.hashed-base : c-base])
		r.hashed = c
	}
	return r.sum.Sum64()
}

// bytes returns the input [s, e), nil when part of it was already written
// (a token the rewrite state never changes: raw text, comments, the body's
// text).
func (r *Rewriter) bytes(s, e int64, p []byte, base int64) []byte {
	if s >= base {
		return p[s-base : e-base]
	}
	held := base - int64(len(r.hold))
	if s < held {
		return nil
	}
	if e <= base {
		return r.hold[s-held : e-held]
	}
	r.tok = append(append(r.tok[:0], r.hold[s-held:]...), p[:e-base]...)
	return r.tok
}

// copyTo adds the input [r.emitted, x) to the batch.
func (r *Rewriter) copyTo(x int64, p []byte, base int64) {
	if x <= r.emitted {
		return
	}
	if r.emitted < base {
		held := base - int64(len(r.hold))
		to := min(x, base)
		r.batch = append(r.batch, r.hold[r.emitted-held:to-held]...)
		r.emitted = to
	}
	if x > r.emitted {
		r.batch = append(r.batch, p[r.emitted-base:x-base]...)
		r.emitted = x
	}
}

// flushTo writes the batch and the input up to x. When nothing was changed
// or held, the input is written as it came, without a copy.
func (r *Rewriter) flushTo(x int64, p []byte, base int64) {
	if len(r.batch) == 0 && r.emitted >= base {
		if x > r.emitted {
			r.write(p[r.emitted-base : x-base])
			r.emitted = x
		}
		return
	}
	r.copyTo(x, p, base)
	r.write(r.batch)
	r.batch = r.batch[:0]
}

// keep holds the input [x, r.n) for the next Write.
func (r *Rewriter) keep(x int64, p []byte, base int64) {
	held := base - int64(len(r.hold))
	if x < base {
		r.hold = append(r.hold[:copy(r.hold, r.hold[x-held:])], p...)
	} else {
		r.hold = append(r.hold[:0], p[x-base:]...)
	}
}

// failOpen writes the batch, what is held and the rest of p unchanged,
// and lets everything after through as it comes.
func (r *Rewriter) failOpen(p []byte, base int64) {
	r.pass = true
	r.copyTo(base, p, base)
	r.write(r.batch)
	r.write(p[r.emitted-base:])
	r.release()
}

// write writes b to out, recording the first error.
func (r *Rewriter) write(b []byte) (int, error) {
	if len(b) == 0 || r.err != nil {
		return len(b), r.err
	}
	if _, err := r.out.Write(b); err != nil {
		r.err = fmt.Errorf("writing html: %w", err)
	}
	return len(b), r.err
}
