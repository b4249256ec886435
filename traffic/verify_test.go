package traffic

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/traffic/agents"
)

func TestParseRanges(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		in4, out []string
		err      bool
	}{
		{name: "google style", in: `{"creationTime":"2025-01-01T00:00:00","prefixes":[{"ipv4Prefix":"192.0.2.0/24"},{"ipv6Prefix":"2001:db8::/32"}]}`,
			in4: []string{"192.0.2.1", "192.0.2.255", "2001:db8::1", "::ffff:192.0.2.9"}, out: []string{"192.0.3.1", "2001:db9::1", "10.0.0.1"}},
		{name: "array of strings", in: `["198.51.100.0/25", "203.0.113.7"]`,
			in4: []string{"198.51.100.127", "203.0.113.7"}, out: []string{"198.51.100.128", "203.0.113.8"}},
		{name: "array of objects", in: `[{"ipv4Prefix":"198.51.100.0/24"}]`, in4: []string{"198.51.100.5"}},
		{name: "text", in: "# OpenAI\n192.0.2.0/28 # first\n\n  2001:db8::/48\n203.0.113.1\n",
			in4: []string{"192.0.2.15", "2001:db8:0:1::1", "203.0.113.1"}, out: []string{"192.0.2.16", "2001:db8:1::1"}},
		{name: "nested and unmasked", in: "10.0.0.0/8\n10.1.0.0/16\n10.1.2.3/8\n::ffff:172.16.0.0/108\n",
			in4: []string{"10.200.1.1", "172.16.0.1"}, out: []string{"11.0.0.0", "172.32.0.0"}},
		{name: "empty", in: "# nothing\n", err: true},
		{name: "empty json", in: `{"prefixes":[]}`, err: true},
		{name: "bad prefix", in: `{"prefixes":[{"ipv4Prefix":"192.0.2.0/33"}]}`, err: true},
		{name: "bad entry", in: `{"prefixes":[{"service":"x"}]}`, err: true},
		{name: "bad text", in: "192.0.2.0/24\nnot an address\n", err: true},
		{name: "bad json", in: `{"prefixes":`, err: true},
	} {
		set, err := ParseRanges(strings.NewReader(tc.in))
		if (err != nil) != tc.err {
			t.Errorf("%s: err %v", tc.name, err)
			continue
		}
		for _, s := range tc.in4 {
			if !set.Contains(netip.MustParseAddr(s)) {
				t.Errorf("%s: %s not contained", tc.name, s)
			}
		}
		for _, s := range tc.out {
			if set.Contains(netip.MustParseAddr(s)) {
				t.Errorf("%s: %s contained", tc.name, s)
			}
		}
	}
	if _, err := ParseRanges(strings.NewReader(strings.Repeat("#", MaxRangeBytes+1))); err == nil {
		t.Error("read an oversized list")
	}
	var nilSet *RangeSet
	if nilSet.Contains(netip.MustParseAddr("192.0.2.1")) || nilSet.Len() != 0 {
		t.Error("nil set contains")
	}
}

func TestLoadAndFetchRanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gptbot.json")
	if err := os.WriteFile(path, []byte(`{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if set, err := LoadRangesFile(path); err != nil || set.Len() != 1 {
		t.Fatalf("LoadRangesFile: %v %v", set, err)
	}
	if _, err := LoadRangesFile(path + ".missing"); err == nil {
		t.Error("loaded a missing file")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/gone" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(`["2001:db8::/32"]`))
	}))
	defer srv.Close()
	set, err := FetchRanges(context.Background(), srv.Client(), srv.URL+"/list.json")
	if err != nil || !set.Contains(netip.MustParseAddr("2001:db8::5")) {
		t.Fatalf("FetchRanges: %v", err)
	}
	if _, err := FetchRanges(context.Background(), srv.Client(), srv.URL+"/gone"); err == nil {
		t.Error("accepted a 404")
	}
}

// fakeResolver answers from maps and counts lookups.
type fakeResolver struct {
	ptr     map[string][]string
	fwd     map[string][]string
	fail    map[string]bool // addresses whose PTR lookup times out
	block   chan struct{}   // when set, lookups wait for it
	lookups atomic.Int64
}

func (f *fakeResolver) LookupAddr(ctx context.Context, addr string) ([]string, error) {
	f.lookups.Add(1)
	if f.block != nil {
		<-f.block
	}
	if f.fail[addr] {
		return nil, &net.DNSError{Err: "i/o timeout", Name: addr, IsTimeout: true}
	}
	names, ok := f.ptr[addr]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: addr, IsNotFound: true}
	}
	return names, nil
}

func (f *fakeResolver) LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error) {
	addrs, ok := f.fwd[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var out []net.IPAddr
	for _, a := range addrs {
		out = append(out, net.IPAddr{IP: net.ParseIP(a)})
	}
	return out, nil
}

func agentClass(name string) Classification {
	return Classification{Class: ClassAgent, Agent: agents.ByName(name)}
}

func TestVerifierRDNS(t *testing.T) {
	res := &fakeResolver{
		ptr: map[string][]string{
			"66.249.66.1":  {"crawl-66-249-66-1.googlebot.com."},
			"192.0.2.66":   {"crawl-192-0-2-66.googlebot.com."}, // forward does not confirm
			"192.0.2.67":   {"evilgooglebot.com."},              // not on a label boundary
			"2001:db8::10": {"rate-limited-proxy-66-249-90-1.google.com."},
		},
		fwd: map[string][]string{
			"crawl-66-249-66-1.googlebot.com":           {"66.249.66.1"},
			"crawl-192-0-2-66.googlebot.com":            {"66.249.66.2"},
			"evilgooglebot.com":                         {"192.0.2.67"},
			"rate-limited-proxy-66-249-90-1.google.com": {"2001:db8::10"},
		},
		fail: map[string]bool{"192.0.2.99": true},
	}
	v := NewVerifier(VerifierConfig{Resolver: res})
	defer v.Close()
	gb := agentClass("Googlebot")
	for _, tc := range []struct {
		ip    string
		want  Verification
		first Verification
	}{
		{"66.249.66.1", Verified, Unverified},
		{"::ffff:66.249.66.1", Verified, Verified}, // the same address, remembered
		{"2001:db8::10", Verified, Unverified},
		{"192.0.2.66", Failed, Unverified},
		{"192.0.2.67", Failed, Unverified},
		{"203.0.113.1", Failed, Unverified}, // no PTR record
		{"192.0.2.99", Unverified, Unverified},
	} {
		ip := netip.MustParseAddr(tc.ip)
		if got := v.Verify(ip, gb); got != tc.first {
			t.Errorf("%s: first answer %s, want unverified (the request never waits)", tc.ip, got)
		}
		v.Wait()
		if got := v.Verify(ip, gb); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.ip, got, tc.want)
		}
	}
	n := res.lookups.Load()
	v.Verify(netip.MustParseAddr("66.249.66.1"), gb)
	if res.lookups.Load() != n {
		t.Error("a cached result was looked up again")
	}
	// Clients without a claim or without a method are never looked up.
	for _, c := range []Classification{Classify(uaChrome), agentClass("ClaudeBot")} {
		if got := v.Verify(netip.MustParseAddr("66.249.66.1"), c); got != Unverified {
			t.Errorf("%s: %s", c.Name(), got)
		}
	}
	if res.lookups.Load() != n {
		t.Error("looked up a client with nothing to verify")
	}
	if s := v.Stats(); s.Lookups != 6 || s.Errors != 1 || s.Verified == 0 || s.Failed == 0 {
		t.Errorf("stats %+v", s)
	}
}

func TestVerifierTTL(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1_700_000_000, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	res := &fakeResolver{fail: map[string]bool{"192.0.2.1": true}}
	v := NewVerifier(VerifierConfig{Resolver: res, Now: clock, ErrorTTL: time.Minute, TTL: time.Hour})
	defer v.Close()
	ip, gb := netip.MustParseAddr("192.0.2.1"), agentClass("Googlebot")
	v.Verify(ip, gb)
	v.Wait()
	v.Verify(ip, gb)
	if res.lookups.Load() != 1 {
		t.Fatalf("lookups %d", res.lookups.Load())
	}
	mu.Lock()
	now = now.Add(2 * time.Minute)
	mu.Unlock()
	v.Verify(ip, gb)
	v.Wait()
	if res.lookups.Load() != 2 {
		t.Errorf("a transient failure was not retried after ErrorTTL: %d lookups", res.lookups.Load())
	}
}

func TestVerifierBounded(t *testing.T) {
	res := &fakeResolver{block: make(chan struct{})}
	v := NewVerifier(VerifierConfig{Resolver: res, Workers: 1, QueueSize: 2, CacheSize: 8})
	gb := agentClass("Googlebot")
	for i := range 20 {
		v.Verify(netip.AddrFrom4([4]byte{192, 0, 2, byte(i)}), gb)
	}
	s := v.Stats()
	// One check is with the worker, two wait in the queue; the rest are
	// dropped, never waited for.
	if s.Dropped < 17 || s.Cached > 8 {
		t.Errorf("stats %+v", s)
	}
	close(res.block)
	v.Close()
	v.Close()
	if got := v.Verify(netip.MustParseAddr("198.51.100.1"), gb); got != Unverified {
		t.Errorf("after Close: %s", got)
	}
	// The cache stays within CacheSize however many addresses come.
	v2 := NewVerifier(VerifierConfig{Resolver: &fakeResolver{}, CacheSize: 16, QueueSize: 1024})
	defer v2.Close()
	for i := range 500 {
		v2.Verify(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), gb)
	}
	v2.Wait()
	if c := v2.Stats().Cached; c > 16 {
		t.Errorf("cache holds %d", c)
	}
}

func TestVerifierRanges(t *testing.T) {
	v := NewVerifier(VerifierConfig{Resolver: &fakeResolver{}})
	defer v.Close()
	gpt := agentClass("GPTBot")
	ip := netip.MustParseAddr("192.0.2.10")
	if got := v.Verify(ip, gpt); got != Unverified {
		t.Errorf("without the list: %s", got)
	}
	url := agents.ByName("GPTBot").Verify.Ranges[0]
	set, _ := ParseRanges(strings.NewReader(`{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}`))
	v.SetRanges(url, set)
	if got := v.Verify(ip, gpt); got != Verified {
		t.Errorf("in range: %s", got)
	}
	if got := v.Verify(netip.MustParseAddr("198.51.100.1"), gpt); got != Failed {
		t.Errorf("out of range: %s", got)
	}
	// Googlebot has ranges and rdns: out of range falls back to rdns.
	v.SetRanges(agents.ByName("Googlebot").Verify.Ranges[0], set)
	if got := v.Verify(netip.MustParseAddr("192.0.2.1"), agentClass("Googlebot")); got != Verified {
		t.Errorf("googlebot in range: %s", got)
	}
	if got := v.Verify(netip.MustParseAddr("198.51.100.1"), agentClass("Googlebot")); got != Unverified {
		t.Errorf("googlebot out of range is queued for rdns: %s", got)
	}
	v.SetRanges(url, nil)
	if got := v.Verify(ip, gpt); got != Unverified {
		t.Errorf("after removing the list: %s", got)
	}
	if !contains(RangeURLs(), url) {
		t.Error("RangeURLs misses GPTBot's list")
	}
}

func TestVerificationNames(t *testing.T) {
	for _, v := range []Verification{Unverified, Verified, Failed} {
		if got, ok := parseVerification(v.String()); !ok || got != v {
			t.Errorf("%s does not round-trip", v)
		}
	}
	if Verification(9).String() != "unverified" {
		t.Error("out of range name")
	}
	var dnsErr *net.DNSError
	if errors.As(errors.New("x"), &dnsErr) {
		t.Error("errors.As")
	}
}

func FuzzParseRanges(f *testing.F) {
	for _, s := range []string{`{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"},{"ipv6Prefix":"2001:db8::/32"}]}`,
		`["10.0.0.0/8","::1"]`, "192.0.2.1\n# c\n2001:db8::/64\n", "", "{", "[1]", "::ffff:1.2.3.4/120"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		set, err := ParseRanges(strings.NewReader(in))
		if err != nil {
			return
		}
		if set.Len() == 0 {
			t.Fatal("an empty set without an error")
		}
		// Every prefix contains its own first address, and the merged list
		// is sorted and non-overlapping.
		for i, p := range set.prefixes {
			if !set.Contains(p.Addr()) {
				t.Fatalf("%v does not contain %v", p, p.Addr())
			}
			if i > 0 && (set.prefixes[i-1].Addr().Compare(p.Addr()) >= 0 || set.prefixes[i-1].Overlaps(p)) {
				t.Fatalf("prefixes %v and %v out of order or overlapping", set.prefixes[i-1], p)
			}
		}
	})
}

func TestRefreshRanges(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if strings.Contains(r.URL.Path, "perplexity") {
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		w.Write([]byte(`{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}`))
	}))
	defer srv.Close()
	v := NewVerifier(VerifierConfig{Resolver: &fakeResolver{}})
	defer v.Close()
	mirror := func(u string) string { return srv.URL + "/" + strings.NewReplacer("https://", "", "/", "_").Replace(u) }
	err := v.RefreshRanges(context.Background(), srv.Client(), mirror)
	if err == nil || !strings.Contains(err.Error(), "502") {
		t.Errorf("the failing lists are not reported: %v", err)
	}
	urls := RangeURLs()
	if int(hits.Load()) != len(urls) || v.Stats().RangeLists != len(urls)-2 {
		t.Errorf("%d fetches of %d lists, %d installed", hits.Load(), len(urls), v.Stats().RangeLists)
	}
	if got := v.Verify(netip.MustParseAddr("192.0.2.1"), agentClass("GPTBot")); got != Verified {
		t.Errorf("after refresh: %s", got)
	}
	if got := v.Verify(netip.MustParseAddr("192.0.2.1"), agentClass("PerplexityBot")); got != Unverified {
		t.Errorf("a list that failed to load: %s", got)
	}
}
