package fleet

import (
	"context"
	"encoding/json"
	"path"
	"strings"
	"sync"
	"time"
)

// The rate limits across the fleet work the way caddy-ratelimit's
// distributed mode does (github.com/mholt/caddy-ratelimit, distributed.go):
// each instance counts its own requests per client, writes the counts of
// the last minute to the storage under its id every sync interval, and
// reads the others' at the same interval; a request is judged on its own
// instance's count plus the others' as last read. No request waits on the
// storage, and the limit is approximate: the others' requests of the last
// sync interval (theirs plus ours) are not seen yet.
const (
	// limitsDir is where each instance writes its counts.
	limitsDir = "limits"
	// limitSlot is the resolution of the one-minute window.
	limitSlot = 10 * time.Second
	// limitSlots is the number of slots in the window.
	limitSlots = 6
	// maxLimitKeys bounds the clients counted (those past it are not
	// counted for the fleet, only by each instance's own limiter).
	maxLimitKeys = 10000
	// staleLimits is the age past which another instance's counts are
	// ignored (it stopped).
	staleLimits = 2 * time.Minute
)

// window counts one client's requests over the last minute in slots.
type window struct {
	slot [limitSlots]int64 // slot number of each count
	n    [limitSlots]int
}

func (w *window) add(slot int64) {
	i := slot % limitSlots
	if w.slot[i] != slot {
		w.slot[i], w.n[i] = slot, 0
	}
	w.n[i]++
}

func (w *window) total(slot int64) int {
	t := 0
	for i := range limitSlots {
		if slot-w.slot[i] < limitSlots {
			t += w.n[i]
		}
	}
	return t
}

// limitState is what an instance writes.
type limitState struct {
	At     time.Time      `json:"at"`
	Counts map[string]int `json:"counts"`
}

// Limits shares the per-client counts of the MCP and /ask rate limits
// (connect.SharedLimit). Seen and Others touch memory only; Sync does
// the storage work, from Run's loop.
type Limits struct {
	f *Fleet

	mu     sync.Mutex
	own    map[string]*window
	others map[string]int
}

// Limits returns the fleet's shared rate-limit counts.
func (f *Fleet) Limits() *Limits {
	return &Limits{f: f, own: map[string]*window{}, others: map[string]int{}}
}

func (l *Limits) slot() int64 { return l.f.cfg.Now().UnixNano() / int64(limitSlot) }

// Seen counts one request of key at this instance.
func (l *Limits) Seen(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.own[key]
	if w == nil {
		if len(l.own) >= maxLimitKeys {
			return
		}
		w = new(window)
		l.own[key] = w
	}
	w.add(l.slot())
}

// Others is how many requests of key the other instances counted over the
// last minute, as of the last Sync.
func (l *Limits) Others(key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.others[key]
}

// Sync writes this instance's counts and reads the others'.
func (l *Limits) Sync(ctx context.Context) error {
	now := l.f.cfg.Now()
	state := limitState{At: now, Counts: map[string]int{}}
	slot := l.slot()
	l.mu.Lock()
	for k, w := range l.own {
		if n := w.total(slot); n > 0 {
			state.Counts[k] = n
		} else {
			delete(l.own, k)
		}
	}
	l.mu.Unlock()
	data, _ := json.Marshal(state)
	st := l.f.cfg.Storage
	if err := l.f.result(ctx, "store", st.Store(ctx, l.f.key(limitsDir, l.f.cfg.Instance+".json"), data)); err != nil {
		return err
	}
	keys, err := st.List(ctx, l.f.key(limitsDir), false)
	if err = l.f.result(ctx, "list", err); err != nil {
		return err
	}
	others := map[string]int{}
	for _, k := range keys {
		if id, _ := strings.CutSuffix(path.Base(k), ".json"); id == l.f.cfg.Instance {
			continue
		}
		data, err := st.Load(ctx, k)
		if err = l.f.result(ctx, "load", err); err != nil {
			return err
		}
		var s limitState
		if json.Unmarshal(data, &s) != nil || now.Sub(s.At) > staleLimits {
			continue
		}
		for c, n := range s.Counts {
			others[c] += n
		}
	}
	l.mu.Lock()
	l.others = others
	l.mu.Unlock()
	return nil
}

// Run syncs every interval until ctx ends. A failed sync keeps the
// others' last counts (the Fleet reports itself degraded).
func (l *Limits) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		_ = l.Sync(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
