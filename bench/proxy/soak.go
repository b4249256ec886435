package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/agentready/caddy-agentready/internal/procstatus"
)

// rssSample is the memory of the Caddy process at one time of a run.
type rssSample struct {
	At time.Duration
	procstatus.Memory
}

// runSoak is the soak subcommand: the soak mix at a fixed rate for a fixed
// time, sampling the RSS of process -pid every -every, then a report.
func runSoak(ctx context.Context, args []string, w io.Writer) error {
	fl := flag.NewFlagSet("soak", flag.ContinueOnError)
	base := fl.String("base", "", "front URL, e.g. http://127.0.0.1:8080 (loopback only)")
	pid := fl.Int("pid", 0, "pid of the Caddy process whose memory is sampled")
	rate := fl.Float64("rate", 100, "requests per second")
	dur := fl.Duration("duration", 10*time.Minute, "length of the run")
	every := fl.Duration("every", 10*time.Second, "RSS sampling interval")
	workers := fl.Int("workers", 64, "requests in flight at most")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *pid <= 0 || *rate <= 0 || *every <= 0 {
		return fmt.Errorf("soak: -pid, -rate and -every must be positive")
	}
	cfg := loadConfig{
		Base: *base, Rate: *rate, Duration: *dur, Workers: *workers,
		Max: int(*rate*dur.Seconds()) + 1, Mix: soakMix(), Timeout: 30 * time.Second,
	}
	idle, err := procstatus.Read(*pid)
	if err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	samples := []rssSample{{0, idle}}
	type outcome struct {
		res *loadResult
		err error
	}
	done := make(chan outcome, 1)
	start := time.Now()
	go func() {
		res, err := runLoad(ctx, cfg)
		done <- outcome{res, err}
	}()
	tick := time.NewTicker(*every)
	defer tick.Stop()
	for {
		select {
		case out := <-done:
			if out.err != nil {
				return out.err
			}
			if m, err := procstatus.Read(*pid); err == nil {
				samples = append(samples, rssSample{time.Since(start), m})
			}
			writeSoak(w, cfg, out.res, samples)
			if n := out.res.Errors(); n > 0 {
				return fmt.Errorf("soak: %d errors", n)
			}
			return nil
		case <-tick.C:
			m, err := procstatus.Read(*pid)
			if err != nil {
				return fmt.Errorf("soak: caddy gone: %w", err)
			}
			samples = append(samples, rssSample{time.Since(start), m})
		}
	}
}

// writeSoak prints the soak report in Markdown.
func writeSoak(w io.Writer, cfg loadConfig, res *loadResult, samples []rssSample) {
	fmt.Fprintf(w, "Soak: %.0f req/s for %s (%d sent, %d dropped, %d errors) in %s.\n\n",
		cfg.Rate, cfg.Duration, res.Sent, res.Dropped, res.Errors(), res.Elapsed.Round(time.Millisecond))
	writeKinds(w, res)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| t | VmRSS MiB | VmHWM MiB |")
	fmt.Fprintln(w, "|---:|---:|---:|")
	for _, s := range samples {
		fmt.Fprintf(w, "| %s | %.1f | %.1f |\n", s.At.Round(time.Second), mib(s.RSS), mib(s.HWM))
	}
	lo, hi := drift(samples)
	fmt.Fprintf(w, "\nRSS after warm-up (from the second sample on): min %.1f MiB, max %.1f MiB; last %.1f MiB.\n",
		mib(lo), mib(hi), mib(samples[len(samples)-1].RSS))
}

// drift returns the lowest and highest RSS from the second sample on (the
// first is the idle process before any request).
func drift(samples []rssSample) (lo, hi int64) {
	if len(samples) < 2 {
		if len(samples) == 1 {
			return samples[0].RSS, samples[0].RSS
		}
		return 0, 0
	}
	lo, hi = samples[1].RSS, samples[1].RSS
	for _, s := range samples[2:] {
		lo, hi = min(lo, s.RSS), max(hi, s.RSS)
	}
	return lo, hi
}
