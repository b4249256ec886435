package traffic

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// maxPathBytes bounds a stored page path.
const maxPathBytes = 256

// PagePath is the page key a path is counted under: the path alone (no
// query, no fragment), at most 256 bytes cut on a UTF-8 boundary, "/" when
// empty.
func PagePath(p string) string {
	// A loop, not strings.IndexAny: a path is short, and IndexAny builds
	// its byte set on each call (570 instructions for "/pricing").
	for i := 0; i < len(p); i++ {
		if p[i] == '?' || p[i] == '#' {
			p = p[:i]
			break
		}
	}
	if len(p) > maxPathBytes {
		n := maxPathBytes
		for n > 0 && !utf8.RuneStart(p[n]) {
			n--
		}
		p = p[:n]
	}
	if p == "" {
		return "/"
	}
	return p
}

// sketch is a Space-Saving heavy-hitters summary (Metwally, Agrawal and El
// Abbadi, 2005): it tracks at most cap keys; a new key replaces the least
// counted one and inherits its count as its error bound. Every key whose
// true count exceeds total/cap is tracked, and each tracked count
// overestimates the truth by at most its error.
type sketch struct {
	mu   sync.Mutex
	cap  int
	idx  map[string]int // key → position in heap
	heap []ssEntry      // min-heap by count
}

type ssEntry struct {
	key   string
	count uint64
	err   uint64
}

func newSketch(capacity int) *sketch {
	return &sketch{cap: capacity, idx: make(map[string]int, capacity), heap: make([]ssEntry, 0, capacity)}
}

// add counts n occurrences of key whose count may already be overestimated
// by err (0 for a fresh observation; a loaded entry's error when merging).
func (s *sketch) add(key string, n, err uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i, ok := s.idx[key]; ok {
		s.heap[i].count += n
		s.heap[i].err += err
		s.down(i)
		return
	}
	key = strings.Clone(key)
	if len(s.heap) < s.cap {
		s.heap = append(s.heap, ssEntry{key, n, err})
		i := len(s.heap) - 1
		s.idx[key] = i
		s.up(i)
		return
	}
	min := s.heap[0]
	delete(s.idx, min.key)
	s.heap[0] = ssEntry{key, min.count + n, min.count + err}
	s.idx[key] = 0
	s.down(0)
}

func (s *sketch) less(i, j int) bool { return s.heap[i].count < s.heap[j].count }

func (s *sketch) swap(i, j int) {
	s.heap[i], s.heap[j] = s.heap[j], s.heap[i]
	s.idx[s.heap[i].key] = i
	s.idx[s.heap[j].key] = j
}

func (s *sketch) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !s.less(i, p) {
			return
		}
		s.swap(i, p)
		i = p
	}
}

func (s *sketch) down(i int) {
	n := len(s.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && s.less(r, l) {
			m = r
		}
		if !s.less(m, i) {
			return
		}
		s.swap(i, m)
		i = m
	}
}

// top returns the tracked keys, most counted first (ties by key).
func (s *sketch) top() []PageCount {
	s.mu.Lock()
	out := make([]PageCount, 0, len(s.heap))
	for _, e := range s.heap {
		out = append(out, PageCount{Path: e.key, Count: e.count, Error: e.err})
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b PageCount) int {
		switch {
		case a.Count > b.Count:
			return -1
		case a.Count < b.Count:
			return 1
		}
		return strings.Compare(a.Path, b.Path)
	})
	return out
}
