package discover

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
	"time"
)

// maxRobotsBytes is how much of a robots.txt is parsed: RFC 9309 §2.5 lets a
// crawler stop at 500 KiB.
const maxRobotsBytes = 500 << 10

// robots is the part of a robots.txt (RFC 9309) that applies to one product
// token: the rules of its groups (or of the * groups), its Crawl-delay, and
// the Sitemap lines of the whole file.
//
// github.com/temoto/robotstxt was evaluated and not used: it rejects the
// whole file for one bad line (a Crawl-delay that is not a number, a rule
// before any User-agent), where RFC 9309 §2.2 asks for lenient parsing and
// the owner's other rules must still hold; it picks the first of two equally
// long rules where §2.2.2 makes allow win; and it compares paths without the
// percent-encoding normalisation of §2.2.2.
type robots struct {
	rules      []robotsRule
	disallowed bool          // the file was unreachable: everything is disallowed (§2.3.1.4)
	delay      time.Duration // Crawl-delay of the matched group, 0 for none
	sitemaps   []string
}

// robotsRule is one allow or disallow line, its pattern normalised.
type robotsRule struct {
	allow   bool
	pattern string
}

// allowAll is the robots of a site without robots.txt (RFC 9309 §2.3.1.3:
// 4xx means no restriction).
var allowAll = &robots{}

// disallowAll is the robots of a site whose robots.txt is unreachable
// (RFC 9309 §2.3.1.4: 5xx or a network error means complete disallow).
var disallowAll = &robots{disallowed: true}

// parseRobots parses a robots.txt leniently (unknown keys, lines without a
// colon and rules outside a group are ignored; keys are case-insensitive)
// and keeps the groups whose user-agent is agent (case-insensitive), merged,
// or else the * groups (RFC 9309 §2.2.1).
func parseRobots(body []byte, agent string) *robots {
	if len(body) > maxRobotsBytes {
		body = body[:maxRobotsBytes]
	}
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	agent = strings.ToLower(agent)
	type group struct {
		mine, star bool
		rules      []robotsRule
		delay      time.Duration
	}
	var groups []*group
	var cur *group
	inAgents := false // the previous line was a user-agent line
	r := &robots{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 4096), maxRobotsBytes+1)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		val = strings.TrimSpace(val)
		switch key {
		case "user-agent":
			if !inAgents || cur == nil {
				cur = &group{}
				groups = append(groups, cur)
			}
			inAgents = true
			// §2.2.1: the product token is matched case-insensitively; a
			// line naming "Name/1.0" still names the product Name.
			tok, _, _ := strings.Cut(strings.ToLower(val), "/")
			switch tok = strings.TrimSpace(tok); tok {
			case "*":
				cur.star = true
			case agent:
				cur.mine = true
			}
			continue
		case "allow", "disallow":
			if cur != nil && val != "" { // §2.2.2: an empty rule is ignored
				cur.rules = append(cur.rules, robotsRule{allow: key == "allow", pattern: normalizeRobotsPath(val)})
			}
		case "crawl-delay":
			if cur != nil {
				if f, err := strconv.ParseFloat(val, 64); err == nil && f > 0 && f < 86400 {
					cur.delay = time.Duration(f * float64(time.Second))
				}
			}
		case "sitemap":
			// §2.4: Sitemap lines are outside the groups.
			if val != "" && len(r.sitemaps) < maxSitemapLines {
				r.sitemaps = append(r.sitemaps, val)
			}
		}
		inAgents = false
	}
	mine := false
	for _, g := range groups {
		mine = mine || g.mine
	}
	for _, g := range groups {
		if (mine && g.mine) || (!mine && g.star) {
			r.rules = append(r.rules, g.rules...)
			r.delay = max(r.delay, g.delay)
		}
	}
	return r
}

// maxSitemapLines caps the Sitemap lines read from one robots.txt.
const maxSitemapLines = 100

// allowed says whether path (with its query, percent-encoded as sent) may
// be fetched: the longest matching rule wins, allow on a tie; no match
// allows (RFC 9309 §2.2.2). /robots.txt itself is always allowed.
func (r *robots) allowed(path string) bool {
	if r.disallowed {
		return false
	}
	if path == "/robots.txt" || len(r.rules) == 0 {
		return true
	}
	path = normalizeRobotsPath(path)
	best, allow := -1, true
	for _, rule := range r.rules {
		if !robotsMatch(rule.pattern, path) {
			continue
		}
		n := len(rule.pattern)
		if n > best || (n == best && rule.allow) {
			best, allow = n, rule.allow
		}
	}
	return allow
}

// robotsMatch matches path against a pattern where * is any sequence of
// characters and a final $ anchors the end (RFC 9309 §2.2.3). It runs in
// O(len(pattern)·len(path)) at worst, never exponentially.
func robotsMatch(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(path, parts[0]) {
		return false
	}
	pos := len(parts[0])
	if len(parts) == 1 {
		return !anchored || pos == len(path)
	}
	for i, p := range parts[1:] {
		last := i == len(parts)-2
		if last && anchored {
			return strings.HasSuffix(path[pos:], p)
		}
		j := strings.Index(path[pos:], p)
		if j < 0 {
			return false
		}
		pos += j + len(p)
	}
	return true
}

// normalizeRobotsPath brings a path or pattern to the form RFC 9309 §2.2.2
// compares: percent-encoded unreserved characters decoded, other escapes
// upper-cased, octets outside US-ASCII percent-encoded.
func normalizeRobotsPath(p string) string {
	var b strings.Builder
	b.Grow(len(p))
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '%' && i+2 < len(p) && isHex(p[i+1]) && isHex(p[i+2]):
			v := unhex(p[i+1])<<4 | unhex(p[i+2])
			if isUnreserved(v) {
				b.WriteByte(v)
			} else {
				b.WriteByte('%')
				b.WriteByte(upperHex[v>>4])
				b.WriteByte(upperHex[v&15])
			}
			i += 2
		case c >= 0x80 || c < 0x20 || c == ' ':
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

const upperHex = "0123456789ABCDEF"

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// isUnreserved reports the unreserved characters of RFC 3986 §2.3.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}
