package fleet

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"time"
)

// Memory is a Storage in memory, for tests and for one process: several
// Fleets given one Memory share it as instances share a storage.
type Memory struct {
	// LockTTL, when positive, is how long a lock holds before another
	// caller may take it (a holder that died), measured on Now. Default: 0
	// (a lock holds until Unlock).
	LockTTL time.Duration
	// Now is the clock of LockTTL. Default: time.Now.
	Now func() time.Time
	// Poll is how often a waiting Lock looks again. Default: 1 ms.
	Poll time.Duration

	mu    sync.Mutex
	data  map[string][]byte
	locks map[string]time.Time // when taken
	fail  error
}

// SetFailure makes every call fail with err (nil: answer again), as an
// unreachable storage does.
func (m *Memory) SetFailure(err error) {
	m.mu.Lock()
	m.fail = err
	m.mu.Unlock()
}

func (m *Memory) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// Lock implements Storage.
func (m *Memory) Lock(ctx context.Context, name string) error {
	poll := m.Poll
	if poll <= 0 {
		poll = time.Millisecond
	}
	for {
		m.mu.Lock()
		if m.fail != nil {
			m.mu.Unlock()
			return m.fail
		}
		if m.locks == nil {
			m.locks = map[string]time.Time{}
		}
		at, held := m.locks[name]
		if !held || (m.LockTTL > 0 && m.now().Sub(at) > m.LockTTL) {
			m.locks[name] = m.now()
			m.mu.Unlock()
			return nil
		}
		m.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
	}
}

// Unlock implements Storage.
func (m *Memory) Unlock(_ context.Context, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return m.fail
	}
	delete(m.locks, name)
	return nil
}

// Store implements Storage.
func (m *Memory) Store(_ context.Context, key string, value []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return m.fail
	}
	if m.data == nil {
		m.data = map[string][]byte{}
	}
	m.data[key] = append([]byte(nil), value...)
	return nil
}

// Load implements Storage.
func (m *Memory) Load(_ context.Context, key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return nil, m.fail
	}
	v, ok := m.data[key]
	if !ok {
		return nil, fmt.Errorf("%s: %w", key, fs.ErrNotExist)
	}
	return append([]byte(nil), v...), nil
}

// List implements Storage.
func (m *Memory) List(_ context.Context, prefix string, recursive bool) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return nil, m.fail
	}
	var out []string
	for k := range m.data {
		rest, ok := strings.CutPrefix(k, strings.TrimSuffix(prefix, "/")+"/")
		if ok && (recursive || !strings.Contains(rest, "/")) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out, nil
}
