// Package procstatus reads a process's memory from /proc/<pid>/status
// (proc(5)): the benchmarks that report RSS (bench/proxy, bench/search)
// share it.
package procstatus

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Memory is the memory of a process as /proc/<pid>/status reports it.
type Memory struct {
	RSS int64 // VmRSS: resident set size now, in bytes
	HWM int64 // VmHWM: peak resident set size, in bytes
}

// Parse reads VmRSS and VmHWM from the text of /proc/<pid>/status
// (proc(5): "VmRSS:     1234 kB"). Both must be present.
func Parse(r io.Reader) (Memory, error) {
	var m Memory
	var seen int
	sc := bufio.NewScanner(io.LimitReader(r, 1<<20))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok || (key != "VmRSS" && key != "VmHWM") {
			continue
		}
		f := strings.Fields(val)
		if len(f) != 2 || f[1] != "kB" {
			return m, fmt.Errorf("status line %q: want \"<n> kB\"", sc.Text())
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || n < 0 || n > 1<<40 {
			return m, fmt.Errorf("status line %q: bad size", sc.Text())
		}
		if key == "VmRSS" {
			m.RSS = n << 10
			seen |= 1
		} else {
			m.HWM = n << 10
			seen |= 2
		}
	}
	if err := sc.Err(); err != nil {
		return m, fmt.Errorf("reading status: %w", err)
	}
	if seen != 3 {
		return m, fmt.Errorf("status has no VmRSS and VmHWM")
	}
	return m, nil
}

// Read reads the memory of process pid.
func Read(pid int) (Memory, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return Memory{}, err
	}
	defer f.Close()
	return Parse(f)
}
