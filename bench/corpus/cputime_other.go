//go:build !unix

package main

import "time"

// cpuTime is unavailable on this platform; throughput falls back to wall time.
func cpuTime() time.Duration { return 0 }

// maxRSS is unavailable on this platform.
func maxRSS() int64 { return 0 }
