// Package admission decides when a Markdown conversion may run, so that
// conversions share the machine fairly between clients and never take the
// CPU that the rest of the server (a browser's HTML) needs.
//
// A conversion passes three gates, in this order, each first come, first
// served:
//
//  1. its client's: at most PerClient conversions of one client are past
//     this gate at once (waiting at the next ones, buffering, converting);
//  2. memory: the bytes of HTML held by admitted conversions stay within
//     Bytes;
//  3. CPU: at most Slots conversions run at once.
//
// Gates 1 and 2 are passed before the page is read (Gate.Admit); gate 3
// once it has been read, just before it is decoded and converted
// (Gate.Run), so a page that streams slowly from its origin holds no CPU
// slot. A client that sends many requests at once queues behind itself at
// gate 1, so at gates 2 and 3 any other client waits behind at most
// PerClient conversions of each client. All the waiting of one conversion
// shares one deadline: past it the wait gives up with a *BusyError.
//
// The gates are golang.org/x/sync/semaphore's Weighted: FIFO (a waiter is
// never overtaken, not even by a smaller one), context-aware (a waiter
// whose context ends leaves the queue and wakes the next), weighted (the
// memory gate counts bytes).
package admission

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// Limits are the sizes of the three gates. A zero or negative value leaves
// that gate out.
type Limits struct {
	// PerClient is how many conversions of one client may be past the
	// client's gate at once.
	PerClient int
	// Bytes bounds the bytes of HTML that admitted conversions hold.
	Bytes int64
}

// DefaultSlots is the number of conversions that run at once by default:
// one fewer than the Go scheduler's processors (GOMAXPROCS, the cores),
// so one core stays free for everything else, and at least one.
func DefaultSlots() int {
	return max(1, runtime.GOMAXPROCS(0)-1)
}

// Slots is the CPU gate: conversions running at once. One Slots may be
// shared by several Gates (the handlers of several sites share the
// machine's cores).
type Slots struct {
	sem *semaphore.Weighted
}

// NewSlots returns a CPU gate of n slots (at least one).
func NewSlots(n int) *Slots {
	return &Slots{sem: semaphore.NewWeighted(int64(max(n, 1)))}
}

// Gate admits conversions; see the package documentation. Its methods may
// be called concurrently.
type Gate struct {
	limits Limits
	slots  *Slots

	bytes *semaphore.Weighted // nil without a memory gate

	waiting atomic.Int64 // conversions waiting at one of the gates

	mu      sync.Mutex
	clients map[string]*client // the clients with a conversion past or at gate 1
}

// client is one client's gate, kept while anyone holds or waits for it.
type client struct {
	sem  *semaphore.Weighted
	refs int
}

// New returns a Gate with limits whose CPU gate is slots (nil: none).
func New(limits Limits, slots *Slots) *Gate {
	g := &Gate{limits: limits, slots: slots, clients: map[string]*client{}}
	if limits.Bytes > 0 {
		g.bytes = semaphore.NewWeighted(limits.Bytes)
	}
	return g
}

// BusyError is the error of a wait that reached its deadline.
type BusyError struct {
	// Gate is the gate waited at: "client", "memory" or "cpu".
	Gate string
	// Waited is how long this wait lasted.
	Waited time.Duration
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("no conversion slot free in time: waited %s at the %s gate", e.Waited.Round(time.Millisecond), e.Gate)
}

// FailOpenReason names the fail-open reason of the page: "busy".
func (e *BusyError) FailOpenReason() string { return "busy" }

// Admit waits at the client gate of key and at the memory gate for n
// bytes (at most Limits.Bytes), until ctx ends or deadline passes (a zero
// deadline: only ctx), and returns what gives both back. The error is
// ctx's when ctx ended first, else a *BusyError; nothing is held then.
func (g *Gate) Admit(ctx context.Context, key string, n int64, deadline time.Time) (release func(), err error) {
	var c *client
	if g.limits.PerClient > 0 {
		c = g.client(key)
		if err := g.wait(ctx, c.sem, 1, deadline, "client"); err != nil {
			g.drop(key, c)
			return nil, err
		}
	}
	weight := min(max(n, 0), g.limits.Bytes)
	if g.bytes != nil {
		if err := g.wait(ctx, g.bytes, weight, deadline, "memory"); err != nil {
			g.leave(key, c)
			return nil, err
		}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			if g.bytes != nil {
				g.bytes.Release(weight)
			}
			g.leave(key, c)
		})
	}, nil
}

// Run waits for a CPU slot, until ctx ends or deadline passes (zero: only
// ctx), and returns what gives it back. The error is as Admit's.
func (g *Gate) Run(ctx context.Context, deadline time.Time) (done func(), err error) {
	if g.slots == nil {
		return func() {}, nil
	}
	if err := g.wait(ctx, g.slots.sem, 1, deadline, "cpu"); err != nil {
		return nil, err
	}
	var once sync.Once
	return func() { once.Do(func() { g.slots.sem.Release(1) }) }, nil
}

// wait acquires n of sem before deadline.
func (g *Gate) wait(ctx context.Context, sem *semaphore.Weighted, n int64, deadline time.Time, gate string) error {
	if sem.TryAcquire(n) { // free, and nobody queued before us
		return nil
	}
	g.waiting.Add(1)
	defer g.waiting.Add(-1)
	start := time.Now()
	wctx := ctx
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		wctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	if err := sem.Acquire(wctx, n); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("waiting for a conversion slot: %w", ctx.Err())
		}
		return &BusyError{Gate: gate, Waited: time.Since(start)}
	}
	return nil
}

// client returns the gate of key, counting one more user of it.
func (g *Gate) client(key string) *client {
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.clients[key]
	if c == nil {
		c = &client{sem: semaphore.NewWeighted(int64(g.limits.PerClient))}
		g.clients[key] = c
	}
	c.refs++
	return c
}

// leave gives back the client slot held through c (nil: none).
func (g *Gate) leave(key string, c *client) {
	if c == nil {
		return
	}
	c.sem.Release(1)
	g.drop(key, c)
}

// drop counts one user of c fewer; the last one forgets the client.
func (g *Gate) drop(key string, c *client) {
	g.mu.Lock()
	defer g.mu.Unlock()
	c.refs--
	if c.refs == 0 {
		delete(g.clients, key)
	}
}

// Waiting is the number of conversions waiting at one of the gates now.
func (g *Gate) Waiting() int { return int(g.waiting.Load()) }

// Clients is the number of clients holding or waiting for a conversion.
func (g *Gate) Clients() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.clients)
}
