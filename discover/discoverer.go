package discover

import (
	"context"
	"sync"
)

// Discoverer runs discovery for one site on behalf of everything that needs
// its pages (sitemap generation, llms.txt, the content index, the
// self-scan): one run at a time, each refresh conditional on the last
// result. It is safe for concurrent use.
type Discoverer struct {
	opts Options

	mu      sync.Mutex
	last    *Result
	start   *Result // for the next run only (StartFrom)
	running *call
	joined  int // calls that waited for another's run (for tests)
}

// StartFrom hands the next run the result of a Sitemaps call for the same
// site (see Options.Start): it begins from that robots.txt and those
// sitemaps instead of asking for them again. Runs after it read them anew.
func (d *Discoverer) StartFrom(res *Result) {
	d.mu.Lock()
	d.start = res
	d.mu.Unlock()
}

// call is a run in progress that later callers wait for.
type call struct {
	done chan struct{}
	res  *Result
	err  error
}

// New checks opts and returns a Discoverer; nothing runs until Run.
// Options.Previous is used for the first run only.
func New(opts Options) (*Discoverer, error) {
	if _, _, err := opts.withDefaults(); err != nil {
		return nil, err
	}
	return &Discoverer{opts: opts, last: opts.Previous}, nil
}

// Run discovers the site, sending the validators of the last complete
// result. A call made while a run is in progress waits for that run (or for
// its own ctx) and returns its result rather than starting another. The
// last result is replaced only by a run that ended without error.
func (d *Discoverer) Run(ctx context.Context) (*Result, error) {
	d.mu.Lock()
	if c := d.running; c != nil {
		d.joined++
		d.mu.Unlock()
		select {
		case <-c.done:
			return c.res, c.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	c := &call{done: make(chan struct{})}
	d.running = c
	opts := d.opts
	opts.Previous = d.last
	if d.start != nil {
		opts.Start, d.start = d.start, nil
	}
	d.mu.Unlock()

	defer func() {
		d.mu.Lock()
		if c.err == nil && c.res != nil {
			d.last = c.res
		}
		d.running = nil
		d.mu.Unlock()
		close(c.done)
	}()
	c.res, c.err = Run(ctx, opts)
	return c.res, c.err
}

// Last is the last result of a run that ended without error, nil before.
// Callers must not modify it.
func (d *Discoverer) Last() *Result {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.last
}
