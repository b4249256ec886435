package testnet

import (
	"net"
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
