//go:build unix

package testnet

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// claimed keeps the claim files open: the lock lasts as long as the file
// stays open, and the kernel lets go of it when the process ends, however
// it ends.
var claimed []*os.File

// claim takes port for this process against every other process on the
// machine that claims ports the same way: an exclusive flock on a file
// named after the port in the temporary directory. `go test ./...` runs
// packages in parallel processes, and a port one process closed may be
// handed to another; two Caddy servers listening with SO_REUSEPORT would
// then share it. It reports false when another live process holds the
// port; when the directory cannot be used it gives up the guard and
// reports true.
func claim(port int) bool {
	dir := filepath.Join(os.TempDir(), "caddy-agentready-testnet")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return true
	}
	f, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(port)), os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return true
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return false
	}
	claimed = append(claimed, f)
	return true
}
