package lru

import (
	"fmt"
	"slices"
	"testing"
)

// op is one step of a table test: "add k cost", "get k", "peek k" or
// "remove k"; want is what the step reports (found, stored or removed).
type op struct {
	do   string
	key  string
	cost int64
	want bool
}

func TestCache(t *testing.T) {
	tests := []struct {
		name  string
		max   int64
		ops   []op
		order []string // keys from the most recently used
		cost  int64
	}{
		{"empty", 10, nil, nil, 0},
		{"adds within the bound", 10, []op{{"add", "a", 3, true}, {"add", "b", 3, true}}, []string{"b", "a"}, 6},
		{"evicts the least recently used", 10, []op{
			{"add", "a", 4, true}, {"add", "b", 4, true}, {"add", "c", 4, true},
		}, []string{"c", "b"}, 8},
		{"get makes most recent", 10, []op{
			{"add", "a", 4, true}, {"add", "b", 4, true}, {"get", "a", 0, true}, {"add", "c", 4, true},
		}, []string{"c", "a"}, 8},
		{"peek leaves the order", 10, []op{
			{"add", "a", 4, true}, {"add", "b", 4, true}, {"peek", "a", 0, true}, {"add", "c", 4, true},
		}, []string{"c", "b"}, 8},
		{"evicts several for a large entry", 10, []op{
			{"add", "a", 3, true}, {"add", "b", 3, true}, {"add", "c", 3, true}, {"add", "d", 8, true},
		}, []string{"d"}, 8},
		{"larger than the bound is refused", 10, []op{
			{"add", "a", 4, true}, {"add", "big", 11, false}, {"get", "big", 0, false},
		}, []string{"a"}, 4},
		{"refused replacement keeps the old value", 10, []op{
			{"add", "a", 4, true}, {"add", "a", 11, false}, {"get", "a", 0, true},
		}, []string{"a"}, 4},
		{"replacing updates the cost", 10, []op{
			{"add", "a", 4, true}, {"add", "b", 4, true}, {"add", "a", 1, true}, {"add", "c", 5, true},
		}, []string{"c", "a", "b"}, 10},
		{"growing a cost evicts others", 10, []op{
			{"add", "a", 4, true}, {"add", "b", 4, true}, {"add", "a", 9, true},
		}, []string{"a"}, 9},
		{"remove", 10, []op{
			{"add", "a", 4, true}, {"add", "b", 4, true}, {"remove", "a", 0, true}, {"remove", "a", 0, false},
			{"get", "a", 0, false},
		}, []string{"b"}, 4},
		{"cost one counts entries", 3, []op{
			{"add", "a", 1, true}, {"add", "b", 1, true}, {"add", "c", 1, true}, {"add", "d", 1, true},
		}, []string{"d", "c", "b"}, 3},
		{"negative cost counts as zero", 3, []op{{"add", "a", -5, true}, {"add", "b", 3, true}}, []string{"b", "a"}, 3},
		{"zero bound stores nothing", 0, []op{{"add", "a", 0, false}, {"add", "b", 1, false}}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New[string, string](tt.max)
			for i, o := range tt.ops {
				var got bool
				switch o.do {
				case "add":
					got = c.Add(o.key, fmt.Sprint(o.key, i), o.cost)
				case "get":
					_, got = c.Get(o.key)
				case "peek":
					_, got = c.Peek(o.key)
				case "remove":
					got = c.Remove(o.key)
				}
				if got != o.want {
					t.Fatalf("step %d %s %s = %v, want %v", i, o.do, o.key, got, o.want)
				}
			}
			if got := keys(c); !slices.Equal(got, tt.order) {
				t.Errorf("order %q, want %q", got, tt.order)
			}
			if c.Cost() != tt.cost || c.Len() != len(tt.order) {
				t.Errorf("cost %d in %d entries, want %d in %d", c.Cost(), c.Len(), tt.cost, len(tt.order))
			}
		})
	}
}

func TestGetReturnsTheLatestValue(t *testing.T) {
	c := New[int, string](10)
	c.Add(1, "old", 1)
	c.Add(1, "new", 2)
	if v, ok := c.Get(1); !ok || v != "new" {
		t.Errorf("Get = %q, %v; want the replacement", v, ok)
	}
	if v, ok := c.Peek(1); !ok || v != "new" {
		t.Errorf("Peek = %q, %v; want the replacement", v, ok)
	}
}

func TestAllStops(t *testing.T) {
	c := New[int, int](10)
	for i := range 5 {
		c.Add(i, i, 1)
	}
	n := 0
	for range c.All() {
		n++
		if n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("All yielded %d entries after a break at 2", n)
	}
}

func keys[V any](c *Cache[string, V]) []string {
	var out []string
	for k := range c.All() {
		out = append(out, k)
	}
	return out
}

// model is the obvious LRU the fuzz target compares the Cache with: a
// slice of entries, the most recently used first.
type model struct {
	max     int64
	entries []modelEntry
}

type modelEntry struct {
	key  byte
	cost int64
}

func (m *model) find(k byte) int {
	return slices.IndexFunc(m.entries, func(e modelEntry) bool { return e.key == k })
}

func (m *model) touch(k byte) bool {
	i := m.find(k)
	if i < 0 {
		return false
	}
	e := m.entries[i]
	m.entries = slices.Insert(slices.Delete(m.entries, i, i+1), 0, e)
	return true
}

func (m *model) add(k byte, cost int64) bool {
	if m.max <= 0 || cost > m.max {
		return false
	}
	if i := m.find(k); i >= 0 {
		m.entries = slices.Delete(m.entries, i, i+1)
	}
	m.entries = slices.Insert(m.entries, 0, modelEntry{k, cost})
	for m.cost() > m.max {
		m.entries = m.entries[:len(m.entries)-1]
	}
	return true
}

func (m *model) cost() (sum int64) {
	for _, e := range m.entries {
		sum += e.cost
	}
	return sum
}

// FuzzCache runs a sequence of operations (two bytes each: the operation
// and key, then a cost) on a Cache and on the model, and checks after
// every step that they agree, that the bound holds, and that the entry
// just added or read is there.
func FuzzCache(f *testing.F) {
	f.Add(int64(10), []byte{0, 4, 1, 4, 2, 4, 0x40, 0, 3, 9})
	f.Add(int64(3), []byte{0, 1, 1, 1, 2, 1, 3, 1, 0x83, 0, 0xc1, 0})
	f.Add(int64(0), []byte{0, 1})
	f.Fuzz(func(t *testing.T, maxCost int64, ops []byte) {
		maxCost %= 64
		c, m := New[byte, int](maxCost), &model{max: maxCost}
		for i := 0; i+1 < len(ops); i += 2 {
			k, cost := ops[i]&0x0f, int64(ops[i+1]%32)
			var got, want bool
			switch ops[i] >> 6 {
			case 0:
				got, want = c.Add(k, i, cost), m.add(k, cost)
			case 1:
				_, got = c.Get(k)
				want = m.touch(k)
			case 2:
				_, got = c.Peek(k)
				want = m.find(k) >= 0
			case 3:
				got, want = c.Remove(k), m.find(k) >= 0
				if want {
					m.entries = slices.Delete(m.entries, m.find(k), m.find(k)+1)
				}
			}
			if got != want {
				t.Fatalf("step %d (op %d, key %d, cost %d): %v, model %v", i/2, ops[i]>>6, k, cost, got, want)
			}
			if c.Cost() > max(maxCost, 0) || c.Cost() != m.cost() || c.Len() != len(m.entries) {
				t.Fatalf("step %d: cost %d in %d entries, model %d in %d, bound %d",
					i/2, c.Cost(), c.Len(), m.cost(), len(m.entries), maxCost)
			}
			if ops[i]>>6 < 2 && got {
				if first, ok := firstKey(c); !ok || first != k {
					t.Fatalf("step %d: key %d used last is not the most recent", i/2, k)
				}
			}
			var order []byte
			for k := range c.All() {
				order = append(order, k)
			}
			for j, e := range m.entries {
				if order[j] != e.key {
					t.Fatalf("step %d: order %v, model %v", i/2, order, m.entries)
				}
			}
		}
	})
}

func firstKey[V any](c *Cache[byte, V]) (byte, bool) {
	for k := range c.All() {
		return k, true
	}
	return 0, false
}
