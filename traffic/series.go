package traffic

import (
	"sync"
	"sync/atomic"
	"time"
)

// Series lengths: per minute for a day, per hour for 30 days.
const (
	minuteBuckets = 24 * 60
	hourBuckets   = 30 * 24
)

// purposeSlots are the purpose values a series (and a row) can have, in
// display order: the agent purposes, then the other client classes.
var purposeSlots = [...]string{"training", "search", "user", "agent", "bot", "tool", "headless", "browser", "unknown"}

func purposeIndex(p string) int {
	for i, s := range purposeSlots {
		if s == p {
			return i
		}
	}
	return len(purposeSlots) - 1
}

// bucket is one step of a series; stamp is the step number (unix time /
// step) it holds now.
type bucket struct {
	stamp    atomic.Int64
	requests [len(purposeSlots)]atomic.Uint64
	markdown atomic.Uint64
	saved    atomic.Uint64
	blocked  atomic.Uint64
}

// series is a ring of buckets of one step; recording is lock-free except
// when a bucket is reused for a new step.
type series struct {
	step    int64 // seconds
	mu      sync.Mutex
	buckets []bucket
}

func newSeries(step time.Duration, n int) *series {
	s := &series{step: int64(step / time.Second), buckets: make([]bucket, n)}
	for i := range s.buckets {
		s.buckets[i].stamp.Store(-1)
	}
	return s
}

// at returns the bucket for step number k, reset if it held an older step,
// or nil when k is older than what the bucket holds (a late event).
func (s *series) at(k int64) *bucket {
	b := &s.buckets[k%int64(len(s.buckets))]
	if b.stamp.Load() == k {
		return b
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch st := b.stamp.Load(); {
	case st == k:
	case st > k:
		return nil
	default:
		for i := range b.requests {
			b.requests[i].Store(0)
		}
		b.markdown.Store(0)
		b.saved.Store(0)
		b.blocked.Store(0)
		b.stamp.Store(k)
	}
	return b
}

// add counts requests at t.
func (s *series) add(t time.Time, purpose int, requests, markdown, saved, blocked uint64) {
	sec := t.Unix()
	if sec < 0 {
		return
	}
	b := s.at(sec / s.step)
	if b == nil {
		return
	}
	addNonZero(&b.requests[purpose], requests)
	addNonZero(&b.markdown, markdown)
	addNonZero(&b.saved, saved)
	addNonZero(&b.blocked, blocked)
}

// snapshot returns the series ending with the step holding now, oldest
// first.
func (s *series) snapshot(now time.Time) Series {
	n := int64(len(s.buckets))
	cur := now.Unix() / s.step
	first := cur - n + 1
	out := Series{StepSeconds: s.step, Start: time.Unix(first*s.step, 0).UTC(), Requests: map[string][]uint64{},
		Markdown: make([]uint64, n), TokensSaved: make([]uint64, n), Blocked: make([]uint64, n)}
	for i := range n {
		k := first + i
		if k < 0 {
			continue
		}
		b := &s.buckets[k%n]
		if b.stamp.Load() != k {
			continue
		}
		for p := range b.requests {
			if v := b.requests[p].Load(); v > 0 {
				col := out.Requests[purposeSlots[p]]
				if col == nil {
					col = make([]uint64, n)
					out.Requests[purposeSlots[p]] = col
				}
				col[i] = v
			}
		}
		out.Markdown[i] = b.markdown.Load()
		out.TokensSaved[i] = b.saved.Load()
		out.Blocked[i] = b.blocked.Load()
	}
	return out
}

// merge adds a saved series (of the same step) into s, point by point, for
// the points still within the ring at now.
func (s *series) merge(in Series, now time.Time) {
	if in.StepSeconds != s.step || in.Start.IsZero() {
		return
	}
	n := int64(len(s.buckets))
	oldest := now.Unix()/s.step - n + 1
	start := in.Start.Unix() / s.step
	point := func(col []uint64, i int) uint64 {
		if i < len(col) {
			return col[i]
		}
		return 0
	}
	length := len(in.Markdown)
	for _, col := range in.Requests {
		length = max(length, len(col))
	}
	length = min(length, int(n)*2)
	for i := range length {
		k := start + int64(i)
		if k < oldest || k > now.Unix()/s.step {
			continue
		}
		b := s.at(k)
		if b == nil {
			continue
		}
		for p, col := range in.Requests {
			b.requests[purposeIndex(p)].Add(point(col, i))
		}
		b.markdown.Add(point(in.Markdown, i))
		b.saved.Add(point(in.TokensSaved, i))
		b.blocked.Add(point(in.Blocked, i))
	}
}
