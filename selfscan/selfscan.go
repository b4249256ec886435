// Package selfscan runs the module's self-score of a site: it drives the
// scanner (package selfcheck) against the site through a transport the
// glue gives it (Caddy's own server, in process), never overlapping itself,
// on a schedule with a backoff while the site does not answer, once per
// interval for a fleet of instances (package fleet), and keeps the last
// complete report and its renderings for the admin endpoint. It imports no
// Caddy package, and selfcheck imports nothing of it.
package selfscan

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/internal/answered"
	"github.com/agentready/caddy-agentready/internal/telemetry"
	"github.com/agentready/caddy-agentready/selfcheck"
)

// Site is the self-score state of one site. It outlives the configs that
// scan it (the glue keeps it in a pool counting them), so the admin
// endpoint keeps answering with the last complete report while a new
// config scans again.
type Site struct {
	key string

	mu       sync.Mutex
	scanner  *Scanner // of the newest config that uses the site
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

// NewSite returns the state of the site named key, not scanned yet.
func NewSite(key string) *Site { return &Site{key: key} }

// Key names the site.
func (s *Site) Key() string { return s.key }

// Destruct lets go of the site (caddy.Destructor): nothing to release.
func (s *Site) Destruct() error { return nil }

// SetScanner makes sc the scanner of the site's next scans (the newest
// config's).
func (s *Site) SetScanner(sc *Scanner) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scanner = sc
}

// Rendered is the last complete report in each format ("json", "md",
// "html"; RenderedBy names the fleet's instance that ran it), nil before
// the first.
func (s *Site) Rendered() map[string][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rendered
}

// Status is what the admin endpoint shows about a site.
type Status struct {
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

// Status is the site's state now.
func (s *Site) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{Site: s.key, Running: s.running, Finished: s.finished, Error: s.lastErr}
	if s.scanner != nil {
		st.Target, st.Why, st.Warning = s.scanner.Target, s.scanner.Note, s.scanner.Warning
	}
	if s.report != nil {
		score := s.report.Score
		st.Score = &score
	}
	st.ScannedBy = string(s.rendered[RenderedBy])
	return st
}

// PendingMessage says, before the first complete scan, why there is no
// report yet.
func (st Status) PendingMessage() string {
	msg := "No self-scan has completed yet for " + st.Site + "."
	if st.Running {
		msg += " A scan is running; reload in a few seconds."
	}
	if st.Error != "" {
		msg += " The last attempt failed: " + st.Error
	}
	return msg
}

// ErrRunning is returned when a scan is asked for while one runs: scans
// of a site never overlap.
var ErrRunning = errors.New("a scan of this site is already running")

// ErrNotAnswered is returned by a scan that met a site that did not
// answer its home page (answered.Page): the schedule retries it after a
// backoff rather than after the interval.
var ErrNotAnswered = errors.New("the site did not answer")

// Run scans the site once with the newest config's scanner. It never
// overlaps itself, and keeps the previous report when the scan fails.
func (s *Site) Run(ctx context.Context) error {
	s.mu.Lock()
	if s.running {
		s.mu.Unlock()
		return ErrRunning
	}
	sc := s.scanner
	if sc == nil {
		s.mu.Unlock()
		return errors.New("site has no active configuration")
	}
	s.running = true
	s.mu.Unlock()

	sc.waitPages(ctx)
	start := time.Now()
	rep, rendered, missed, err := sc.scan(ctx)

	s.mu.Lock()
	defer s.mu.Unlock()
	s.running = false
	if err != nil {
		s.lastErr = err.Error()
		sc.Logger.Error("self-scan failed",
			zap.String("site", s.key),
			zap.String("target", sc.Target),
			zap.Duration("duration", time.Since(start)),
			zap.Error(err))
		return err
	}
	return s.keep(sc, start, rep, rendered, missed)
}

// keep takes the report of a scan that ran, unless the site did not
// answer it and an answered report is kept; s.mu is held.
func (s *Site) keep(sc *Scanner, start time.Time, rep *selfcheck.Report, rendered map[string][]byte, missed error) error {
	if missed != nil && s.report != nil && s.answered {
		// The site did not answer this scan (still starting, a 502): keep
		// the report of the last scan it answered; the schedule retries.
		s.lastErr = fmt.Sprintf("the site did not answer the last scan (%v); the report shown is of %s",
			missed, s.finished.UTC().Format(time.RFC3339))
		sc.Logger.Warn("self-scan: the site did not answer; keeping the last report",
			zap.String("site", s.key), zap.String("target", sc.Target), zap.Error(missed))
		return fmt.Errorf("%w: %v", ErrNotAnswered, missed)
	}
	s.lastErr = ""
	s.report, s.rendered, s.finished, s.answered = rep, rendered, time.Now(), missed == nil
	sc.Logger.Info("self-scan complete",
		zap.String("site", s.key),
		zap.String("target", sc.Target),
		zap.Float64("score", rep.Score),
		zap.Duration("duration", time.Since(start)),
		zap.Strings("checks_failed", failedChecks(rep)))
	telemetry.SelfScore(s.key, rep.Score)
	if missed != nil {
		s.lastErr = fmt.Sprintf("the site did not answer the scan (%v): the report judges that answer", missed)
		sc.Logger.Warn("self-scan: the site did not answer", zap.String("site", s.key), zap.String("target", sc.Target), zap.Error(missed))
		return fmt.Errorf("%w: %v", ErrNotAnswered, missed)
	}
	return nil
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

// Schedule scans the site first after delay, then every interval (never
// again when interval <= 0) until ctx ends. A scan still running (of the
// previous config, after a reload) is tried again a second later; a site
// that did not answer after a doubling backoff from retryMin, at most the
// interval (an hour when the scan runs once).
func (s *Site) Schedule(ctx context.Context, delay, interval, retryMin time.Duration) {
	wait := delay
	missed := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		err := s.Run(ctx)
		if errors.Is(err, ErrRunning) {
			wait = time.Second
			continue
		}
		if errors.Is(err, ErrNotAnswered) && ctx.Err() == nil {
			missed++
			limit := time.Hour
			if interval > 0 && interval < limit {
				limit = interval
			}
			wait = answered.Backoff(missed, retryMin, limit)
			continue
		}
		missed = 0
		if interval <= 0 {
			return
		}
		wait = interval
	}
}
