package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"github.com/agentready/caddy-agentready/internal/procstatus"
)

// runMemory is the memory subcommand: one phase of memoryPhases with
// -concurrency requests in flight against a Caddy process that has served
// nothing else (run.sh starts a fresh one per phase: the Go runtime keeps
// what it grew, so an earlier phase would hide a later one), and one row of
// the report: its peak RSS (VmHWM) over the idle RSS read at the start.
func runMemory(ctx context.Context, args []string, w io.Writer) error {
	fl := flag.NewFlagSet("memory", flag.ContinueOnError)
	base := fl.String("base", "", "front URL, e.g. http://127.0.0.1:8080 (loopback only)")
	pid := fl.Int("pid", 0, "pid of the Caddy process whose memory is read")
	phase := fl.Int("phase", 0, "index of the phase to run (0: 2 MB pages, 1: 50 MB page, 2: gzip bomb)")
	header := fl.Bool("header", false, "print the table header and exit")
	conc := fl.Int("concurrency", 64, "requests in flight")
	rounds := fl.Int("rounds", 1, "requests per worker")
	limit := fl.Int64("limit", 300<<20, "allowed peak RSS over idle, in bytes")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *header {
		fmt.Fprintln(w, "| phase | requests | errors | p50 ms | p99 ms | bytes/response | idle RSS MiB | peak RSS MiB | peak over idle MiB | RSS after MiB |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
		return nil
	}
	phases := memoryPhases()
	if *pid <= 0 || *conc <= 0 || *rounds <= 0 || *phase < 0 || *phase >= len(phases) {
		return fmt.Errorf("memory: -pid, -concurrency and -rounds must be positive and -phase below %d", len(phases))
	}
	// This process holds nothing but the responses in flight; keep its own
	// heap small so it does not crowd the process being measured.
	debug.SetGCPercent(50)
	idle, err := procstatus.Read(*pid)
	if err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	ph := phases[*phase]
	res, err := runLoad(ctx, loadConfig{
		Base: *base, Workers: *conc, Max: *conc * *rounds, Duration: 10 * time.Minute,
		Timeout: 5 * time.Minute, Mix: []request{ph},
	})
	if err != nil {
		return err
	}
	m, err := procstatus.Read(*pid)
	if err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	k := res.Kinds[0]
	over := m.HWM - idle.RSS
	fmt.Fprintf(w, "| %s | %d | %d | %.0f | %.0f | %d | %.1f | %.1f | %.1f | %.1f |\n", ph.Name, k.Count, k.Errors,
		ms(k.Lat.percentile(50)), ms(k.Lat.percentile(99)), k.Bytes/int64(max(k.Count, 1)),
		mib(idle.RSS), mib(m.HWM), mib(over), mib(m.RSS))
	switch {
	case k.FirstError != "":
		return fmt.Errorf("memory: %s: %d errors, first: %s", ph.Name, k.Errors, k.FirstError)
	case over > *limit:
		return fmt.Errorf("memory: %s: peak %.1f MiB over idle, limit %.1f MiB", ph.Name, mib(over), mib(*limit))
	}
	return nil
}

// mib formats a byte count in MiB with one decimal.
func mib(n int64) float64 {
	return float64(n) / (1 << 20)
}
