package connect

import (
	"sync"
	"time"
)

// Stats describe the index and its last refresh.
type Stats struct {
	// Pages is the number of pages in the index.
	Pages int `json:"pages"`
	// Bytes is the Markdown the index holds, in bytes.
	Bytes int64 `json:"bytes"`
	// IndexBytes is the memory of the full-text index besides the pages'
	// Markdown and text (postings, terms, counts), in bytes, approximately.
	IndexBytes int64 `json:"index_bytes"`
	// Indexed is when the full-text index was last built; zero until the
	// first refresh completes, and searches answer 503 until then.
	Indexed time.Time `json:"indexed,omitzero"`
	// State is ok, stale, empty or refreshing (see [StateOK] and the
	// following constants).
	State string `json:"state"`
	// Refreshing is true while a refresh runs.
	Refreshing bool `json:"refreshing"`
	// Refreshes counts completed refreshes.
	Refreshes int `json:"refreshes"`
	// Listed is the number of distinct site URLs the Source listed in the
	// current or last refresh (after dropping foreign and malformed ones).
	Listed int `json:"listed"`
	// Done is how many of them the current or last refresh has handled.
	Done int `json:"done"`
	// Fetched counts pages fetched and indexed anew in that refresh.
	Fetched int `json:"fetched"`
	// NotModified counts pages the Source reported unchanged.
	NotModified int `json:"not_modified"`
	// Failed counts pages whose fetch failed (a page already indexed keeps
	// its previous copy).
	Failed int `json:"failed"`
	// Skipped counts pages left out by the page, byte or per-page caps.
	Skipped int `json:"skipped"`
	// Removed counts pages dropped because the Source no longer lists them.
	Removed int `json:"removed"`
	// LastStart is when the current or last refresh started.
	LastStart time.Time `json:"last_start,omitzero"`
	// LastDuration is how long the last completed refresh took.
	LastDuration time.Duration `json:"last_duration"`
	// LastError is the error of the last refresh, "" when it succeeded.
	LastError string `json:"last_error,omitempty"`
	// LastSuccess is when the last successful refresh ended; zero until one
	// has.
	LastSuccess time.Time `json:"last_success,omitzero"`
	// Failures counts the refreshes that failed since the last success. A
	// refresh fails when the Source cannot list the pages, when the index
	// cannot be updated, or when every page fetch fails (the origin is
	// down); single failed pages keep their previous copy and do not count.
	Failures int `json:"failures"`
	// NextAttempt is when the schedule runs the next refresh: a retry after
	// a failure, else the next periodic refresh. Zero while a refresh runs
	// and when nothing is scheduled.
	NextAttempt time.Time `json:"next_attempt,omitzero"`
}

// progress is the Stats half that refreshes update, behind its own lock.
type progress struct {
	mu sync.Mutex
	s  Stats
}

// update applies f to the stats under the lock.
func (p *progress) update(f func(*Stats)) {
	p.mu.Lock()
	f(&p.s)
	p.mu.Unlock()
}

// snapshot returns a copy of the stats.
func (p *progress) snapshot() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.s
}
