package connect

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/agentready/caddy-agentready/fulltext"
	"github.com/agentready/caddy-agentready/internal/answered"
)

// Refresh re-reads the page list from the Source and fetches every page,
// sending the validators it holds so an unchanged page costs a 304. Pages the
// Source no longer lists are dropped; a page whose fetch fails keeps its
// previous copy. Only one refresh of a Store runs at a time; a second call
// waits for the first. The error reports a failed refresh: a failed listing
// or index update, or every page fetch failing (single failed pages are
// counted in Stats, not reported). Failed refreshes count in
// Stats.Failures; one cut short by ctx does not.
func (s *Server) Refresh(ctx context.Context) error {
	_, _, err := s.refreshPlanned(ctx, false)
	return err
}

// refreshPlanned is Refresh; when plan is set (the schedule) it also works
// out when the next refresh runs, a backoff after a failure, and records it
// as Stats.NextAttempt in the same update as the refresh's outcome, so the
// status never shows a failure without its retry. ok is false when nothing
// is scheduled (or the refresh was cut short).
func (s *Server) refreshPlanned(ctx context.Context, plan bool) (wait time.Duration, ok bool, err error) {
	st := s.store
	st.refreshMu.Lock()
	defer st.refreshMu.Unlock()
	if s.closed.Load() || st.closed {
		return 0, false, errClosed
	}
	start := s.clock.Now()
	st.progress.update(func(p *Stats) {
		p.Refreshing, p.LastStart, p.NextAttempt = true, start, time.Time{}
		p.Listed, p.Done, p.Fetched, p.NotModified, p.Failed, p.Skipped, p.Removed = 0, 0, 0, 0, 0, 0, 0
	})
	err = s.refresh(ctx)
	end := s.clock.Now()
	recovered := false
	st.progress.update(func(p *Stats) {
		p.Refreshing = false
		p.Refreshes++
		p.LastDuration = end.Sub(start)
		p.LastError = ""
		switch {
		case err == nil:
			recovered = p.Failures > 0
			p.LastSuccess, p.Failures = end, 0
		case ctx.Err() != nil:
			// Cut short by shutdown or a reload: says nothing about the site.
		default:
			p.Failures++
		}
		if err != nil {
			p.LastError = err.Error()
		}
		if plan && ctx.Err() == nil {
			if wait, ok = s.waitAfter(p.Failures); ok {
				p.NextAttempt = end.Add(wait)
			}
		}
	})
	stats := st.Stats()
	level, msg := slog.LevelInfo, "connect: index refreshed"
	if err != nil && ctx.Err() == nil {
		level, msg = slog.LevelWarn, "connect: index refresh failed"
	}
	s.log.Log(context.Background(), level, msg, "state", stats.State, "pages", stats.Pages, "bytes", stats.Bytes,
		"fetched", stats.Fetched, "not_modified", stats.NotModified, "failed", stats.Failed,
		"skipped", stats.Skipped, "removed", stats.Removed, "duration", stats.LastDuration,
		"failures", stats.Failures, "last_success", stats.LastSuccess, "error", stats.LastError)
	if recovered {
		s.log.Info("connect: index refresh recovered", "pages", stats.Pages)
	}
	return wait, ok, err
}

// progressEvery is how many pages pass between progress log lines.
const progressEvery = 1000

// fetched is the outcome of one page fetch.
type fetched struct {
	key  string
	page *Page
	err  error
}

func (s *Server) refresh(ctx context.Context) (err error) {
	raw, err := s.src.Pages(ctx)
	if err != nil {
		return fmt.Errorf("connect: listing pages: %w", err)
	}
	if e, ok := s.src.(RefreshEnder); ok {
		defer func() { e.RefreshEnded(err) }()
	}
	keys, dropped := s.siteKeys(raw)
	s.store.progress.update(func(st *Stats) { st.Listed, st.Skipped = len(keys), dropped })

	listed := make(map[string]bool, len(keys))
	for _, k := range keys {
		listed[k] = true
	}
	for _, d := range s.index.snapshotKeys() {
		if !listed[d] {
			s.index.remove(d)
			s.store.progress.update(func(st *Stats) { st.Removed++ })
		}
	}
	done := 0
	for r := range s.fetchAll(ctx, keys) {
		s.apply(r)
		done++
		s.store.progress.update(func(st *Stats) { st.Done = done })
		if done%progressEvery == 0 {
			s.log.Info("connect: indexing", "done", done, "listed", len(keys))
		}
	}
	err = ctx.Err()
	if err != nil {
		err = fmt.Errorf("connect: refresh interrupted: %w", err)
	} else if st := s.store.progress.snapshot(); st.Failed > 0 && st.Fetched+st.NotModified == 0 {
		err = fmt.Errorf("connect: every page fetch failed (%d of %d listed); the origin may be down", st.Failed, len(keys))
	}
	// A failed first refresh builds nothing, so the index stays not ready
	// rather than answering from what it half read; once built, the index
	// follows every change.
	if at, _ := s.index.builtAt(); err == nil || !at.IsZero() {
		s.index.rebuild(s.clock.Now())
	}
	s.refreshLLMsTxt(ctx)
	return err
}

// siteKeys normalises the listed URLs, drops foreign, malformed and
// duplicate ones, and keeps the first MaxPages; it returns how many it left
// out over the cap.
func (s *Server) siteKeys(raw []string) ([]string, int) {
	seen := make(map[string]bool, len(raw))
	var keys []string
	over := 0
	for _, u := range raw {
		k, err := normalizePageURL(s.opts.Origin, u)
		if err != nil || seen[k] {
			continue
		}
		seen[k] = true
		if len(keys) >= s.opts.MaxPages {
			over++
			continue
		}
		keys = append(keys, k)
	}
	return keys, over
}

// fetchAll fetches keys with a few workers and yields the outcomes as they
// arrive; it stops early when ctx ends.
func (s *Server) fetchAll(ctx context.Context, keys []string) <-chan fetched {
	jobs := make(chan string)
	out := make(chan fetched)
	var wg sync.WaitGroup
	for range min(fetchWorkers, max(len(keys), 1)) {
		wg.Go(func() {
			for k := range jobs {
				prev, _ := s.index.validators(k)
				out <- s.fetchOne(ctx, k, prev)
			}
		})
	}
	go func() {
		defer close(jobs)
		for _, k := range keys {
			select {
			case jobs <- k:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

// fetchOne calls the Source with the held validators and a deadline. A
// Source that ignores its context is abandoned at the deadline, so one stuck
// page cannot stall the refresh.
func (s *Server) fetchOne(ctx context.Context, key string, prev Validators) fetched {
	ctx, cancel := context.WithTimeout(ctx, s.opts.FetchTimeout)
	defer cancel()
	done := make(chan fetched, 1)
	go func() {
		p, err := s.src.Fetch(ctx, key, prev)
		done <- fetched{key: key, page: p, err: err}
	}()
	select {
	case r := <-done:
		return r
	case <-ctx.Done():
		return fetched{key: key, err: fmt.Errorf("fetching %s: %w", key, ctx.Err())}
	}
}

// apply folds one fetch outcome into the index.
func (s *Server) apply(r fetched) {
	switch {
	case errors.Is(r.err, ErrNotModified):
		s.store.progress.update(func(st *Stats) { st.NotModified++ })
		return
	case r.err == nil && r.page == nil:
		r.err = errors.New("source returned no page")
	}
	if r.err != nil {
		s.log.Warn("connect: fetching page", "url", r.key, "error", r.err)
		s.store.progress.update(func(st *Stats) { st.Failed++ })
		return
	}
	d := s.newDoc(r.key, r.page)
	if reason := s.overBudget(d); reason != "" {
		s.log.Warn("connect: page skipped", "url", r.key, "bytes", d.size(), "reason", reason)
		s.store.progress.update(func(st *Stats) { st.Skipped++ })
		return
	}
	s.index.put(d)
	s.store.progress.update(func(st *Stats) { st.Fetched++ })
}

// overBudget says why d cannot be indexed, or "" when it fits.
func (s *Server) overBudget(d *doc) string {
	if d.size() > maxPageBytes {
		return fmt.Sprintf("page over %d bytes", maxPageBytes)
	}
	var held int64
	if old := s.index.get(d.key); old != nil && old.key == d.key {
		held = old.size()
	}
	if _, _, total := s.index.counts(); total-held+d.size() > s.opts.MaxBytes {
		return fmt.Sprintf("index byte budget of %d reached", s.opts.MaxBytes)
	}
	return ""
}

// newDoc turns a fetched page into an index entry.
func (s *Server) newDoc(key string, p *Page) *doc {
	canonical := key
	if p.URL != "" {
		if u, err := normalizePageURL(s.opts.Origin, p.URL); err == nil {
			canonical = u
		}
	}
	md := p.Markdown
	start := bodyOffset(md)
	d := &doc{
		key: key, url: canonical,
		title: oneLine(p.Title), description: oneLine(p.Description),
		language: oneLine(p.Language), updated: oneLine(p.Updated),
		markdown: pack(md), bodyStart: start, validators: p.Validators,
	}
	sections := p.Sections
	if sections == nil {
		sections = markdownSections(md[start:])
	}
	d.text = fulltext.PackSections(sections)
	return d
}

// Start indexes the site in the background, then again every
// Options.Refresh until ctx ends or Close is called; a failed refresh is
// retried after a backoff (Options.RetryMin) instead. It never blocks, and a
// second call does nothing.
func (s *Server) Start(ctx context.Context) {
	s.startOnce.Do(func() {
		ctx, cancel := context.WithCancel(ctx)
		s.stop = cancel
		s.wg.Go(func() { s.schedule(ctx) })
	})
}

// schedule refreshes at once, then every Options.Refresh, retrying a failed
// refresh with capped exponential backoff.
func (s *Server) schedule(ctx context.Context) {
	for {
		wait, ok, err := s.refreshPlanned(ctx, true)
		if ctx.Err() != nil || errors.Is(err, errClosed) || !ok {
			return
		}
		if err != nil {
			st := s.Stats()
			s.log.Warn("connect: retrying the index refresh", "state", st.State, "pages", st.Pages,
				"failures", st.Failures, "retry_in", wait, "next_attempt", st.NextAttempt)
		}
		select {
		case <-ctx.Done():
			return
		case <-s.clock.After(wait):
		}
	}
}

// waitAfter is how long the schedule waits before the next refresh once
// failures refreshes in a row failed: a backoff while they fail, else
// Options.Refresh; false when nothing is scheduled.
func (s *Server) waitAfter(failures int) (time.Duration, bool) {
	if failures > 0 {
		return s.backoff(failures), true
	}
	if s.opts.Refresh < 0 {
		return 0, false
	}
	return s.opts.Refresh, true
}

// backoff is the wait before retry n (1 for the first): RetryMin doubled per
// further failure up to the cap, with "equal jitter" (a point in the upper
// half of the wait), so the first retry comes within seconds and retries of
// instances that failed together spread out.
func (s *Server) backoff(n int) time.Duration {
	limit := s.opts.RetryMax
	if s.opts.Refresh > 0 {
		limit = min(limit, s.opts.Refresh)
	}
	d := answered.Backoff(n, min(s.opts.RetryMin, limit), limit)
	half := d / 2
	return half + time.Duration(s.jitter()*float64(d-half))
}

// discardLogger is used when New gets a nil logger.
var discardLogger = slog.New(slog.DiscardHandler)

// oneLine collapses white space (line breaks included) and caps a metadata
// value at 1,000 bytes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 1000 {
		return ellipsize(s, 0, 1000)
	}
	return s
}

// refreshLLMsTxt fetches /llms.txt through the Source, when it serves one,
// and publishes or withdraws the llms.txt resource accordingly.
func (s *Server) refreshLLMsTxt(ctx context.Context) {
	prev := s.store.llmsTxt()
	r := s.fetchOne(ctx, s.opts.Origin+"/llms.txt", prev.Validators)
	if !errors.Is(r.err, ErrNotModified) {
		if r.err != nil || r.page == nil || len(r.page.Markdown) > maxPageBytes {
			s.log.Debug("connect: no llms.txt", "error", r.err)
			r.page = &Page{}
		}
		s.store.llmsMu.Lock()
		s.store.llms = *r.page
		s.store.llmsMu.Unlock()
	}
	s.syncLLMsTxt()
}

// syncLLMsTxt registers or removes the llms.txt resource to match the Store
// (which another Server sharing it may have refreshed).
func (s *Server) syncLLMsTxt() {
	has := len(s.store.llmsTxt().Markdown) > 0
	s.llmsMu.Lock()
	defer s.llmsMu.Unlock()
	if has != s.llmsPublished {
		s.publishLLMsTxt(has)
		s.llmsPublished = has
	}
}
