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
	Date      string `json:"date"`
	CPUs      int    `json:"nproc"`
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
		GoVersion: runtime.Version(),
		Platform:  runtime.GOOS + "/" + runtime.GOARCH,
	}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPUModel = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		m.LoadAvg = strings.TrimSpace(string(b))
	}
	return m
}
