// Package lru is a least-recently-used cache bounded by the total cost of
// its entries. Its users give each entry a cost: its bytes for the
// conversion cache and the rewrite plans, 1 for the rate limiter's clients
// and the crawler verifier's results (traffic), whose bound is a number of
// entries.
//
// A Cache is not safe for concurrent use: each user holds a lock of its own
// around it, which also guards what it keeps beside the cache (an admission
// filter, a token bucket being updated). Synced is one with its own lock,
// for users that keep nothing beside it (the head injections of pages).
package lru

import "iter"

// Cache holds entries up to a bound on the sum of their costs, evicting the
// least recently used first. Make it with New.
type Cache[K comparable, V any] struct {
	max   int64
	cost  int64
	items map[K]*entry[K, V]
	root  entry[K, V] // root.next is the most recently used, root.prev the least
}

type entry[K comparable, V any] struct {
	key        K
	val        V
	cost       int64
	prev, next *entry[K, V]
}

// New returns an empty cache whose entries' costs add up to at most
// maxCost. With maxCost <= 0 it stores nothing.
func New[K comparable, V any](maxCost int64) *Cache[K, V] {
	c := &Cache[K, V]{max: maxCost, items: make(map[K]*entry[K, V])}
	c.root.next, c.root.prev = &c.root, &c.root
	return c
}

// Get returns the value of k and makes it the most recently used.
func (c *Cache[K, V]) Get(k K) (v V, ok bool) {
	e := c.items[k]
	if e == nil {
		return v, false
	}
	c.unlink(e)
	c.pushFront(e)
	return e.val, true
}

// Peek returns the value of k without changing its place in the order.
func (c *Cache[K, V]) Peek(k K) (v V, ok bool) {
	if e := c.items[k]; e != nil {
		return e.val, true
	}
	return v, false
}

// Add stores v under k at the given cost as the most recently used entry,
// replacing any value k had, then evicts the least recently used entries
// until the costs are within the bound again. A negative cost counts as 0
// (entries of cost 0 are bounded only by the others' eviction). A value that
// costs more than the whole bound is not stored and changes nothing: Add
// reports whether v was stored.
func (c *Cache[K, V]) Add(k K, v V, cost int64) bool {
	cost = max(cost, 0)
	if c.max <= 0 || cost > c.max {
		return false
	}
	e := c.items[k]
	if e != nil {
		c.unlink(e)
		c.cost -= e.cost
		e.val, e.cost = v, cost
	} else {
		e = &entry[K, V]{key: k, val: v, cost: cost}
		c.items[k] = e
	}
	c.pushFront(e)
	c.cost += cost
	for c.cost > c.max {
		c.remove(c.root.prev)
	}
	return true
}

// Remove drops k and reports whether it was there.
func (c *Cache[K, V]) Remove(k K) bool {
	e := c.items[k]
	if e == nil {
		return false
	}
	c.remove(e)
	return true
}

// Len returns the number of entries.
func (c *Cache[K, V]) Len() int { return len(c.items) }

// Cost returns the sum of the entries' costs.
func (c *Cache[K, V]) Cost() int64 { return c.cost }

// MaxCost returns the bound on Cost.
func (c *Cache[K, V]) MaxCost() int64 { return c.max }

// All yields the entries from the most recently used to the least, without
// changing their order. The cache must not change during the iteration.
func (c *Cache[K, V]) All() iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		for e := c.root.next; e != &c.root; e = e.next {
			if !yield(e.key, e.val) {
				return
			}
		}
	}
}

func (c *Cache[K, V]) remove(e *entry[K, V]) {
	c.unlink(e)
	delete(c.items, e.key)
	c.cost -= e.cost
}

func (c *Cache[K, V]) unlink(e *entry[K, V]) {
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = nil, nil
}

func (c *Cache[K, V]) pushFront(e *entry[K, V]) {
	e.prev, e.next = &c.root, c.root.next
	c.root.next.prev = e
	c.root.next = e
}
