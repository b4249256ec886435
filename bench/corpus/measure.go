package main

import (
	"net/url"
	"runtime"
	"runtime/debug"
	"time"
)

// measureThroughput converts every page rounds times with GOMAXPROCS=1, so
// the figure is what one core does, and returns wall and CPU time. Outputs
// are discarded; errors were already recorded by the scoring pass.
func measureThroughput(conv converterFunc, pages []*page, u *url.URL, rounds int) *timing {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	runtime.GC()
	t := &timing{Rounds: rounds}
	cpu0, wall0 := cpuTime(), time.Now()
	for range rounds {
		for _, p := range pages {
			_, _ = conv(p.html, u)
			t.Bytes += int64(len(p.html))
		}
	}
	t.WallSeconds = time.Since(wall0).Seconds()
	t.CPUSeconds = (cpuTime() - cpu0).Seconds()
	return t
}

// measureAlloc converts one page with the garbage collector off and returns
// the heap bytes allocated meanwhile. With nothing collected the heap only
// grows, so this is an upper bound on the conversion's peak live heap.
func measureAlloc(conv converterFunc, html []byte, u *url.URL) uint64 {
	runtime.GC()
	prev := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(prev)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _ = conv(html, u)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
