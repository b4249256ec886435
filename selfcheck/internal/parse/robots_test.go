package parse

import (
	"testing"
)

func TestRobotsAllowed(t *testing.T) {
	const robots = `# comment
User-agent: GPTBot
User-agent: CCBot
Disallow: /

User-agent: OAI-SearchBot
Disallow: /private
Allow: /private/open$

user-agent: *
Disallow: /*.pdf$
Disallow: /tmp/
Allow: /tmp/ok
Disallow:

Sitemap: https://a.test/sitemap.xml
Content-Signal: search=yes, ai-train=no
`
	r := Robots([]byte(robots))
	tests := []struct {
		agent, path string
		want        bool
	}{
		{"GPTBot", "/", false},
		{"gptbot", "/x", false},
		{"CCBot", "/x", false},
		{"OAI-SearchBot", "/private/x", false},
		{"OAI-SearchBot", "/private/open", true},
		{"OAI-SearchBot", "/private/open/more", false},
		{"OAI-SearchBot", "/a.pdf", true}, // its own group replaces *
		{"Claude-User", "/a.pdf", false},
		{"Claude-User", "/a.pdf?x=1", true},
		{"Claude-User", "/tmp/x", false},
		{"Claude-User", "/tmp/ok/1", true},
		{"Claude-User", "/", true},
	}
	for _, tc := range tests {
		if got := r.Allowed(tc.agent, tc.path); got != tc.want {
			t.Errorf("allowed(%s, %s) = %v, want %v", tc.agent, tc.path, got, tc.want)
		}
	}
	if len(r.Sitemaps) != 1 || len(r.ContentSignals) != 1 {
		t.Errorf("sitemaps %v signals %v", r.Sitemaps, r.ContentSignals)
	}
	var nilRobots *RobotsTxt
	if !nilRobots.Allowed("x", "/") {
		t.Error("no robots.txt must allow everything")
	}
}

func FuzzRobots(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /x*$\nAllow: /x/y\nSitemap: https://a.test/s.xml\n"))
	f.Add([]byte("user-agent:a\nuser-agent:b\ndisallow:/%zz\n#c\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := Robots(b)
		for _, a := range []string{"*", "GPTBot", "Claude-User"} {
			r.Allowed(a, "/some/path?q=1")
		}
	})
}
