package selfcheck

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

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

// Scan scans target and returns its report. The error is non-nil only when
// nothing could be scanned: target is not an absolute http(s) URL, or the
// home page gave no HTTP answer at all (refused, timeout, TLS error,
// redirect loop, oversize). In the second case the report is returned too,
// every check COULD_NOT_CHECK with the home page's receipt.
func Scan(ctx context.Context, target string, opts Options) (*Report, error) {
	opts = opts.withDefaults()
	u, err := url.Parse(strings.TrimSpace(target))
	if err != nil {
		return nil, fmt.Errorf("parsing target %q: %v", target, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("target %q: want an absolute http or https URL", target)
	}
	if u.Path == "" {
		u.Path = "/"
	}
	u.Fragment = ""
	started := opts.Now()
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()

	origin := &url.URL{Scheme: u.Scheme, Host: u.Host}
	f := newFetcher(origin, opts)
	defer f.close()
	s := newSite(f, origin, u.String(), opts)
	home := s.page(ctx, s.home)
	if home.resp.failed() {
		r := newReport(u.String(), started, []string{u.String()})
		for _, c := range catalogue {
			o := s.couldNotCheck(home.resp, "the home page answers")
			o.scope = []string{u.String()}
			r.Checks = append(r.Checks, result(c, o))
		}
		r.finish(opts.Now())
		return r, fmt.Errorf("scanning %s: home page: %s", redactURL(u.String()), home.resp.errText())
	}
	// Follow the home page's redirects to the site's real origin (an
	// http→https hop is common) unless requests must stay on the target's.
	if fu, err := url.Parse(home.resp.finalURL); err == nil && fu.Host != "" && !opts.SameOriginOnly {
		s.origin = &url.URL{Scheme: fu.Scheme, Host: fu.Host}
	}
	s.setRoutes(append([]string{u.String()}, s.sitemapRoutes(ctx, opts.Pages)...))
	r := newReport(u.String(), started, s.routes)
	r.Checks = runChecks(ctx, s, opts)
	r.finish(opts.Now())
	return r, nil
}

// newReport starts a report.
func newReport(target string, started time.Time, routes []string) *Report {
	return &Report{
		SchemaVersion: SchemaVersion,
		Standard:      StandardRef{Name: StandardName, Revision: StandardRevision},
		Scanner:       ScannerRef{Name: "agentready-selfcheck", Version: Version},
		Target:        redactURL(target),
		Started:       started.UTC(),
		Routes:        redactAll(routes),
		Unverified: []UnverifiedLine{{
			ID: "execution_tested", Section: SectionConnect, Verdict: Unverified,
			Reason: "an authenticated tool call needs credentials the scanner never holds; it never signs in and never calls a tool (rule 1)",
		}},
	}
}

// finish computes the totals and the duration.
func (r *Report) finish(now time.Time) {
	r.DurationMS = now.Sub(r.Started).Milliseconds()
	if r.DurationMS < 0 {
		r.DurationMS = 0
	}
	r.score()
}

// runChecks runs the catalogue with bounded concurrency, in catalogue order
// in the result whatever the finishing order.
func runChecks(ctx context.Context, s *site, opts Options) []CheckResult {
	out := make([]CheckResult, len(catalogue))
	var done atomic.Int64
	var wg sync.WaitGroup
	sem := make(chan struct{}, opts.Concurrency)
	for i, c := range catalogue {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i] = result(c, runOne(ctx, s, c))
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
	rc := o.receipt
	rc.Note = redactText(rc.Note)
	rc.Routes = append([]RouteFinding(nil), rc.Routes...)
	for i := range rc.Routes {
		f := &rc.Routes[i]
		f.Route, f.Received, f.Missing = redactURL(f.Route), redactText(f.Received), redactText(f.Missing)
	}
	o.receipt = rc
	return CheckResult{
		ID: c.ID, Title: c.Title, Section: c.Section, Requirement: c.Requirement,
		Weight: c.Weight, Verdict: v, Fraction: o.fraction, Missing: redactText(o.missing),
		Found: o.found, Scope: redactAll(o.scope), Receipt: o.receipt,
	}
}

// redactAll redacts a list of URLs.
func redactAll(urls []string) []string {
	out := make([]string, len(urls))
	for i, u := range urls {
		out[i] = redactURL(u)
	}
	return out
}
