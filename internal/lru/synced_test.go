package lru

import (
	"strconv"
	"sync"
	"testing"
)

// TestSyncedNil: a nil Synced keeps nothing and answers as an empty one.
func TestSyncedNil(t *testing.T) {
	var s *Synced[string, int]
	if s.Add("a", 1, 1) {
		t.Error("a nil Synced stored an entry")
	}
	if v, ok := s.Get("a"); ok || v != 0 {
		t.Errorf("Get on nil = %d, %v", v, ok)
	}
	if s.Len() != 0 || s.Cost() != 0 || s.MaxCost() != 0 {
		t.Error("a nil Synced is not empty")
	}
}

// TestSyncedConcurrent: goroutines adding and getting at once keep the
// bound and find what they added last (go test -race checks the locking).
func TestSyncedConcurrent(t *testing.T) {
	s := NewSynced[string, int](100)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				k := strconv.Itoa(g) + "/" + strconv.Itoa(i)
				s.Add(k, i, 1)
				if v, ok := s.Get(k); ok && v != i {
					t.Errorf("Get(%s) = %d, want %d", k, v, i)
				}
			}
		}()
	}
	wg.Wait()
	if s.Len() != 100 || s.Cost() != 100 || s.MaxCost() != 100 {
		t.Errorf("Len %d, Cost %d, MaxCost %d; want 100 each", s.Len(), s.Cost(), s.MaxCost())
	}
}
