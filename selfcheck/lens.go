package selfcheck

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// A lens is one way of judging a scanned site: a catalogue of checkpoints
// with verdicts of their own, run over the same site as every other lens
// (one fetch cache, one set of parsed documents, one redactor), so that two
// lenses judging the same thing see the same answers. The 100-point score of
// STANDARD.md §1 is the first lens; a lens added after it reports beside the
// score and never changes it (STANDARD.md §11, §12).
type lens interface {
	// run judges the site and records the lens's findings in r.
	run(ctx context.Context, s *site, r *Report)
	// unreachable records the lens's findings when the home page gave no
	// answer at all: every checkpoint COULD_NOT_CHECK, with the home
	// page's receipt.
	unreachable(s *site, home *response, r *Report)
}

// lenses are the lenses Scan runs, in order. Each lives in a
// lens_<name>.go file of its own: its catalogue, its run, and where its
// findings go in the Report; a new lens is appended here.
var lenses = []lens{scoreLens{}, protocolLens{}, lintLens{}}

// scoreLens is the 100-point lens: the 35 checks of the catalogue
// (catalogue.go), implemented section by section in the check_<section>.go
// files, weighed into Report.Checks and scored by Report.score.
type scoreLens struct{}

// run runs the catalogue into r.Checks.
func (scoreLens) run(ctx context.Context, s *site, r *Report) {
	r.Checks = runChecks(ctx, s, s.opts)
	if s.opts.Only != "" {
		// --check ID: just that check (none when ID names another lens's).
		var kept []CheckResult
		for _, c := range r.Checks {
			if c.ID == s.opts.Only {
				kept = append(kept, c)
			}
		}
		r.Checks = kept
	}
}

// unreachable records every check as COULD_NOT_CHECK with the home page's
// receipt.
func (scoreLens) unreachable(s *site, home *response, r *Report) {
	for _, c := range catalogue {
		if s.opts.Only != "" && s.opts.Only != c.ID {
			continue
		}
		o := s.couldNotCheck(home, "the home page answers")
		o.scope = []string{s.home}
		r.Checks = append(r.Checks, result(c, o))
	}
}

// checkFunc decides one check.
type checkFunc func(ctx context.Context, s *site) outcome

// checkFuncs maps every catalogue id to its implementation; filled by the
// check_*.go files.
var checkFuncs = map[string]checkFunc{}

// register adds check implementations; called from init in the check files.
func register(fns map[string]checkFunc) {
	for id, fn := range fns {
		checkFuncs[id] = fn
	}
}

// runChecks runs the catalogue with bounded concurrency, in catalogue order
// in the result whatever the finishing order.
func runChecks(ctx context.Context, s *site, opts Options) []CheckResult {
	out := make([]CheckResult, len(catalogue))
	var done atomic.Int64
	var wg sync.WaitGroup
	sem := make(chan struct{}, opts.Concurrency)
	for i, c := range catalogue {
		if opts.Only != "" && opts.Only != c.ID {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i] = result(c, s.scored(ctx, c.ID))
			n := done.Add(1)
			if opts.Progress != nil {
				opts.Progress(int(n), len(catalogue))
			}
		}()
	}
	wg.Wait()
	return out
}

// runOne runs one check, turning a panic into COULD_NOT_CHECK so that no
// input can crash a scan.
func runOne(ctx context.Context, s *site, c CheckInfo) (o outcome) {
	fn := checkFuncs[c.ID]
	if fn == nil {
		return outcome{verdict: CouldNotCheck, missing: "check not implemented"}
	}
	defer func() {
		if v := recover(); v != nil {
			o = outcome{verdict: CouldNotCheck, missing: fmt.Sprintf("internal error: %v", v)}
		}
	}()
	o = fn(ctx, s)
	if o.scope == nil {
		o.scope = []string{}
	}
	return o
}

// result turns an outcome into the check's entry of the report.
func result(c CheckInfo, o outcome) CheckResult {
	v := o.verdict
	if c.Optional && v != CouldNotCheck {
		v = Optional
	}
	if c.Optional && v == CouldNotCheck {
		v = Optional
		if o.found == nil {
			f := false
			o.found = &f
		}
	}
	// Every free-text field passes the redactor once more: whatever a
	// check wrote, no credential reaches a report.
	// Outcomes from s.scored are redacted already; the note of one made
	// here (COULD_NOT_CHECK) passes the redactor again, which is cheap.
	o.receipt.Note = redactText(o.receipt.Note)
	if o.verdict != Pass && o.receipt.Cause == "" {
		o.receipt.Cause = o.cause
	}
	return CheckResult{fix: o.fix,
		ID: c.ID, Title: c.Title, Section: c.Section, Requirement: c.Requirement,
		Weight: c.Weight, Verdict: v, Fraction: o.fraction, Missing: redactText(o.missing),
		Found: o.found, Scope: redactAll(o.scope), Receipt: o.receipt,
	}
}

// redactReceipt passes a receipt's free text through the redactor once
// more, copying what it changes (outcomes are shared between lenses).
func redactReceipt(rc Receipt) Receipt {
	rc.Note = redactText(rc.Note)
	rc.Routes = append([]RouteFinding(nil), rc.Routes...)
	for i := range rc.Routes {
		f := &rc.Routes[i]
		f.Route, f.Received, f.Missing = redactURL(f.Route), redactText(f.Received), redactText(f.Missing)
	}
	return rc
}
