package connect

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// Refresh re-reads the page list from the Source and fetches every page,
// sending the validators it holds so an unchanged page costs a 304. Pages the
// Source no longer lists are dropped; a page whose fetch fails keeps its
// previous copy. Only one refresh runs at a time; a second call waits for the
// first. The error reports a failed listing or index update, not single
// pages (those are counted in Stats).
func (s *Server) Refresh(ctx context.Context) error {
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	if s.closed {
		return errors.New("connect: refresh after close")
	}
	start := time.Now()
	s.progress.update(func(st *Stats) {
		st.Refreshing, st.LastStart = true, start
		st.Listed, st.Done, st.Fetched, st.NotModified, st.Failed, st.Skipped, st.Removed = 0, 0, 0, 0, 0, 0, 0
	})
	err := s.refresh(ctx)
	s.progress.update(func(st *Stats) {
		st.Refreshing = false
		st.Refreshes++
		st.LastDuration = time.Since(start)
		st.LastError = ""
		if err != nil {
			st.LastError = err.Error()
		}
	})
	st := s.Stats()
	s.log.Info("connect: index refreshed", "pages", st.Pages, "bytes", st.Bytes,
		"fetched", st.Fetched, "not_modified", st.NotModified, "failed", st.Failed,
		"skipped", st.Skipped, "removed", st.Removed, "duration", st.LastDuration, "error", st.LastError)
	return err
}

// progressEvery is how many pages pass between progress log lines.
const progressEvery = 1000

// fetched is the outcome of one page fetch.
type fetched struct {
	key  string
	page *Page
	err  error
}

func (s *Server) refresh(ctx context.Context) error {
	raw, err := s.src.Pages(ctx)
	if err != nil {
		return fmt.Errorf("connect: listing pages: %w", err)
	}
	keys, dropped := s.siteKeys(raw)
	s.progress.update(func(st *Stats) { st.Listed, st.Skipped = len(keys), dropped })

	b := s.index.newBatcher()
	listed := make(map[string]bool, len(keys))
	for _, k := range keys {
		listed[k] = true
	}
	for _, d := range s.index.snapshotKeys() {
		if !listed[d] {
			b.remove(d)
			s.progress.update(func(st *Stats) { st.Removed++ })
		}
	}
	done := 0
	for r := range s.fetchAll(ctx, keys) {
		s.apply(b, r)
		done++
		s.progress.update(func(st *Stats) { st.Done = done })
		if done%progressEvery == 0 {
			s.log.Info("connect: indexing", "done", done, "listed", len(keys))
		}
	}
	b.flush()
	if err := s.index.compact(); err != nil {
		b.keep(err)
	}
	s.refreshLLMsTxt(ctx)
	if err := ctx.Err(); err != nil {
		return errors.Join(fmt.Errorf("connect: refresh interrupted: %w", err), b.err)
	}
	return b.err
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
func (s *Server) apply(b *batcher, r fetched) {
	switch {
	case errors.Is(r.err, ErrNotModified):
		s.progress.update(func(st *Stats) { st.NotModified++ })
		return
	case r.err == nil && r.page == nil:
		r.err = errors.New("source returned no page")
	}
	if r.err != nil {
		s.log.Warn("connect: fetching page", "url", r.key, "error", r.err)
		s.progress.update(func(st *Stats) { st.Failed++ })
		return
	}
	d := s.newDoc(r.key, r.page)
	if reason := s.overBudget(d); reason != "" {
		s.log.Warn("connect: page skipped", "url", r.key, "bytes", d.size(), "reason", reason)
		s.progress.update(func(st *Stats) { st.Skipped++ })
		return
	}
	b.put(d)
	s.progress.update(func(st *Stats) { st.Fetched++ })
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
	if _, total := s.index.counts(); total-held+d.size() > s.opts.MaxBytes {
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
	return &doc{
		key: key, url: canonical,
		title: oneLine(p.Title), description: oneLine(p.Description),
		language: oneLine(p.Language), updated: oneLine(p.Updated),
		markdown: md, bodyStart: frontMatterEnd(md), validators: p.Validators,
	}
}

// Start indexes the site in the background, then again every
// Options.Refresh until ctx ends or Close is called. It never blocks, and a
// second call does nothing.
func (s *Server) Start(ctx context.Context) {
	s.startOnce.Do(func() {
		ctx, cancel := context.WithCancel(ctx)
		s.stop = cancel
		s.wg.Go(func() { s.schedule(ctx) })
	})
}

func (s *Server) schedule(ctx context.Context) {
	for {
		if err := s.Refresh(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("connect: refreshing index", "error", err)
		}
		if s.opts.Refresh < 0 {
			return
		}
		t := time.NewTimer(s.opts.Refresh)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
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
	s.llmsMu.Lock()
	prev := s.llms
	s.llmsMu.Unlock()
	r := s.fetchOne(ctx, s.opts.Origin+"/llms.txt", prev.Validators)
	if errors.Is(r.err, ErrNotModified) {
		return
	}
	if r.err != nil || r.page == nil || len(r.page.Markdown) > maxPageBytes {
		s.log.Debug("connect: no llms.txt", "error", r.err)
		r.page = &Page{}
	}
	s.llmsMu.Lock()
	s.llms = *r.page
	s.llmsMu.Unlock()
	if had, has := len(prev.Markdown) > 0, len(r.page.Markdown) > 0; had != has {
		s.publishLLMsTxt(has)
	}
}
