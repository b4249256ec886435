package connect

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// fakeClock is a settable time source.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestLimiterBucket(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	l := newLimiter(60, 100) // one a second, burst 60
	l.now = clock.now
	for i := range 60 {
		if d := l.take("a", 0); !d.allowed || d.remaining != 59-i {
			t.Fatalf("request %d: %+v", i, d)
		}
	}
	d := l.take("a", 0)
	if d.allowed || d.retryAfter <= 0 || d.retryAfter > time.Second {
		t.Fatalf("61st request: %+v, want refused with a wait of at most 1s", d)
	}
	if other := l.take("b", 0); !other.allowed {
		t.Fatal("another client is limited too")
	}
	clock.t = clock.t.Add(2 * time.Second)
	if d := l.take("a", 0); !d.allowed || d.remaining != 1 {
		t.Fatalf("after 2s: %+v, want allowed with 1 left", d)
	}
	clock.t = clock.t.Add(time.Hour)
	if d := l.take("a", 0); d.remaining != 59 || d.reset != time.Second {
		t.Fatalf("after an hour: %+v, want a full bucket less one", d)
	}
}

func TestLimiterBoundsClients(t *testing.T) {
	l := newLimiter(1, 50)
	for i := range 1000 {
		l.take(fmt.Sprintf("10.0.%d.%d", i/256, i%256), 0)
	}
	if n := l.tracked(); n != 50 {
		t.Fatalf("tracking %d clients, want the bound of 50", n)
	}
	if d := l.take("10.0.3.231", 0); d.allowed {
		t.Error("the most recent client was forgotten")
	}
	if d := l.take("10.0.0.0", 0); !d.allowed {
		t.Error("the oldest client was not evicted")
	}
}

func TestRateLimitHeaders(t *testing.T) {
	_, ts := newTestServer(t, Options{RequestsPerMinute: 3}, nil)
	for i := range 4 {
		for _, path := range []string{DefaultAskPath + "?query=kiln", DefaultMCPPath} {
			var resp *http.Response
			if path == DefaultMCPPath {
				resp, _ = postMCP(t, ts.URL, initializeBody, nil)
			} else {
				r, err := http.Get(ts.URL + path)
				if err != nil {
					t.Fatal(err)
				}
				r.Body.Close()
				resp = r
			}
			if resp.Header.Get("RateLimit-Policy") != `"default";q=3;w=60` {
				t.Fatalf("RateLimit-Policy = %q", resp.Header.Get("RateLimit-Policy"))
			}
			if !strings.HasPrefix(resp.Header.Get("RateLimit"), `"default";r=`) {
				t.Fatalf("RateLimit = %q", resp.Header.Get("RateLimit"))
			}
			allowed := i == 0 || (i == 1 && path != DefaultMCPPath) // 3 requests: ask, mcp, ask
			if allowed != (resp.StatusCode != http.StatusTooManyRequests) {
				t.Fatalf("request %d to %s: status %d", i, path, resp.StatusCode)
			}
			if resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "" {
				t.Fatal("429 without Retry-After")
			}
		}
	}
}

// TestLimiterCountsOthers: the requests other instances of a fleet
// counted for a client come off its budget here.
func TestLimiterCountsOthers(t *testing.T) {
	for _, tc := range []struct {
		others, allowed int
	}{{0, 10}, {4, 6}, {10, 0}, {25, 0}} {
		l := newLimiter(10, 100)
		l.now = (&fakeClock{t: time.Unix(1_800_000_000, 0)}).now
		n := 0
		for range 20 {
			if l.take("a", tc.others).allowed {
				n++
			}
		}
		if n != tc.allowed {
			t.Errorf("others %d: %d allowed, want %d", tc.others, n, tc.allowed)
		}
	}
}
