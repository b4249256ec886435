package selfcheck

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Scan scans target and returns its report: it fetches the home page,
// follows its redirects to the site's origin, picks the routes (the home
// page and up to Options.Pages pages that represent the site, see
// sitemapRoutes), runs every lens over the one
// shared site, and scores the report.
//
// The error is non-nil only when nothing could be scanned: target is not an
// absolute http(s) URL, or the home page gave no HTTP answer at all
// (refused, timeout, TLS error, redirect loop, oversize). In the second case
// the report is returned too, every check COULD_NOT_CHECK with the home
// page's receipt.
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
		for _, l := range lenses {
			l.unreachable(s, home.resp, r)
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
	for _, l := range lenses {
		l.run(ctx, s, r)
	}
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
			Reason: "an authenticated tool call needs credentials the scanner never holds; it never signs in and never calls a tool (docs/standard.md#rule-1)",
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
	r.CheckpointSummary = r.checkpointSummary()
	if r.Lint != nil {
		r.Lint.count()
	}
	r.Plan = r.plan()
}

// redactAll redacts a list of URLs.
func redactAll(urls []string) []string {
	out := make([]string, len(urls))
	for i, u := range urls {
		out[i] = redactURL(u)
	}
	return out
}
