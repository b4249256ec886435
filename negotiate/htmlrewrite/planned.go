package htmlrewrite

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"
)

// A page its origin names (PageID) is planned before its bytes arrive:
// LookupPlan finds the plan of its last copy, and a PlanWriter streams the
// page through it, checking the bytes before each insertion as they pass.
// The first copy streams through a Rewriter made by NewRecording, which
// files its plan when the page is complete.

// ErrPlanMismatch is returned by PlanWriter.Close when the page was not the
// one its plan was made for, although its origin named it the same.
var ErrPlanMismatch = errors.New("htmlrewrite: the page is not the one its plan was made for")

// Plan is the recorded rewrite of a page named by a PageID, as LookupPlan
// returns it.
type Plan struct {
	p     *plan
	plans *PlanCache
}

// Len is the length of the rewritten page: the page's with the insertions.
func (pl Plan) Len() int64 { return pl.p.out() }

func idKey(id PageID, inj *Injection) planKey {
	return planKey{inj: maphash.String(planSeed, inj.Key), id: id}
}

// LookupPlan returns the plan of the page id with inj, if plans has one.
// An injection without a Key is never planned.
func LookupPlan(plans *PlanCache, id PageID, inj *Injection) (Plan, bool) {
	if plans == nil || inj == nil || inj.Key == "" {
		return Plan{}, false
	}
	p := plans.get(idKey(id, inj))
	if p == nil {
		return Plan{}, false
	}
	return Plan{p: p, plans: plans}, true
}

// NewRecording is New for the page id: when the rewrite is complete (Close
// after id.Length bytes, none given up) its plan is filed in plans under
// id. plans may be nil, and an injection without a Key is not recorded.
func NewRecording(w io.Writer, inj *Injection, plans *PlanCache, id PageID) *Rewriter {
	r := New(w, inj)
	if plans != nil && inj != nil && inj.Key != "" && !r.pass {
		r.recordPlan(&plan{key: idKey(id, inj)})
		r.record = plans
	}
	return r
}

// PlanWriter streams a page through the plan of its last copy: it copies
// the page to its writer, inserting the plan's bytes where they go. An
// insertion is made only once the page's bytes up to the point where the
// rewriter decided it (the end of the tag it goes into or before) hash as
// the plan's: those bytes, a tag at most, are held until then. The origin
// named the page the same, so they match; if they do not, the held bytes
// and the rest of the page pass untouched, the plan is dropped, and Close
// makes up the length the plan promised (Len) with spaces after the page's
// last byte (white space at the end of a document changes nothing it shows)
// and reports ErrPlanMismatch. After the last insertion nothing is hashed:
// every insertion made is one the rewrite of this page makes, where it
// makes it; bytes that differ further on could only have earned another
// insertion (a form matched there), never moved one. With form rules the
// rewriter reads a page to its end, and checking those bytes too would
// cost a hash of the whole page on every request (0.3 ms a MiB).
type PlanWriter struct {
	out    io.Writer
	p      *plan
	plans  *PlanCache
	next   int          // the next edit to make
	n      int          // the page's bytes so far
	sum    maphash.Hash // of the page's bytes before n, while a check is left
	hold   []byte       // the page's bytes [n-len(hold), n), for the next edit's check
	out1   []byte       // what one Write sends, collected so it goes out in one write
	owed   int          // bytes of the insertions not made after a failed check
	bad    error        // the failed check, reported by Close
	err    error        // the first error writing to out
	closed bool
}

// NewPlanWriter returns a PlanWriter that writes the page planned by pl to w.
func NewPlanWriter(w io.Writer, pl Plan) *PlanWriter {
	pw := new(PlanWriter)
	pw.Reset(w, pl)
	return pw
}

// Reset makes w a new PlanWriter of the page planned by pl to out, so
// that a caller may keep one in a structure it reuses (its buffers are
// kept for the next page).
func (w *PlanWriter) Reset(out io.Writer, pl Plan) {
	hold, out1 := keepBuf(w.hold), keepBuf(w.out1)
	*w = PlanWriter{out: out, p: pl.p, plans: pl.plans, hold: hold, out1: out1}
	w.sum.SetSeed(planSeed)
}

// keepBuf is b emptied, or nil when it is too large to keep.
func keepBuf(b []byte) []byte {
	if cap(b) > maxPooledBuf {
		return nil
	}
	return b[:0]
}

// Write copies p, with the insertions that fall in it.
func (w *PlanWriter) Write(p []byte) (int, error) {
	if w.closed {
		return 0, ErrClosed
	}
	n := len(p)
	for len(p) > 0 && w.err == nil {
		if w.next == len(w.p.edits) {
			w.n += len(p) // no insertion left: copied as it comes
			w.write(p)
			break
		}
		e := &w.p.edits[w.next]
		if len(w.hold) == 0 && w.n < e.off {
			k := min(len(p), e.off-w.n)
			w.take(p[:k])
			w.write(p[:k])
			p = p[k:]
			continue
		}
		k := min(len(p), e.check-w.n)
		w.take(p[:k])
		w.hold = append(w.hold, p[:k]...)
		p = p[k:]
		if w.n == e.check {
			w.verify()
		}
	}
	w.flush()
	if w.err != nil {
		return 0, w.err
	}
	return n, nil
}

// take counts and hashes bytes of the page, for the checks left.
func (w *PlanWriter) take(b []byte) {
	w.sum.Write(b)
	w.n += len(b)
}

// verify checks the next edit once the page has reached its check offset:
// if the bytes before hash as the plan's, every edit decided on them is
// made into the held bytes, which go out up to the next edit still to be
// checked; otherwise the plan is given up.
func (w *PlanWriter) verify() {
	e := &w.p.edits[w.next]
	if w.sum.Sum64() != e.sum {
		w.giveUp(fmt.Errorf("%w: the bytes before offset %d differ", ErrPlanMismatch, e.check))
		return
	}
	from := w.n - len(w.hold) // the offset of hold[0]
	at := from
	for w.next < len(w.p.edits) && w.p.edits[w.next].check <= w.n {
		e := &w.p.edits[w.next]
		w.write(w.hold[at-from : e.off-from])
		w.write(e.ins)
		at = e.off
		w.next++
	}
	stop := w.n
	if w.next < len(w.p.edits) {
		stop = min(stop, w.p.edits[w.next].off)
	}
	w.write(w.hold[at-from : stop-from])
	w.hold = w.hold[:copy(w.hold, w.hold[stop-from:])]
}

// giveUp writes the held bytes as they are, owes the insertions not made,
// and drops the plan: the rest of the page passes untouched.
func (w *PlanWriter) giveUp(why error) {
	w.bad = why
	w.write(w.hold)
	w.hold = w.hold[:0]
	for _, rest := range w.p.edits[w.next:] {
		w.owed += len(rest.ins)
	}
	w.next = len(w.p.edits)
	w.plans.drop(w.p)
}

// Close makes the insertions at the page's end and, after a failed check,
// the spaces owed. A page shorter or longer than its plan's is reported
// and nothing is added: the response cannot have the length promised.
func (w *PlanWriter) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.err != nil {
		return w.err
	}
	if w.n != w.p.n {
		w.plans.drop(w.p)
		return fmt.Errorf("%w: the page has %d bytes, its plan %d", ErrPlanMismatch, w.n, w.p.n)
	}
	if w.next < len(w.p.edits) {
		w.verify() // only edits checked at the page's end are left
	}
	for w.owed > 0 && w.err == nil {
		k := min(w.owed, len(spaces))
		w.write(spaces[:k])
		w.owed -= k
	}
	w.flush()
	if w.err != nil {
		return w.err
	}
	return w.bad
}

var spaces = []byte("                                                                ")

// write sends b: the pieces of one Write (the page's bytes between the
// insertions, and the insertions) are collected and go out in one write
// at its end (flush), instead of one write each through every writer
// between here and the connection (4 writes a page instead of 1 with the
// demo's annotations, about 1,400 instructions each under Caddy). A
// piece larger than coalesceMax goes out as it is, after what was
// collected.
func (w *PlanWriter) write(b []byte) {
	if w.err != nil || len(b) == 0 {
		return
	}
	if len(w.out1)+len(b) > maxPooledBuf {
		w.flush()
	}
	if len(b) <= coalesceMax || len(w.out1) > 0 {
		w.out1 = append(w.out1, b...)
		return
	}
	w.send(b)
}

// coalesceMax is the largest piece write collects when nothing is
// collected yet: a larger one (a chunk of the page after the last
// insertion, say) is not worth a copy to save a write.
const coalesceMax = 4 << 10

// flush sends what write collected.
func (w *PlanWriter) flush() {
	if len(w.out1) == 0 {
		return
	}
	w.send(w.out1)
	w.out1 = w.out1[:0]
}

func (w *PlanWriter) send(b []byte) {
	if w.err != nil {
		return
	}
	if _, err := w.out.Write(b); err != nil {
		w.err = fmt.Errorf("writing html: %w", err)
	}
}
