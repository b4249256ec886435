package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"time"
)

// runMemory is the memory subcommand: each phase of memoryPhases with
// -concurrency requests in flight, the peak RSS of process -pid read per
// phase (VmHWM, reset before each phase), and a report.
func runMemory(ctx context.Context, args []string, w io.Writer) error {
	fl := flag.NewFlagSet("memory", flag.ContinueOnError)
	base := fl.String("base", "", "front URL, e.g. http://127.0.0.1:8080 (loopback only)")
	pid := fl.Int("pid", 0, "pid of the Caddy process whose memory is read")
	conc := fl.Int("concurrency", 64, "requests in flight")
	rounds := fl.Int("rounds", 4, "requests per worker and phase")
	limit := fl.Int64("limit", 300<<20, "allowed peak RSS over idle, in bytes")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *pid <= 0 || *conc <= 0 || *rounds <= 0 {
		return fmt.Errorf("memory: -pid, -concurrency and -rounds must be positive")
	}
	// This process holds nothing but the responses in flight; keep its own
	// heap small so it does not crowd the process being measured.
	debug.SetGCPercent(50)
	idle, err := readStatus(*pid)
	if err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	fmt.Fprintf(w, "Idle: VmRSS %.1f MiB, VmHWM %.1f MiB. %d requests in flight, %d per worker and phase.\n\n",
		mib(idle.RSS), mib(idle.HWM), *conc, *rounds)
	fmt.Fprintln(w, "| phase | requests | errors | p50 ms | p99 ms | peak RSS MiB | peak over idle MiB | RSS after MiB |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|")
	var failed []string
	for _, ph := range memoryPhases() {
		if err := resetPeak(*pid); err != nil {
			return fmt.Errorf("memory: resetting the peak: %w", err)
		}
		res, err := runLoad(ctx, loadConfig{
			Base: *base, Workers: *conc, Max: *conc * *rounds, Duration: 10 * time.Minute,
			Timeout: 2 * time.Minute, Mix: []request{ph},
		})
		if err != nil {
			return err
		}
		m, err := readStatus(*pid)
		if err != nil {
			return fmt.Errorf("memory: %w", err)
		}
		k := res.Kinds[0]
		over := m.HWM - idle.RSS
		fmt.Fprintf(w, "| %s | %d | %d | %.0f | %.0f | %.1f | %.1f | %.1f |\n", ph.Name, k.Count, k.Errors,
			ms(k.Lat.percentile(50)), ms(k.Lat.percentile(99)), mib(m.HWM), mib(over), mib(m.RSS))
		if k.FirstError != "" {
			failed = append(failed, fmt.Sprintf("first error of %s: %s", ph.Name, k.FirstError))
		}
		if over > *limit {
			failed = append(failed, fmt.Sprintf("%s: peak %.1f MiB over idle, limit %.1f MiB", ph.Name, mib(over), mib(*limit)))
		}
	}
	for _, f := range failed {
		fmt.Fprintln(w, "\n"+f)
	}
	if len(failed) > 0 {
		return fmt.Errorf("memory: %d phases failed", len(failed))
	}
	return nil
}
