package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// request is one kind of request in a workload.
type request struct {
	// Name labels the kind in the report.
	Name string
	// Path is the path and query; every "{n}" becomes the request's
	// sequence number (unique queries defeat a conversion cache).
	Path string
	// Header is sent with every request of this kind. Default: none.
	Header http.Header
	// Want is the expected status; anything else is an error.
	Want int
	// Revalidate sends If-None-Match with the ETag a first GET of the
	// same request returned, so the answer should be 304.
	Revalidate bool
	// Weight is the share of this kind in the mix. Default (0): 1.
	Weight int
}

// loadConfig is one load run.
type loadConfig struct {
	// Base is the loopback origin requests go to, e.g. http://127.0.0.1:8080.
	Base string
	// Rate is the fixed request rate per second (open loop: a request is
	// due at its slot whether or not earlier ones have finished, and its
	// latency counts from that slot). 0 runs closed loop: Workers requests
	// back to back.
	Rate float64
	// Duration bounds the run. Required.
	Duration time.Duration
	// Max bounds the number of requests. Required.
	Max int
	// Workers is the number of requests in flight at most; at a fixed rate
	// a request due while all are busy is dropped and counted. Default: 64.
	Workers int
	// Timeout bounds one request. Default: 30s.
	Timeout time.Duration
	// Mix is the workload, taken in weighted round robin.
	Mix []request
}

// kindResult is what one kind of request measured.
type kindResult struct {
	Name       string
	Count      int
	Errors     int
	FirstError string
	Bytes      int64
	Lat        latencies
}

// loadResult is the outcome of a load run.
type loadResult struct {
	Kinds   []*kindResult
	Sent    int
	Dropped int // due while every worker was busy (fixed rate only)
	Elapsed time.Duration
}

// Errors is the number of failed requests over every kind, plus drops.
func (r *loadResult) Errors() int {
	n := r.Dropped
	for _, k := range r.Kinds {
		n += k.Errors
	}
	return n
}

// job is one request due at a time.
type job struct {
	kind int
	seq  int
	due  time.Time // zero in closed loop
}

// newClient returns a client for loopback benchmarks: no transparent
// decompression (a bomb stays compressed), no redirects followed.
func newClient(workers int, timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
			DisableCompression:  true,
			MaxIdleConns:        workers,
			MaxIdleConnsPerHost: workers,
			IdleConnTimeout:     90 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// runLoad runs cfg against cfg.Base and returns per-kind results.
func runLoad(ctx context.Context, cfg loadConfig) (*loadResult, error) {
	u, err := url.Parse(cfg.Base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("load: bad base URL %q", cfg.Base)
	}
	if err := loopbackOnly(u.Host); err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	if cfg.Duration <= 0 || cfg.Max <= 0 || len(cfg.Mix) == 0 {
		return nil, fmt.Errorf("load: duration, max and mix are required")
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 64
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	client := newClient(cfg.Workers, cfg.Timeout)
	defer client.CloseIdleConnections()
	mix, err := revalidate(ctx, client, cfg.Base, cfg.Mix)
	if err != nil {
		return nil, err
	}
	res := &loadResult{}
	for _, m := range mix {
		res.Kinds = append(res.Kinds, &kindResult{Name: m.Name})
	}
	slots := weightedSlots(mix)

	ctx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	jobs := make(chan job)
	var inflight atomic.Int64 // requests handed out and not yet finished
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range cfg.Workers {
		wg.Go(func() {
			for j := range jobs {
				n, lat, err := do(client, cfg.Base, mix[j.kind], j)
				inflight.Add(-1)
				mu.Lock()
				k := res.Kinds[j.kind]
				k.Count++
				k.Bytes += n
				k.Lat = append(k.Lat, lat)
				if err != nil {
					k.Errors++
					if k.FirstError == "" {
						k.FirstError = err.Error()
					}
				}
				mu.Unlock()
			}
		})
	}
	start := time.Now()
	schedule(ctx, cfg, start, slots, jobs, &inflight, res)
	close(jobs)
	wg.Wait()
	res.Elapsed = time.Since(start)
	return res, nil
}

// schedule hands out jobs until ctx ends or cfg.Max were sent. At a fixed
// rate a job is dropped only when cfg.Workers requests are in flight; a
// worker that is between two requests is waited for, so neither the start
// of the run nor the instant between a response and the next receive count
// as saturation.
func schedule(ctx context.Context, cfg loadConfig, start time.Time, slots []int, jobs chan<- job, inflight *atomic.Int64, res *loadResult) {
	var interval time.Duration
	if cfg.Rate > 0 {
		interval = time.Duration(float64(time.Second) / cfg.Rate)
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	for i := 0; i < cfg.Max; i++ {
		j := job{kind: slots[i%len(slots)], seq: i}
		if interval > 0 {
			j.due = start.Add(time.Duration(i) * interval)
			timer.Reset(time.Until(j.due))
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
			}
			if inflight.Load() >= int64(cfg.Workers) {
				res.Dropped++
				continue
			}
		}
		inflight.Add(1)
		select {
		case <-ctx.Done():
			inflight.Add(-1)
			return
		case jobs <- j:
			res.Sent++
		}
	}
}

// do sends one request and reads the whole body. The latency counts from
// the job's due time, so a stalled server cannot hide queued requests
// (coordinated omission).
func do(client *http.Client, base string, m request, j job) (int64, time.Duration, error) {
	if j.due.IsZero() { // closed loop: due when a worker takes it
		j.due = time.Now()
	}
	p := strings.ReplaceAll(m.Path, "{n}", strconv.Itoa(j.seq))
	req, err := http.NewRequest(http.MethodGet, base+p, nil)
	if err != nil {
		return 0, 0, err
	}
	for k, v := range m.Header {
		req.Header[k] = v
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, time.Since(j.due), err
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	lat := time.Since(j.due)
	if err != nil {
		return n, lat, fmt.Errorf("%s: reading body: %w", p, err)
	}
	if resp.StatusCode != m.Want {
		return n, lat, fmt.Errorf("%s: status %d, want %d", p, resp.StatusCode, m.Want)
	}
	return n, lat, nil
}

// revalidate fills If-None-Match of every Revalidate kind with the ETag a
// GET of the same request returns now.
func revalidate(ctx context.Context, client *http.Client, base string, mix []request) ([]request, error) {
	out := make([]request, len(mix))
	for i, m := range mix {
		out[i] = m
		if !m.Revalidate {
			continue
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+strings.ReplaceAll(m.Path, "{n}", "0"), nil)
		if err != nil {
			return nil, err
		}
		for k, v := range m.Header {
			req.Header[k] = v
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("revalidate %s: %w", m.Name, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		etag := resp.Header.Get("ETag")
		if etag == "" {
			return nil, fmt.Errorf("revalidate %s: no ETag in the %d response", m.Name, resp.StatusCode)
		}
		out[i].Header = m.Header.Clone()
		if out[i].Header == nil {
			out[i].Header = http.Header{}
		}
		out[i].Header.Set("If-None-Match", etag)
	}
	return out, nil
}

// weightedSlots spreads the kinds over a cycle in proportion to their
// weights, interleaved so that no kind arrives in a burst.
func weightedSlots(mix []request) []int {
	total := 0
	for _, m := range mix {
		total += max(m.Weight, 1)
	}
	slots := make([]int, 0, total)
	credit := make([]int, len(mix))
	for range total {
		best := 0
		for i, m := range mix {
			credit[i] += max(m.Weight, 1)
			if credit[i] > credit[best] {
				best = i
			}
		}
		credit[best] -= total
		slots = append(slots, best)
	}
	return slots
}
