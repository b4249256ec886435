package traffic

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strings"
)

// MaxRangeBytes is the largest IP-range list ParseRanges reads.
const MaxRangeBytes = 4 << 20

// A RangeSet is an immutable set of IP prefixes, matched in O(log n).
type RangeSet struct {
	// prefixes are masked, sorted by address and non-overlapping.
	prefixes []netip.Prefix
}

// NewRangeSet makes a set of the prefixes (masked; overlaps merged).
func NewRangeSet(prefixes []netip.Prefix) *RangeSet {
	ps := make([]netip.Prefix, 0, len(prefixes))
	for _, p := range prefixes {
		if !p.IsValid() {
			continue
		}
		if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
		}
		ps = append(ps, p.Masked())
	}
	slices.SortFunc(ps, func(a, b netip.Prefix) int {
		if c := a.Addr().Compare(b.Addr()); c != 0 {
			return c
		}
		return a.Bits() - b.Bits()
	})
	out := ps[:0]
	for _, p := range ps {
		if n := len(out); n > 0 && out[n-1].Contains(p.Addr()) {
			continue // inside the previous, wider or equal prefix
		}
		out = append(out, p)
	}
	return &RangeSet{prefixes: slices.Clip(out)}
}

// Len is the number of prefixes after merging.
func (s *RangeSet) Len() int {
	if s == nil {
		return 0
	}
	return len(s.prefixes)
}

// Contains reports whether ip is in the set. A nil set contains nothing.
func (s *RangeSet) Contains(ip netip.Addr) bool {
	if s == nil || !ip.IsValid() {
		return false
	}
	ip = ip.Unmap()
	// The last prefix that starts at or before ip is the only candidate.
	i, _ := slices.BinarySearchFunc(s.prefixes, ip, func(p netip.Prefix, ip netip.Addr) int {
		if p.Addr().Compare(ip) <= 0 {
			return -1
		}
		return 1
	})
	return i > 0 && s.prefixes[i-1].Contains(ip)
}

// rangeEntry is one prefix object of the JSON lists operators publish
// (Google, OpenAI, Bing, Apple: {"prefixes":[{"ipv4Prefix":"…"}, {"ipv6Prefix":"…"}]}).
type rangeEntry struct {
	IPv4 string `json:"ipv4Prefix"`
	IPv6 string `json:"ipv6Prefix"`
	IP   string `json:"ip_prefix"`
}

// ParseRanges reads an IP-range list: the JSON object operators publish
// ({"prefixes":[{"ipv4Prefix":"192.0.2.0/24"},{"ipv6Prefix":"2001:db8::/32"}]}),
// a JSON array of such objects or of strings, or plain text with one
// prefix or address per line ("#" starts a comment). A bare address is a
// one-address prefix. Any malformed entry, an empty list or more than
// MaxRangeBytes is an error: a caller keeps the set it had.
func ParseRanges(r io.Reader) (*RangeSet, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxRangeBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading range list: %w", err)
	}
	if len(data) > MaxRangeBytes {
		return nil, fmt.Errorf("range list over %d bytes", MaxRangeBytes)
	}
	var texts []string
	switch t := bytes.TrimSpace(data); {
	case len(t) > 0 && t[0] == '{':
		var doc struct {
			Prefixes []json.RawMessage `json:"prefixes"`
		}
		if err := json.Unmarshal(t, &doc); err != nil {
			return nil, fmt.Errorf("parsing range list: %w", err)
		}
		if texts, err = entries(doc.Prefixes); err != nil {
			return nil, err
		}
	case len(t) > 0 && t[0] == '[':
		var list []json.RawMessage
		if err := json.Unmarshal(t, &list); err != nil {
			return nil, fmt.Errorf("parsing range list: %w", err)
		}
		if texts, err = entries(list); err != nil {
			return nil, err
		}
	default:
		sc := bufio.NewScanner(bytes.NewReader(t))
		sc.Buffer(make([]byte, 0, 4096), MaxRangeBytes)
		for sc.Scan() {
			line, _, _ := strings.Cut(sc.Text(), "#")
			if line = strings.TrimSpace(line); line != "" {
				texts = append(texts, line)
			}
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("reading range list: %w", err)
		}
	}
	prefixes := make([]netip.Prefix, 0, len(texts))
	for i, s := range texts {
		p, err := parsePrefix(s)
		if err != nil {
			return nil, fmt.Errorf("range list entry %d: %w", i+1, err)
		}
		prefixes = append(prefixes, p)
	}
	if len(prefixes) == 0 {
		return nil, errors.New("range list has no prefixes")
	}
	return NewRangeSet(prefixes), nil
}

// entries reads the prefix strings of JSON list items.
func entries(items []json.RawMessage) ([]string, error) {
	out := make([]string, 0, len(items))
	for i, raw := range items {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			out = append(out, s)
			continue
		}
		var e rangeEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("range list entry %d: %w", i+1, err)
		}
		switch {
		case e.IPv4 != "":
			out = append(out, e.IPv4)
		case e.IPv6 != "":
			out = append(out, e.IPv6)
		case e.IP != "":
			out = append(out, e.IP)
		default:
			return nil, fmt.Errorf("range list entry %d: no ipv4Prefix or ipv6Prefix", i+1)
		}
	}
	return out, nil
}

// parsePrefix reads "192.0.2.0/24", "2001:db8::/32" or a bare address.
func parsePrefix(s string) (netip.Prefix, error) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "/") {
		return netip.ParsePrefix(s)
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// LoadRangesFile reads an IP-range list from a local file.
func LoadRangesFile(path string) (*RangeSet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("loading range list: %w", err)
	}
	defer f.Close()
	set, err := ParseRanges(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return set, nil
}

// FetchRanges downloads and parses an IP-range list. Only a 200 answer is
// accepted; the body is read up to MaxRangeBytes.
func FetchRanges(ctx context.Context, client *http.Client, url string) (*RangeSet, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("fetching range list: %w", err)
	}
	req.Header.Set("Accept", "application/json, text/plain;q=0.5")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching range list: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching range list %s: status %d", url, resp.StatusCode)
	}
	set, err := ParseRanges(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	return set, nil
}
