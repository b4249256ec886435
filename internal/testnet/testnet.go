// Package testnet gives tests ports on 127.0.0.1 and waits for servers on
// them: the one copy that caddymodule's tests (through caddytest), the
// browser tests and the examples' multi-process tests share. It imports
// nothing of Caddy's or of ours.
package testnet

import (
	"net"
	"sync"
	"testing"
	"time"
)

// given holds the ports FreePort handed out in this process.
var given struct {
	sync.Mutex
	ports map[int]bool
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago and
// that it has not returned before in this process, nor has any other test
// process that is still running (claim). The kernel may hand a port just
// closed out again, so two calls in a row (a site's port and its admin
// port), or two test binaries of `go test ./...`, could otherwise get the
// same one, and Caddy, which listens with SO_REUSEPORT, would then serve
// both on it and split the requests.
func FreePort(t testing.TB) int {
	t.Helper()
	given.Lock()
	defer given.Unlock()
	if given.ports == nil {
		given.ports = make(map[int]bool)
	}
	for range 100 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if !given.ports[port] && claim(port) {
			given.ports[port] = true
			return port
		}
	}
	t.Fatal("no port on 127.0.0.1 that was not handed out before, here or in another test process")
	return 0
}

// WaitListening waits up to within for something to accept connections on
// addr, and fails the test if nothing does.
func WaitListening(t testing.TB, addr string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("nothing listens on %s", addr)
}
