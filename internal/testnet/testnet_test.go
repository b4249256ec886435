package testnet

import (
	"net"
	"runtime"
	"testing"
	"time"
)

// TestFreePortNeverTwice: ports come back distinct however many are asked
// for, though the kernel reuses a port just closed.
func TestFreePortNeverTwice(t *testing.T) {
	seen := map[int]bool{}
	for range 200 {
		p := FreePort(t)
		if seen[p] {
			t.Fatalf("port %d handed out twice", p)
		}
		seen[p] = true
	}
}

func TestWaitListening(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	WaitListening(t, l.Addr().String(), time.Second)
}

// TestFreePortClaimedElsewhere: FreePort's ports are claimed, so that
// another holder (another open file description's flock: another test
// process, as far as the lock can tell) cannot claim them.
func TestFreePortClaimedElsewhere(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock")
	}
	p := FreePort(t)
	if claim(p) {
		t.Fatalf("port %d handed out by FreePort could be claimed again", p)
	}
	// A port nobody has claimed can be claimed, once. The kernel may hand
	// out a port another test process has claimed and not bound yet (the
	// case claim exists for), so the test looks for one it can claim among
	// a few, as FreePort does.
	for range 20 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		q := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if !claim(q) {
			continue
		}
		if claim(q) {
			t.Fatalf("port %d claimed twice", q)
		}
		return
	}
	t.Fatal("none of 20 free ports could be claimed")
}
