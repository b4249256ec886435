package cdn_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// aptPackage names the Debian packages that provide the caches.
const aptPackage = "nginx varnish"

// cacheKind is a shared cache this test can start.
type cacheKind string

const (
	nginx   cacheKind = "nginx"
	varnish cacheKind = "varnishd"
)

// need skips the test when the cache's binary is missing, or fails it when
// CI is set: CI installs the packages, so a missing binary there is a broken
// setup, not a reason to pass quietly.
func need(t *testing.T, kind cacheKind) string {
	t.Helper()
	path, err := exec.LookPath(string(kind))
	if err != nil {
		for _, dir := range []string{"/usr/sbin", "/usr/local/sbin"} {
			if p := filepath.Join(dir, string(kind)); isExecutable(p) {
				return p
			}
		}
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed (apt-get install -y %s)", kind, aptPackage)
		}
		t.Skipf("%s is not installed (apt-get install -y %s)", kind, aptPackage)
	}
	return path
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// startCache runs the cache with config (its ports already rewritten) until
// the test ends, listening on 127.0.0.1:port.
func startCache(t *testing.T, kind cacheKind, config, port string) {
	t.Helper()
	bin := need(t, kind)
	// The cache's workers may drop root for "nobody" and must still reach
	// their files, so the directory is world-readable (t.TempDir is not).
	dir, err := os.MkdirTemp("", "agentready-cdn-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var args []string
	switch kind {
	case nginx:
		conf := filepath.Join(dir, "nginx.conf")
		writeFile(t, conf, config)
		args = []string{"-p", dir + "/", "-c", conf, "-e", "stderr"}
	case varnish:
		vcl := filepath.Join(dir, "varnish.vcl")
		writeFile(t, vcl, config)
		args = []string{"-F", "-j", "none", "-n", filepath.Join(dir, "work"),
			"-a", "127.0.0.1:" + port, "-f", vcl, "-s", "malloc,64m", "-T", "none"}
	}
	cmd := exec.Command(bin, args...)
	out := new(lockedBuffer)
	cmd.Stdout, cmd.Stderr = out, out
	// Its own process group, so that stopping it also stops the workers
	// it forked, and nothing else.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", kind, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		stop(cmd.Process.Pid, done)
		if t.Failed() {
			t.Logf("%s output:\n%s", kind, out.String())
		}
	})
	waitListening(t, "127.0.0.1:"+port)
	select {
	case err := <-done:
		done <- err
		t.Fatalf("%s exited: %v\n%s", kind, err, out.String())
	default:
	}
}

// stop ends the process group pgid: SIGTERM, then SIGKILL after 10 s.
func stop(pgid int, done chan error) {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-done
	}
	// Workers outlive their master for a moment; make sure none is left.
	if err := syscall.Kill(-pgid, 0); err == nil || !errors.Is(err, syscall.ESRCH) {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// lockedBuffer collects a process's output; the process writes while a
// failing test may read.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() > 1<<20 {
		return len(p), nil // enough to diagnose; keep memory bounded
	}
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
