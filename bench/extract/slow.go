package main

import (
	"fmt"
	"net/url"
	"os"
	"sort"
	"time"
)

// -slowest and -repeat: where the time goes, page by page.
var (
	// slowest is how many of agent_ready's slowest pages (lowest MB per
	// CPU second) -slowest lists per corpus.
	slowest int
	// repeat is how many timed passes convertAll makes over a corpus (the
	// MB/s is over all of them): a one-page -match run with a CPU profile
	// needs many passes for enough samples.
	repeat = 1
)

// remeasure is how many times each listed slow page is converted again;
// the median of its CPU times is reported, since one conversion on a
// shared machine can be hit by another process's burst.
const remeasure = 5

// target is the throughput target, in MB of HTML per CPU second.
const target = 20.0

// reportSlowest prints, to standard error, the pages that hold most of the
// CPU time above the target's budget (a page of n bytes may take n/20 MB
// µs; the time it takes beyond that, in the pass, is its excess, and the
// excess of all pages is what keeps the corpus under 20 MB/s), each
// measured again as the median of remeasure conversions, with its share
// of the corpus's excess and its extraction path.
func reportSlowest(corpus string, t tool, names []string, inputs [][]byte, u func(int) *url.URL, per []time.Duration, how []string) {
	if slowest <= 0 || t.peer || len(per) == 0 {
		return
	}
	budget := func(i int) time.Duration { return time.Duration(float64(len(inputs[i])) / (target * 1e6) * 1e9) }
	idx := make([]int, len(inputs))
	var excess, cpu time.Duration
	bytes := 0
	for i := range idx {
		idx[i] = i
		cpu += per[i]
		bytes += len(inputs[i])
		if d := per[i] - budget(i); d > 0 {
			excess += d
		}
	}
	rates := make([]float64, len(idx))
	for i := range idx {
		rates[i] = float64(len(inputs[i])) / 1e6 / max(per[i], time.Microsecond).Seconds()
	}
	sort.Slice(idx, func(a, b int) bool { return per[idx[a]]-budget(idx[a]) > per[idx[b]]-budget(idx[b]) })
	fmt.Fprintf(os.Stderr, "%s, %s: %.1f MB in %.2f s of CPU (one pass, GOMAXPROCS=1); per page MB/s p10 %.1f, median %.1f, p90 %.1f; %.2f s above the %.0f MB/s budget, of which:\n",
		corpus, t.name, float64(bytes)/1e6, cpu.Seconds(), quantile(rates, 0.1), quantile(rates, 0.5), quantile(rates, 0.9), excess.Seconds(), target)
	fmt.Fprintf(os.Stderr, "| page | KB | ms (CPU, median of %d) | MB/s | share of the time above budget | extraction |\n", remeasure)
	fmt.Fprintln(os.Stderr, "|---|---:|---:|---:|---:|---|")
	shown := time.Duration(0)
	for _, i := range idx[:min(slowest, len(idx))] {
		ds := make([]time.Duration, remeasure)
		timedOne(func() {
			for k := range ds {
				c0 := cpuTime()
				_, _ = t.convert(inputs[i], u(i))
				ds[k] = cpuTime() - c0
			}
		})
		sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
		d := ds[len(ds)/2]
		shown += max(per[i]-budget(i), 0)
		fmt.Fprintf(os.Stderr, "| %s | %.0f | %.1f | %.1f | %.1f%% | %s |\n", names[i], float64(len(inputs[i]))/1e3,
			float64(d.Microseconds())/1e3, float64(len(inputs[i]))/1e6/d.Seconds(), 100*float64(max(per[i]-budget(i), 0))/float64(excess), how[i])
	}
	fmt.Fprintf(os.Stderr, "the %d pages above: %.0f%% of the time above budget\n", min(slowest, len(idx)), 100*float64(shown)/float64(excess))
}
