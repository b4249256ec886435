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
		r.plan, r.record = &plan{key: idKey(id, inj)}, plans
	}
	return r
}

// PlanWriter streams a page through the plan of its last copy: it copies
// the page to its writer, inserting the plan's bytes where they go, and
// holds nothing back. Before each insertion it checks the 8 bytes of the
// page before it against the plan; the origin named the page the same, so
// they match, but if one does not, the rest of the page passes untouched,
// the plan is dropped, and Close makes up the length the plan promised
// (Len) with spaces after the page's last byte (white space at the end of
// a document changes nothing it shows) and reports ErrPlanMismatch.
type PlanWriter struct {
	out    io.Writer
	p      *plan
	plans  *PlanCache
	next   int   // the next edit to make
	n      int   // the page's bytes so far
	last   tail8 // the page's last bytes, for the next check
	owed   int   // bytes of the insertions not made after a failed check
	bad    error // the failed check, reported by Close
	err    error // the first error writing to out
	closed bool
}

// NewPlanWriter returns a PlanWriter that writes the page planned by pl to w.
func NewPlanWriter(w io.Writer, pl Plan) *PlanWriter {
	pw := new(PlanWriter)
	pw.Reset(w, pl)
	return pw
}

// Reset makes w a new PlanWriter of the page planned by pl to out, so
// that a caller may keep one in a structure it reuses.
func (w *PlanWriter) Reset(out io.Writer, pl Plan) {
	*w = PlanWriter{out: out, p: pl.p, plans: pl.plans}
}

// Write copies p, with the insertions that fall in it.
func (w *PlanWriter) Write(p []byte) (int, error) {
	if w.closed {
		return 0, ErrClosed
	}
	n := len(p)
	for w.next < len(w.p.edits) && w.err == nil {
		k := w.p.edits[w.next].off - w.n
		if k > len(p) {
			break
		}
		w.copy(p[:k])
		p = p[k:]
		w.insert()
	}
	w.copy(p)
	if w.err != nil {
		return 0, w.err
	}
	return n, nil
}

// copy writes bytes of the page.
func (w *PlanWriter) copy(b []byte) {
	if len(b) == 0 || w.err != nil {
		return
	}
	w.n += len(b)
	if w.next < len(w.p.edits) {
		w.last.push(b)
	}
	w.write(b)
}

// insert makes the next edit, whose offset the page has reached, if the
// bytes before it are the plan's; otherwise it gives up the rest.
func (w *PlanWriter) insert() {
	e := &w.p.edits[w.next]
	if w.last.value() != e.before {
		w.bad = fmt.Errorf("%w: the bytes before offset %d differ", ErrPlanMismatch, e.off)
		for _, rest := range w.p.edits[w.next:] {
			w.owed += len(rest.ins)
		}
		w.next = len(w.p.edits)
		w.plans.drop(w.p)
		return
	}
	w.write(e.ins)
	w.next++
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
	for w.next < len(w.p.edits) && w.err == nil {
		w.insert() // only edits at the page's end are left
	}
	for w.owed > 0 && w.err == nil {
		k := min(w.owed, len(spaces))
		w.write(spaces[:k])
		w.owed -= k
	}
	if w.err != nil {
		return w.err
	}
	return w.bad
}

var spaces = []byte("                                                                ")

func (w *PlanWriter) write(b []byte) {
	if w.err != nil || len(b) == 0 {
		return
	}
	if _, err := w.out.Write(b); err != nil {
		w.err = fmt.Errorf("writing html: %w", err)
	}
}
