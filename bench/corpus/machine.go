package main

import (
	"bufio"
	"os"
	"runtime"
	"strings"
	"time"
)

// machine describes where a run happened, for the record in docs/benchmarks.md.
type machine struct {
	Date string `json:"date"`
	// CPUs is the machine's processor count (/proc/cpuinfo); Usable is how
	// many this process may run on (fewer when pinned with taskset).
	CPUs      int    `json:"cpus"`
	Usable    int    `json:"usable_cpus"`
	CPUModel  string `json:"cpu_model"`
	GoVersion string `json:"go_version"`
	Platform  string `json:"platform"`
	// LoadAvg is /proc/loadavg at the start: on a shared machine it says how
	// much else was running.
	LoadAvg string `json:"loadavg,omitempty"`
	// MaxRSSBytes is the runner's own peak resident set, filled in at the end.
	MaxRSSBytes int64 `json:"max_rss_bytes,omitempty"`
}

// describeMachine reads what it can about this machine; missing pieces are
// left empty.
func describeMachine() machine {
	m := machine{
		Date:      time.Now().UTC().Format(time.RFC3339),
		CPUs:      runtime.NumCPU(),
		Usable:    runtime.NumCPU(),
		GoVersion: runtime.Version(),
		Platform:  runtime.GOOS + "/" + runtime.GOARCH,
	}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		processors := 0
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			switch k = strings.TrimSpace(k); {
			case !ok:
			case k == "processor":
				processors++
			case k == "model name" && m.CPUModel == "":
				m.CPUModel = strings.TrimSpace(v)
			}
		}
		f.Close()
		if processors > 0 {
			m.CPUs = processors
		}
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		m.LoadAvg = strings.TrimSpace(string(b))
	}
	return m
}
