package connect

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/agentready/caddy-agentready/internal/lru"
)

// rateLimitPolicy names the single quota policy in the RateLimit headers.
const rateLimitPolicy = "default"

// limiter is a token bucket per client key: perMinute requests a minute
// sustained, with a burst of the same size. It tracks at most maxClients
// keys, forgetting the least recently seen one first, so memory stays bounded
// whatever the number of addresses.
type limiter struct {
	perMinute int
	rate      float64 // tokens per second
	now       func() time.Time

	mu      sync.Mutex
	clients *lru.Cache[string, *bucket] // each costs 1, so the bound counts clients
}

type bucket struct {
	tokens float64
	last   time.Time
}

// decision is the outcome of one take.
type decision struct {
	allowed    bool
	remaining  int           // whole requests left
	reset      time.Duration // until the bucket is full again
	retryAfter time.Duration // until the next request is allowed (when refused)
}

func newLimiter(perMinute, maxClients int) *limiter {
	return &limiter{
		perMinute: perMinute, rate: float64(perMinute) / 60, now: time.Now,
		clients: lru.New[string, *bucket](int64(maxClients)),
	}
}

// take spends one token from key's bucket if it has one. others is how
// many requests of key other instances of a fleet counted over the last
// minute (0 alone): they are taken off the bucket as if spent here.
func (l *limiter) take(key string, others int) decision {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.bucket(key, now)
	b.tokens = min(float64(l.perMinute), b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	tokens := b.tokens - float64(others)
	d := decision{allowed: tokens >= 1}
	if d.allowed {
		b.tokens--
		tokens--
	} else {
		d.retryAfter = l.wait(1 - tokens)
	}
	d.remaining = int(math.Floor(max(tokens, 0)))
	d.reset = l.wait(float64(l.perMinute) - tokens)
	return d
}

// bucket returns key's bucket, creating it full and evicting the least
// recently seen client when the table is at its bound.
func (l *limiter) bucket(key string, now time.Time) *bucket {
	if b, ok := l.clients.Get(key); ok {
		return b
	}
	b := &bucket{tokens: float64(l.perMinute), last: now}
	l.clients.Add(key, b, 1)
	return b
}

// wait is how long the bucket takes to gain n tokens.
func (l *limiter) wait(n float64) time.Duration {
	if n <= 0 {
		return 0
	}
	return time.Duration(n / l.rate * float64(time.Second))
}

// tracked returns the number of clients held.
func (l *limiter) tracked() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.clients.Len()
}

// allow applies the rate limit to r. It always sets the RateLimit-Policy and
// RateLimit headers (draft-ietf-httpapi-ratelimit-headers §3–4: quota q
// over window w seconds; r remaining, t seconds until the quota is whole),
// and refuses with 429 and Retry-After (RFC 6585 §4, RFC 9110 §10.2.3) when
// the client's bucket is empty.
func (s *Server) allow(w http.ResponseWriter, r *http.Request) bool {
	if s.limiter == nil {
		return true
	}
	key, others := s.opts.ClientIP(r), 0
	if sh := s.opts.SharedLimit; sh != nil {
		others = sh.Others(key)
	}
	d := s.limiter.take(key, others)
	if d.allowed && s.opts.SharedLimit != nil {
		s.opts.SharedLimit.Seen(key)
	}
	h := w.Header()
	h.Set("RateLimit-Policy", fmt.Sprintf("%q;q=%d;w=60", rateLimitPolicy, s.limiter.perMinute))
	h.Set("RateLimit", fmt.Sprintf("%q;r=%d;t=%d", rateLimitPolicy, d.remaining, ceilSeconds(d.reset)))
	if d.allowed {
		return true
	}
	h.Set("Retry-After", strconv.Itoa(max(1, ceilSeconds(d.retryAfter))))
	writeProblem(w, http.StatusTooManyRequests, "too many requests",
		fmt.Sprintf("over %d requests a minute; retry after the delay in Retry-After", s.limiter.perMinute))
	return false
}

func ceilSeconds(d time.Duration) int {
	return int(math.Ceil(d.Seconds()))
}
