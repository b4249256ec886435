package admission

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// until polls cond (a state other goroutines reach) for up to 10 s.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// soon is a deadline that has passed by the time anyone waits for it.
func soon() time.Time { return time.Now().Add(time.Millisecond) }

func mustAdmit(t *testing.T, g *Gate, key string, n int64) func() {
	t.Helper()
	release, err := g.Admit(context.Background(), key, n, time.Time{})
	if err != nil {
		t.Fatalf("Admit(%s, %d): %v", key, n, err)
	}
	return release
}

// assertBusy checks that err is a *BusyError at gate, named "busy" for
// the fail-open counters.
func assertBusy(t *testing.T, err error, gate string) {
	t.Helper()
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Gate != gate || busy.FailOpenReason() != "busy" {
		t.Fatalf("err = %v, want a busy error at the %s gate", err, gate)
	}
}

// One client gets PerClient conversions admitted; its next one waits for
// its own earlier ones (and gives up at its deadline), while another
// client is admitted at once.
func TestPerClientLimit(t *testing.T) {
	g := New(Limits{PerClient: 2}, nil)
	r1, r2 := mustAdmit(t, g, "a", 1), mustAdmit(t, g, "a", 1)
	_, err := g.Admit(context.Background(), "a", 1, soon())
	assertBusy(t, err, "client")
	rb := mustAdmit(t, g, "b", 1)
	r1()
	r3 := mustAdmit(t, g, "a", 1) // a slot of its own came free
	for _, r := range []func(){r2, r3, rb} {
		r()
	}
	if n := g.Clients(); n != 0 {
		t.Errorf("%d clients remembered after every release, want 0", n)
	}
}

// A release function gives back once however often it is called.
func TestReleaseOnce(t *testing.T) {
	g := New(Limits{PerClient: 1, Bytes: 10}, NewSlots(1))
	release := mustAdmit(t, g, "a", 10)
	release()
	release()
	done, err := g.Run(context.Background(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	done()
	done()
	// Had a second call given back again, the gates would hold more than
	// their size and these would panic or succeed twice.
	r1 := mustAdmit(t, g, "a", 10)
	if _, err := g.Admit(context.Background(), "b", 1, soon()); err == nil {
		t.Error("memory gate admitted more than its bytes")
	}
	r1()
}

// Two clients share the CPU: one that sends many conversions at once
// queues behind itself, so another client's conversion runs after at most
// PerClient of the first's, not after all of them.
func TestFairnessBetweenClients(t *testing.T) {
	const perClient, flood = 2, 6
	g := New(Limits{PerClient: perClient}, NewSlots(1))
	ctx := context.Background()
	// The flooding client's first conversion holds the only CPU slot.
	releaseA1 := mustAdmit(t, g, "a", 1)
	doneA1, err := g.Run(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	convert := func(key string) {
		defer wg.Done()
		release, err := g.Admit(ctx, key, 1, time.Time{})
		if err != nil {
			t.Error(err)
			return
		}
		defer release()
		done, err := g.Run(ctx, time.Time{})
		if err != nil {
			t.Error(err)
			return
		}
		mu.Lock()
		order = append(order, key)
		mu.Unlock()
		done()
	}
	for range flood - 1 {
		wg.Add(1)
		go convert("a")
	}
	until(t, "the flood to queue", func() bool { return g.Waiting() == flood-1 })
	wg.Add(1)
	go convert("b") // arrives after every conversion of a
	until(t, "b to queue", func() bool { return g.Waiting() == flood })
	doneA1()
	releaseA1()
	wg.Wait()
	pos := -1
	for i, k := range order {
		if k == "b" {
			pos = i
		}
	}
	// Before b: a's conversions already past the client gate (one, its
	// second; the first ran before b came).
	if pos < 0 || pos > perClient-1 {
		t.Errorf("CPU order after a's first conversion: %v; b ran after %d of a's, want at most %d", order, pos, perClient-1)
	}
}

// A wait gives up at its deadline with a busy error, at each gate, and
// holds nothing afterwards.
func TestDeadlineBusy(t *testing.T) {
	g := New(Limits{PerClient: 1, Bytes: 100}, NewSlots(1))
	ctx := context.Background()

	release := mustAdmit(t, g, "a", 100)
	_, err := g.Admit(ctx, "b", 50, soon())
	assertBusy(t, err, "memory")
	_, err = g.Admit(ctx, "a", 1, soon())
	assertBusy(t, err, "client")
	release()

	done, err := g.Run(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Run(ctx, soon())
	assertBusy(t, err, "cpu")
	done()

	// Nothing was left held by the waits that gave up.
	release = mustAdmit(t, g, "b", 100)
	release()
	if done, err = g.Run(ctx, soon()); err != nil {
		t.Fatalf("CPU slot after the busy wait: %v", err)
	}
	done()
	if n, w := g.Clients(), g.Waiting(); n != 0 || w != 0 {
		t.Errorf("%d clients, %d waiting after the test, want 0", n, w)
	}
}

// A waiter whose client goes away leaves the queue with its context's
// error (not a busy one), and the conversions behind it move up; a
// conversion that ends gives its CPU slot to the next.
func TestCancelReleases(t *testing.T) {
	g := New(Limits{PerClient: 4}, NewSlots(1))
	done, err := g.Run(context.Background(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan error)
	go func() {
		_, err := g.Run(ctx, time.Time{})
		gone <- err
	}()
	until(t, "the first waiter to queue", func() bool { return g.Waiting() == 1 })
	next := make(chan func())
	go func() {
		d, err := g.Run(context.Background(), time.Time{})
		if err != nil {
			t.Error(err)
		}
		next <- d
	}()
	until(t, "the second waiter to queue", func() bool { return g.Waiting() == 2 })
	cancel()
	err = <-gone
	var busy *BusyError
	if !errors.Is(err, context.Canceled) || errors.As(err, &busy) {
		t.Errorf("canceled waiter: %v, want context.Canceled", err)
	}
	done() // the running conversion ends: the second waiter runs
	d := <-next
	d()
	// Every slot is free again.
	if d, err := g.Run(context.Background(), soon()); err != nil {
		t.Errorf("after every release: %v", err)
	} else {
		d()
	}
}

// A client that goes away while waiting at its own gate is forgotten.
func TestCancelForgetsClient(t *testing.T) {
	g := New(Limits{PerClient: 1}, nil)
	release := mustAdmit(t, g, "a", 1)
	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan error)
	go func() {
		_, err := g.Admit(ctx, "a", 1, time.Time{})
		gone <- err
	}()
	until(t, "the waiter to queue", func() bool { return g.Waiting() == 1 })
	cancel()
	if err := <-gone; !errors.Is(err, context.Canceled) {
		t.Errorf("canceled waiter: %v", err)
	}
	release()
	if n := g.Clients(); n != 0 {
		t.Errorf("%d clients remembered, want 0", n)
	}
}

// The memory gate counts bytes, at most its size for one page, and a
// page bigger than the gate is admitted alone rather than never.
func TestMemoryGate(t *testing.T) {
	g := New(Limits{Bytes: 100}, nil)
	r1 := mustAdmit(t, g, "a", 60)
	r2 := mustAdmit(t, g, "b", 40)
	_, err := g.Admit(context.Background(), "c", 1, soon())
	assertBusy(t, err, "memory")
	r1()
	r2()
	r3 := mustAdmit(t, g, "c", 1<<20) // counted as 100
	r3()
}

func TestDefaultSlots(t *testing.T) {
	if n := DefaultSlots(); n < 1 {
		t.Errorf("DefaultSlots() = %d, want at least 1", n)
	}
}
