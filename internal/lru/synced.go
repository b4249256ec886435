package lru

import "sync"

// Synced is a Cache safe for concurrent use, for a user that keeps nothing
// beside it (the head injections kept per page). A nil *Synced keeps
// nothing: Get finds nothing, Add stores nothing.
type Synced[K comparable, V any] struct {
	mu sync.Mutex
	c  *Cache[K, V]
}

// NewSynced returns an empty Synced whose entries' costs add up to at most
// maxCost.
func NewSynced[K comparable, V any](maxCost int64) *Synced[K, V] {
	return &Synced[K, V]{c: New[K, V](maxCost)}
}

// Get returns the value of k and makes it the most recently used.
func (s *Synced[K, V]) Get(k K) (v V, ok bool) {
	if s == nil {
		return v, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.c.Get(k)
}

// Add stores v under k at cost, as Cache.Add does.
func (s *Synced[K, V]) Add(k K, v V, cost int64) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.c.Add(k, v, cost)
}

// Len is the number of entries.
func (s *Synced[K, V]) Len() int {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.c.Len()
}

// Cost is the sum of the entries' costs.
func (s *Synced[K, V]) Cost() int64 {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.c.Cost()
}

// MaxCost returns the bound on Cost.
func (s *Synced[K, V]) MaxCost() int64 {
	if s == nil {
		return 0
	}
	return s.c.MaxCost()
}
