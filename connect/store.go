package connect

import (
	"errors"
	"sync"
	"time"
)

// Store holds what a [Server] answers from: the pages, their full-text index,
// the site's llms.txt and the state of the refreshes that fill them. [New]
// creates one for its Server unless [Options.Store] hands it one to share. A
// host that replaces its Server (a configuration reload) passes the old
// Server's Store to the new one, which then answers from the last good pages
// at once and refreshes them with the validators they were fetched with;
// closing a Server never closes a Store it was handed.
//
// Refreshes of the Servers sharing a Store never overlap, and the count of
// failed refreshes carries over, so a reload during an outage does not reset
// the retry backoff.
type Store struct {
	x *index

	refreshMu sync.Mutex // held by a refresh; guards closed
	closed    bool

	progress progress

	llmsMu sync.Mutex
	llms   Page // last /llms.txt the Source served; empty when none
}

// errClosed refuses a refresh of a closed Server or Store.
var errClosed = errors.New("connect: refresh after close")

// NewStore creates an empty Store for a site in language (a BCP 47 tag, ""
// when not configured; see [Options.Language]).
func NewStore(language string) *Store { return &Store{x: newIndex(language)} }

// Close waits for a running refresh to end; no refresh runs after it.
func (st *Store) Close() error {
	st.refreshMu.Lock()
	defer st.refreshMu.Unlock()
	st.closed = true
	return nil
}

// Stats returns the index size, its state and the progress of the current
// or last refresh.
func (st *Store) Stats() Stats {
	s := st.progress.snapshot()
	s.Pages, s.Bytes, _ = st.x.counts()
	s.Indexed, s.IndexBytes = st.x.builtAt()
	s.State = s.state()
	return s
}

// llmsTxt returns the llms.txt held.
func (st *Store) llmsTxt() Page {
	st.llmsMu.Lock()
	defer st.llmsMu.Unlock()
	return st.llms
}

// States of the content index, as [Stats.State] reports them.
const (
	// StateOK: the last refresh succeeded.
	StateOK = "ok"
	// StateStale: pages are served, but the last refresh failed; they are
	// the last good ones and retries are scheduled.
	StateStale = "stale"
	// StateEmpty: no page is held, because no refresh has succeeded yet (see
	// LastError and NextAttempt) or because the site lists none.
	StateEmpty = "empty"
	// StateRefreshing: the first refresh runs; the pages it has read so
	// far may be held (Pages), but none has been indexed yet.
	StateRefreshing = "refreshing"
)

// state derives State from the other fields.
func (s *Stats) state() string {
	switch {
	case s.Refreshing && s.LastSuccess.IsZero():
		return StateRefreshing
	case s.Pages == 0:
		return StateEmpty
	case s.Failures > 0:
		return StateStale
	}
	return StateOK
}

// Ready reports whether the index can answer: its full-text index has been
// built once, after a refresh that succeeded (even one that found no page).
// Until then search_site, ask and /ask say that the index is not ready
// rather than answer from pages half read.
func (s *Stats) Ready() bool { return !s.Indexed.IsZero() }

// clock is the time source of refreshes and their schedule; tests replace it
// so that no test sleeps through a backoff.
type clock interface {
	Now() time.Time
	// After waits for d, as time.After does.
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
