package discover

import (
	"slices"
	"testing"
	"time"
)

// TestRobots: RFC 9309 matching, including the cases a stricter or older
// parser gets wrong.
func TestRobots(t *testing.T) {
	tests := []struct {
		name, body, path string
		want             bool
	}{
		{"no rules", "", "/x", true},
		{"prefix", "User-agent: *\nDisallow: /private\n", "/private/x", false},
		{"prefix is not a segment", "User-agent: *\nDisallow: /priv\n", "/private", false},
		{"other path", "User-agent: *\nDisallow: /private\n", "/public", true},
		{"our group wins over *", "User-agent: *\nDisallow: /\n\nUser-agent: agentready\nDisallow: /x\n", "/y", true},
		{"our group by product token with version", "User-agent: AgentReady/2.0\nDisallow: /\n", "/y", false},
		{"another bot's group only", "User-agent: otherbot\nDisallow: /\n", "/y", true},
		{"grouped user-agents", "User-agent: otherbot\nUser-agent: agentready\nDisallow: /y\n", "/y", false},
		{"two groups for us merge", "User-agent: agentready\nDisallow: /a\n\nUser-agent: agentready\nDisallow: /b\n", "/b", false},
		{"longest match wins", "User-agent: *\nDisallow: /docs\nAllow: /docs/public\n", "/docs/public/x", true},
		{"allow wins a tie (§2.2.2)", "User-agent: *\nDisallow: /page\nAllow: /page\n", "/page", true},
		{"wildcard", "User-agent: *\nDisallow: /*.php\n", "/a/b.php?x=1", false},
		{"end anchor", "User-agent: *\nDisallow: /*.php$\n", "/a/b.php?x=1", true},
		{"end anchor matches", "User-agent: *\nDisallow: /*.php$\n", "/a/b.php", false},
		{"home only", "User-agent: *\nDisallow: /\nAllow: /$\n", "/", true},
		{"home only, others out", "User-agent: *\nDisallow: /\nAllow: /$\n", "/x", false},
		{"query matched", "User-agent: *\nDisallow: /*?sort=\n", "/list?sort=asc", false},
		{"empty disallow allows", "User-agent: *\nDisallow:\n", "/x", true},
		{"percent-encoding of unreserved decoded", "User-agent: *\nDisallow: /%7Euser\n", "/~user/x", false},
		{"escape case ignored", "User-agent: *\nDisallow: /a%3cd\n", "/a%3Cd", false},
		{"non-ASCII encoded", "User-agent: *\nDisallow: /café\n", "/caf%C3%A9", false},
		{"bad Crawl-delay keeps the rules", "User-agent: *\nCrawl-delay: soon\nDisallow: /x\n", "/x", false},
		{"rule before any group ignored, rest kept", "Disallow: /y\nUser-agent: *\nDisallow: /x\n", "/x", false},
		{"rule before any group has no effect", "Disallow: /y\nUser-agent: *\nDisallow: /x\n", "/y", true},
		{"comments, case, spaces, CRLF", "USER-AGENT : * # all\r\n  disallow :/x # no\r\n", "/x", false},
		{"BOM", "\ufeffUser-agent: *\nDisallow: /x\n", "/x", false},
		{"robots.txt always allowed", "User-agent: *\nDisallow: /\n", "/robots.txt", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseRobots([]byte(tt.body), Agent).allowed(tt.path); got != tt.want {
				t.Errorf("allowed(%q) = %v, want %v", tt.path, got, tt.want)
			}
		})
	}
}

// TestRobotsExtras: Sitemap lines and Crawl-delay.
func TestRobotsExtras(t *testing.T) {
	r := parseRobots([]byte("Sitemap: https://a.example/s1.xml\nUser-agent: *\nCrawl-delay: 2.5\nDisallow: /x\nSitemap: /s2.xml\n\nUser-agent: other\nCrawl-delay: 100\n"), Agent)
	if !slices.Equal(r.sitemaps, []string{"https://a.example/s1.xml", "/s2.xml"}) {
		t.Errorf("sitemaps = %q", r.sitemaps)
	}
	if r.delay != 2500*time.Millisecond {
		t.Errorf("delay = %v", r.delay)
	}
}

// TestRobotsSitemapLines: Sitemap lines anywhere in the file, any case,
// comments cut, empty values dropped.
func TestRobotsSitemapLines(t *testing.T) {
	for _, tc := range []struct {
		robots string
		want   []string
	}{
		{"User-agent: *\nDisallow: /wp-admin/\n\nSitemap: https://a.example/wp-sitemap.xml\n", []string{"https://a.example/wp-sitemap.xml"}},
		{"sitemap:/s.xml # ours\r\nSITEMAP :  https://a.example/b.xml  \n", []string{"/s.xml", "https://a.example/b.xml"}},
		{"Sitemap:\n# Sitemap: https://a.example/commented.xml\nUser-agent: sitemap\n", nil},
		{"", nil},
	} {
		if got := parseRobots([]byte(tc.robots), Agent).sitemaps; !slices.Equal(got, tc.want) {
			t.Errorf("sitemaps of %q = %q, want %q", tc.robots, got, tc.want)
		}
	}
}

// TestRobotsMatch: the wildcard matcher against a reference of patterns.
func TestRobotsMatch(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"/", "/", true},
		{"/a*", "/a", true},
		{"/a*b", "/axxb", true},
		{"/a*b", "/axxbc", true},
		{"/a*b$", "/axxbc", false},
		{"/a*b$", "/axbxb", true},
		{"*", "/anything", true},
		{"/*/x", "/a/b/x", true},
		{"/a**b", "/ab", true},
		{"/a$", "/ab", false},
		{"/a$b", "/a$b", true},
		{"/*$", "/", true},
	}
	for _, tt := range tests {
		if got := robotsMatch(tt.pattern, tt.path); got != tt.want {
			t.Errorf("robotsMatch(%q, %q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}
