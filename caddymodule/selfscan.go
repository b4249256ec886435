package caddymodule

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/caddyserver/caddy/v2"
	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/fleet"
	"github.com/agentready/caddy-agentready/internal/answered"
	"github.com/agentready/caddy-agentready/internal/outsider"
	"github.com/agentready/caddy-agentready/internal/telemetry"
	"github.com/agentready/caddy-agentready/selfcheck"
)

// internalKey marks, in a request's context, a request the module makes to
// its own site through the in-process transport: the self-scan's and the
// content index's. The mark lives only in the context, never in a header,
// so no client can forge it, no log line prints it and the origin never
// sees it; the metrics and the access log leave those requests out.
type internalKey struct{}

// isInternal reports whether r was made by this process's self-scan or
// content index. Every such request comes from outsider.RemoteAddr, so a
// visitor's request is told apart by its address alone, without the walk
// up the context's chain of values (a few hundred instructions, several
// times per request on the browser path); the mark in the context decides.
func isInternal(r *http.Request) bool {
	if r.RemoteAddr != outsider.RemoteAddr {
		return false
	}
	marked, _ := r.Context().Value(internalKey{}).(bool)
	return marked
}

// siteScans holds the self-score of every site that uses the handler. The
// entries outlive config reloads (a usage pool counts the configs that use
// each), so the admin endpoint keeps answering with the last complete report
// while the new config scans again.
var siteScans = caddy.NewUsagePool()

// siteScan is the self-score state of one site.
type siteScan struct {
	key string

	mu       sync.Mutex
	scanner  *scanner // of the newest config that uses the site
	report   *selfcheck.Report
	rendered map[string][]byte // by format
	finished time.Time
	running  bool
	lastErr  string
	// answered is whether the site answered the scan of report (see
	// answered.Page): a report of a site that answered is not replaced by
	// one of a site that did not.
	answered bool
}

// Destruct implements caddy.Destructor: nothing to release but the entry.
func (s *siteScan) Destruct() error { return nil }

// scanner is one config's way to scan one site.
type scanner struct {
	target  string
	note    string // why target: the setting it comes from
	handler http.Handler
	site    outsider.Site // how its requests visit the site
	warning string        // why they may not reach it (siteaddr.Reach)
	opts    selfcheck.Options
	timeout time.Duration
	logger  *zap.Logger
	// pages is closed once the site's pages are discovered (see
	// sitePages); a scan waits for it, at most its timeout, so that it
	// chooses its pages among them. nil: nothing to wait for.
	pages <-chan struct{}
	// fleet, when set, scans once per fresh for the instances that
	// share it (see fleetScan).
	fleet *fleet.Fleet
	fresh time.Duration
}

// status is what the admin endpoint shows about a site.
type status struct {
	Site   string `json:"site"`
	Target string `json:"target"`
	Why    string `json:"target_note,omitempty"`
	// Warning says why the module's own requests may not reach the site,
	// and how to fix it (see siteaddr.Reach).
	Warning  string    `json:"warning,omitempty"`
	Running  bool      `json:"running"`
	Finished time.Time `json:"finished,omitzero"`
	Score    *float64  `json:"score,omitempty"`
	Error    string    `json:"error,omitempty"`
	// ScannedBy is the instance of the fleet whose scan the report is.
	ScannedBy string `json:"scanned_by,omitempty"`
}

func (s *siteScan) status() status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := status{Site: s.key, Running: s.running, Finished: s.finished, Error: s.lastErr}
	if s.scanner != nil {
		st.Target, st.Why, st.Warning = s.scanner.target, s.scanner.note, s.scanner.warning
	}
	if s.report != nil {
		score := s.report.Score
		st.Score = &score
	}
	st.ScannedBy = string(s.rendered[renderedBy])
	return st
}

// errScanRunning is returned when a scan is asked for while one runs: scans
// of a site never overlap.
var errScanRunning = errors.New("a scan of this site is already running")

// run scans the site once with the newest config's scanner. It never
// overlaps itself, and keeps the previous report when the scan fails.
func (s *siteScan) run(ctx context.Context) error {
	s.mu.Lock()
	if s.running {
		s.mu.Unlock()
		return errScanRunning
	}
	sc := s.scanner
	if sc == nil {
		s.mu.Unlock()
		return errors.New("site has no active configuration")
	}
	s.running = true
	s.mu.Unlock()

	if sc.pages != nil {
		t := time.NewTimer(sc.timeout)
		select {
		case <-sc.pages:
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
	start := time.Now()
	rep, rendered, missed, err := sc.scan(ctx)

	s.mu.Lock()
	defer s.mu.Unlock()
	s.running = false
	if err != nil {
		s.lastErr = err.Error()
		sc.logger.Error("self-scan failed",
			zap.String("site", s.key),
			zap.String("target", sc.target),
			zap.Duration("duration", time.Since(start)),
			zap.Error(err))
		return err
	}
	if missed != nil && s.report != nil && s.answered {
		// The site did not answer this scan (still starting, a 502): keep
		// the report of the last scan it answered; the schedule retries.
		s.lastErr = fmt.Sprintf("the site did not answer the last scan (%v); the report shown is of %s",
			missed, s.finished.UTC().Format(time.RFC3339))
		sc.logger.Warn("self-scan: the site did not answer; keeping the last report",
			zap.String("site", s.key), zap.String("target", sc.target), zap.Error(missed))
		return fmt.Errorf("%w: %v", errNotAnswered, missed)
	}
	s.lastErr = ""
	s.report, s.rendered, s.finished, s.answered = rep, rendered, time.Now(), missed == nil
	sc.logger.Info("self-scan complete",
		zap.String("site", s.key),
		zap.String("target", sc.target),
		zap.Float64("score", rep.Score),
		zap.Duration("duration", time.Since(start)),
		zap.Strings("checks_failed", failedChecks(rep)))
	telemetry.SelfScore(s.key, rep.Score)
	if missed != nil {
		s.lastErr = fmt.Sprintf("the site did not answer the scan (%v): the report judges that answer", missed)
		sc.logger.Warn("self-scan: the site did not answer", zap.String("site", s.key), zap.String("target", sc.target), zap.Error(missed))
		return fmt.Errorf("%w: %v", errNotAnswered, missed)
	}
	return nil
}

// scan runs one scan of the site in process, within the scan's timeout,
// and renders its report; missed says why the site's home page did not
// answer (nil when it did).
func (sc *scanner) scan(ctx context.Context) (rep *selfcheck.Report, rendered map[string][]byte, missed, err error) {
	if sc.fleet != nil {
		return sc.fleetScan(ctx)
	}
	return sc.scanHere(ctx)
}

// scanHere is scan in this instance.
func (sc *scanner) scanHere(ctx context.Context) (rep *selfcheck.Report, rendered map[string][]byte, missed, err error) {
	ctx, cancel := context.WithTimeout(ctx, sc.timeout)
	defer cancel()
	opts := sc.opts
	home := &homeAnswer{rt: inProcessTransport{handler: sc.handler, site: sc.site}}
	home.target, _ = url.Parse(sc.target)
	opts.Transport = home
	rep, err = selfcheck.Scan(ctx, sc.target, opts)
	missed = home.problem()
	if err != nil {
		return nil, nil, missed, err
	}
	rep.TargetNote = sc.note
	js, err := rep.JSON()
	if err != nil {
		return nil, nil, missed, err
	}
	return rep, map[string][]byte{"json": js, "md": rep.Markdown(), "html": rep.HTML()}, missed, nil
}

// failedChecks are the ids of the checks a report FAILs or could not
// check, sorted.
func failedChecks(rep *selfcheck.Report) []string {
	var failed []string
	for _, c := range rep.Checks {
		if c.Verdict == selfcheck.Fail || c.Verdict == selfcheck.CouldNotCheck {
			failed = append(failed, c.ID)
		}
	}
	sort.Strings(failed)
	return failed
}

// errNotAnswered is returned by a scan that met a site that did not
// answer its home page (answered.Page): the schedule retries it after a
// backoff rather than after the interval.
var errNotAnswered = errors.New("the site did not answer")

// homeAnswer carries the self-scan's requests and records the answer to
// the first GET of the target, for answered.Page.
type homeAnswer struct {
	rt     http.RoundTripper
	target *url.URL

	mu     sync.Mutex
	seen   bool
	status int
	ctype  string
	err    error
	n      atomic.Int64 // body bytes read
}

// RoundTrip implements http.RoundTripper.
func (h *homeAnswer) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := h.rt.RoundTrip(req)
	if h.target == nil || req.Method != http.MethodGet || req.URL.Host != h.target.Host ||
		strings.TrimSuffix(req.URL.Path, "/") != strings.TrimSuffix(h.target.Path, "/") {
		return resp, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seen {
		return resp, err
	}
	h.seen, h.err = true, err
	if err == nil {
		h.status, h.ctype = resp.StatusCode, resp.Header.Get("Content-Type")
		resp.Body = &countingBody{ReadCloser: resp.Body, n: &h.n}
	}
	return resp, err
}

// problem is why the site did not answer the target, nil when it did or
// was never asked.
func (h *homeAnswer) problem() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.seen {
		return nil
	}
	return answered.Page(h.status, h.ctype, h.n.Load(), h.err)
}

// countingBody counts the bytes read through it.
type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// sitesSnapshot lists the registered sites, sorted by key.
func sitesSnapshot() []*siteScan {
	var out []*siteScan
	siteScans.Range(func(_, v any) bool {
		out = append(out, v.(*siteScan))
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

func lookupSite(key string) *siteScan {
	var found *siteScan
	siteScans.Range(func(k, v any) bool {
		if k.(string) == key {
			found = v.(*siteScan)
			return false
		}
		return true
	})
	return found
}
