package traffic

import (
	"context"
	"errors"
	"github.com/agentready/caddy-agentready/internal/lru"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentready/caddy-agentready/traffic/agents"
)

// Verification is whether a client is the agent it claims to be.
type Verification uint8

// The verification states.
const (
	// Unverified: the claim could not be checked (yet): the operator
	// publishes no method, its range list is not loaded, the lookup is
	// still queued or was dropped, or DNS failed transiently.
	Unverified Verification = iota
	// Verified: the address is in the operator's published ranges, or its
	// reverse-DNS name is under the operator's domain and resolves back.
	Verified
	// Failed: the operator publishes a method and the address fails it: a
	// spoofer.
	Failed
)

var verificationNames = [...]string{"unverified", "verified", "failed"}

// String is "unverified", "verified" or "failed".
func (v Verification) String() string {
	if int(v) < len(verificationNames) {
		return verificationNames[v]
	}
	return "unverified"
}

// parseVerification reads a String value.
func parseVerification(s string) (Verification, bool) {
	for i, n := range verificationNames {
		if n == s {
			return Verification(i), true
		}
	}
	return 0, false
}

// Resolver is the DNS a Verifier uses; *net.Resolver implements it, and
// tests pass a fake.
type Resolver interface {
	LookupAddr(ctx context.Context, addr string) ([]string, error)
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// VerifierConfig configures a Verifier. Zero fields take their defaults.
type VerifierConfig struct {
	// Resolver does the DNS lookups. Default: net.DefaultResolver.
	Resolver Resolver
	// Workers is the number of concurrent reverse-DNS checks. Default: 2.
	Workers int
	// QueueSize bounds the checks waiting for a worker; a check that finds
	// the queue full is dropped (and counted) and retried on a later
	// request. Default: 256.
	QueueSize int
	// CacheSize bounds the remembered results (least recently used
	// evicted). Default: 4096.
	CacheSize int
	// TTL is how long a verified or failed result is remembered.
	// Default: 6h.
	TTL time.Duration
	// ErrorTTL is how long a transient DNS failure is remembered before the
	// address is checked again. Default: 5m.
	ErrorTTL time.Duration
	// LookupTimeout bounds one check (reverse and forward lookups).
	// Default: 5s.
	LookupTimeout time.Duration
	// Now is the clock. Default: time.Now.
	Now func() time.Time
}

// VerifierStats are the verifier's counters since it started.
type VerifierStats struct {
	// Lookups is the number of reverse-DNS checks run.
	Lookups uint64 `json:"lookups"`
	// CacheHits is the number of answers from remembered results.
	CacheHits uint64 `json:"cache_hits"`
	// Dropped is the number of checks not queued because the queue was full.
	Dropped uint64 `json:"dropped"`
	// Errors is the number of checks that ended in a transient DNS failure.
	Errors uint64 `json:"errors"`
	// Verified and Failed count the answers of each kind, range checks
	// included.
	Verified uint64 `json:"verified"`
	Failed   uint64 `json:"failed"`
	// Cached is the number of results remembered now.
	Cached int `json:"cached"`
	// RangeLists is the number of IP-range lists loaded.
	RangeLists int `json:"range_lists"`
}

// A Verifier checks claimed agents against their operator's published
// method without ever making the request wait: a range check is a lookup
// in memory; a reverse-DNS check is queued to a small worker pool and its
// result remembered, so the first request from an address is Unverified
// and later ones get the answer. It is safe for concurrent use; Close stops
// the workers.
type Verifier struct {
	cfg    VerifierConfig
	ranges atomic.Pointer[map[string]*RangeSet]

	rangesMu sync.Mutex                        // serialises SetRanges
	mu       sync.Mutex                        // guards cache and closed
	cache    *lru.Cache[cacheKey, *cacheEntry] // each entry costs 1: CacheSize entries
	closed   bool

	queue    chan cacheKey
	workers  sync.WaitGroup
	inflight sync.WaitGroup

	lookups, hits, dropped, errs, verified, failed atomic.Uint64
}

type cacheKey struct {
	ip    netip.Addr
	agent *agents.Agent
}

type cacheEntry struct {
	key     cacheKey
	result  Verification
	pending bool
	expires time.Time
}

// NewVerifier starts a verifier with cfg's workers.
func NewVerifier(cfg VerifierConfig) *Verifier {
	if cfg.Resolver == nil {
		cfg.Resolver = net.DefaultResolver
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 2
	}
	if cfg.QueueSize <= 0 {
		cfg.QueueSize = 256
	}
	if cfg.CacheSize <= 0 {
		cfg.CacheSize = 4096
	}
	if cfg.TTL <= 0 {
		cfg.TTL = 6 * time.Hour
	}
	if cfg.ErrorTTL <= 0 {
		cfg.ErrorTTL = 5 * time.Minute
	}
	if cfg.LookupTimeout <= 0 {
		cfg.LookupTimeout = 5 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	v := &Verifier{cfg: cfg, cache: lru.New[cacheKey, *cacheEntry](int64(cfg.CacheSize)),
		queue: make(chan cacheKey, cfg.QueueSize)}
	v.ranges.Store(&map[string]*RangeSet{})
	for range cfg.Workers {
		v.workers.Add(1)
		go v.work()
	}
	return v
}

// RangeURLs lists the range-list URLs the data file names, for the caller
// to load from files or fetch (FetchRanges) and hand to SetRanges.
func RangeURLs() []string {
	var out []string
	for _, a := range agents.All() {
		for _, u := range a.Verify.Ranges {
			if !contains(out, u) {
				out = append(out, u)
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// SetRanges installs the range list published at url (as the data file
// names it); nil removes it. Requests in flight keep the set they saw.
func (v *Verifier) SetRanges(url string, set *RangeSet) {
	v.rangesMu.Lock()
	defer v.rangesMu.Unlock()
	old := *v.ranges.Load()
	m := make(map[string]*RangeSet, len(old)+1)
	for k, s := range old {
		m[k] = s
	}
	if set == nil {
		delete(m, url)
	} else {
		m[url] = set
	}
	v.ranges.Store(&m)
}

// RefreshRanges fetches every range list the data file names (RangeURLs)
// and installs each that parses; a list that fails keeps the set it had.
// fetchURL maps a list's URL to where to fetch it (a mirror, a test
// server); nil fetches it as named. It returns the failures joined. The
// glue calls it on start and periodically, when refreshing is configured.
func (v *Verifier) RefreshRanges(ctx context.Context, client *http.Client, fetchURL func(string) string) error {
	var errs []error
	for _, u := range RangeURLs() {
		from := u
		if fetchURL != nil {
			from = fetchURL(u)
		}
		set, err := FetchRanges(ctx, client, from)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		v.SetRanges(u, set)
	}
	return errors.Join(errs...)
}

// Verify says whether the client at ip is the agent c claims. It never
// blocks on the network: a reverse-DNS check it cannot answer from memory
// is queued, and Unverified returned meanwhile. Clients that claim no
// agent are Unverified.
func (v *Verifier) Verify(ip netip.Addr, c Classification) Verification {
	a := c.Agent
	if a == nil || !ip.IsValid() {
		return Unverified
	}
	ip = ip.Unmap()
	if len(a.Verify.Ranges) > 0 {
		ranges := *v.ranges.Load()
		loaded := false
		for _, u := range a.Verify.Ranges {
			if set := ranges[u]; set != nil {
				loaded = true
				if set.Contains(ip) {
					v.verified.Add(1)
					return Verified
				}
			}
		}
		if loaded && len(a.Verify.RDNS) == 0 {
			v.failed.Add(1)
			return Failed
		}
	}
	if len(a.Verify.RDNS) == 0 {
		return Unverified
	}
	return v.rdns(cacheKey{ip, a})
}

// rdns answers from the cache or queues a check.
func (v *Verifier) rdns(k cacheKey) Verification {
	now := v.cfg.Now()
	v.mu.Lock()
	defer v.mu.Unlock()
	if e, ok := v.cache.Get(k); ok {
		if e.pending || now.Before(e.expires) {
			v.hits.Add(1)
			v.count(e.result)
			return e.result
		}
		v.cache.Remove(k)
	}
	if v.closed {
		return Unverified
	}
	v.inflight.Add(1)
	select {
	case v.queue <- k:
	default:
		v.inflight.Done()
		v.dropped.Add(1)
		return Unverified
	}
	v.cache.Add(k, &cacheEntry{key: k, pending: true}, 1) // the least recently used goes past CacheSize
	return Unverified
}

// count adds a result to the counters.
func (v *Verifier) count(r Verification) {
	switch r {
	case Verified:
		v.verified.Add(1)
	case Failed:
		v.failed.Add(1)
	}
}

// work runs queued checks until Close.
func (v *Verifier) work() {
	defer v.workers.Done()
	for k := range v.queue {
		ctx, cancel := context.WithTimeout(context.Background(), v.cfg.LookupTimeout)
		result, transient := fcrdns(ctx, v.cfg.Resolver, k.ip, k.agent.Verify.RDNS)
		cancel()
		v.lookups.Add(1)
		ttl := v.cfg.TTL
		if transient {
			v.errs.Add(1)
			ttl = v.cfg.ErrorTTL
		}
		v.mu.Lock()
		if e, ok := v.cache.Peek(k); ok {
			e.result, e.pending, e.expires = result, false, v.cfg.Now().Add(ttl)
		}
		v.mu.Unlock()
		v.inflight.Done()
	}
}

// fcrdns is forward-confirmed reverse DNS: some PTR name of ip must end in
// one of the suffixes on a label boundary and resolve back to ip. A lookup
// that fails for a reason other than "no such name" is transient: the
// result is Unverified, to be tried again.
func fcrdns(ctx context.Context, r Resolver, ip netip.Addr, suffixes []string) (Verification, bool) {
	names, err := r.LookupAddr(ctx, ip.String())
	if err != nil {
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
			return Failed, false
		}
		return Unverified, true
	}
	transient := false
	for _, name := range names {
		name = strings.ToLower(strings.TrimSuffix(name, "."))
		if !underSuffix(name, suffixes) {
			continue
		}
		addrs, err := r.LookupIPAddr(ctx, name)
		if err != nil {
			var dnsErr *net.DNSError
			if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
				transient = true
			}
			continue
		}
		for _, a := range addrs {
			if fa, ok := netip.AddrFromSlice(a.IP); ok && fa.Unmap() == ip {
				return Verified, false
			}
		}
	}
	if transient {
		return Unverified, true
	}
	return Failed, false
}

// underSuffix reports whether name is one of the suffixes or ends in "."
// plus one (so "evilgooglebot.com" is not under "googlebot.com").
func underSuffix(name string, suffixes []string) bool {
	for _, s := range suffixes {
		if name == s || strings.HasSuffix(name, "."+s) {
			return true
		}
	}
	return false
}

// Wait blocks until every queued check has finished.
func (v *Verifier) Wait() { v.inflight.Wait() }

// Stats returns the verifier's counters.
func (v *Verifier) Stats() VerifierStats {
	v.mu.Lock()
	cached := v.cache.Len()
	v.mu.Unlock()
	return VerifierStats{Lookups: v.lookups.Load(), CacheHits: v.hits.Load(), Dropped: v.dropped.Load(),
		Errors: v.errs.Load(), Verified: v.verified.Load(), Failed: v.failed.Load(), Cached: cached,
		RangeLists: len(*v.ranges.Load())}
}

// Close stops the workers after the queued checks; Verify keeps answering
// from memory and queues nothing more. Close is idempotent.
func (v *Verifier) Close() {
	v.mu.Lock()
	if v.closed {
		v.mu.Unlock()
		return
	}
	v.closed = true
	close(v.queue)
	v.mu.Unlock()
	v.workers.Wait()
}
