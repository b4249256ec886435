package parse

import (
	"bufio"
	"bytes"
	"net/url"
	"strings"
)

// robotsMaxLines bounds how much of a robots.txt is parsed; RFC 9309 §2.5
// lets crawlers stop at 500 KiB, and lines beyond this many are ignored.
const robotsMaxLines = 20000

// RobotsTxt is a parsed robots.txt (RFC 9309).
type RobotsTxt struct {
	groups         []robotsGroup
	Sitemaps       []string
	ContentSignals []string
}

// robotsGroup is one group: the user agents it names and its rules.
type robotsGroup struct {
	agents []string
	rules  []robotsRule
}

// robotsRule is one allow or disallow line.
type robotsRule struct {
	allow bool
	path  string
}

// Robots parses a robots.txt leniently, as RFC 9309 §2.2 asks:
// unknown lines are ignored, keys are case-insensitive, consecutive
// user-agent lines share one group.
func Robots(body []byte) *RobotsTxt {
	r := &RobotsTxt{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	var cur *robotsGroup
	lastWasAgent := false
	for n := 0; sc.Scan() && n < robotsMaxLines; n++ {
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
			if !lastWasAgent || cur == nil {
				r.groups = append(r.groups, robotsGroup{})
				cur = &r.groups[len(r.groups)-1]
			}
			cur.agents = append(cur.agents, strings.ToLower(val))
			lastWasAgent = true
			continue
		case "allow", "disallow":
			if cur != nil {
				cur.rules = append(cur.rules, robotsRule{allow: key == "allow", path: val})
			}
		case "sitemap":
			// RFC 9309 §2.2.4: sitemap lines are independent of groups.
			if val != "" {
				r.Sitemaps = append(r.Sitemaps, val)
			}
		case "content-signal":
			if val != "" {
				r.ContentSignals = append(r.ContentSignals, val)
			}
		}
		lastWasAgent = false
	}
	return r
}

// group returns the rules that apply to agent (RFC 9309 §2.2.1: the group
// naming the agent's product token, case-insensitively; else the "*" group).
// Rules of several matching groups are combined.
func (r *RobotsTxt) rulesFor(agent string) []robotsRule {
	agent = strings.ToLower(agent)
	var named, star []robotsRule
	foundNamed := false
	for _, g := range r.groups {
		for _, a := range g.agents {
			switch a {
			case agent:
				named = append(named, g.rules...)
				foundNamed = true
			case "*":
				star = append(star, g.rules...)
			}
		}
	}
	if foundNamed {
		return named
	}
	return star
}

// Allowed reports whether agent may fetch path (RFC 9309 §2.2.2: the longest
// matching rule wins; on a tie allow wins; no match allows).
func (r *RobotsTxt) Allowed(agent, path string) bool {
	if r == nil {
		return true
	}
	best, allow := -1, true
	for _, rule := range r.rulesFor(agent) {
		if rule.path == "" {
			continue // "Disallow:" with no path allows everything
		}
		if !robotsMatch(rule.path, path) {
			continue
		}
		l := len(rule.path)
		if l > best || (l == best && rule.allow) {
			best, allow = l, rule.allow
		}
	}
	return allow
}

// robotsMatch matches a path against a rule pattern with the "*" and "$"
// special characters of RFC 9309 §2.2.3.
func robotsMatch(pattern, path string) bool {
	if p, err := url.PathUnescape(pattern); err == nil {
		pattern = p
	}
	if p, err := url.PathUnescape(path); err == nil {
		path = p
	}
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = strings.TrimSuffix(pattern, "$")
	}
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(path, parts[0]) {
		return false
	}
	pos := len(parts[0])
	for _, part := range parts[1:] {
		i := strings.Index(path[pos:], part)
		if i < 0 {
			return false
		}
		pos += i + len(part)
	}
	if !anchored {
		return true
	}
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		return true
	}
	if len(parts) > 1 {
		return strings.HasSuffix(path, parts[len(parts)-1])
	}
	return pos == len(path)
}
