package ard

import "testing"

func TestParseLinkHeader(t *testing.T) {
	tests := []struct {
		name        string
		values      []string
		ard, legacy string
	}{
		{"case-insensitive rel", []string{`<https://example.com/header-ard.json>; rel="ARD", </legacy.json>; rel="AI-Catalog"`},
			"https://example.com/header-ard.json", "https://example.com/legacy.json"},
		{"two field lines", []string{`</legacy.json>; rel=ai-catalog`, `</header-ard.json>; rel="ard"`},
			"https://example.com/header-ard.json", "https://example.com/legacy.json"},
		{"several relation types", []string{`</a.json>; rel="alternate ard"`}, "https://example.com/a.json", ""},
		{"first rel parameter wins", []string{`</a.json>; rel="next"; rel="ard"`}, "", ""},
		{"first ard wins", []string{`</1.json>; rel=ard, </2.json>; rel=ard`}, "https://example.com/1.json", ""},
		{"comma inside target and quotes", []string{`</a,b.json>; title="x, y"; rel="ard"`}, "https://example.com/a,b.json", ""},
		{"rel as substring is not rel", []string{`</a.json>; rel="ardent"`}, "", ""},
		{"other params first", []string{`</a.json>; type="application/json"; rel=ard`}, "https://example.com/a.json", ""},
		{"no target", []string{`rel=ard`}, "", ""},
		{"unterminated", []string{`</a.json; rel=ard`}, "", ""},
		{"empty", nil, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ard, legacy := ParseLinkHeader(tt.values, pageURL)
			if ard != tt.ard || legacy != tt.legacy {
				t.Errorf("got (%q, %q), want (%q, %q)", ard, legacy, tt.ard, tt.legacy)
			}
		})
	}
}

func TestParseAgentmap(t *testing.T) {
	tests := []struct{ name, robots, want string }{
		{"indented", "User-agent: *\n   Agentmap: /x.json\n", "https://example.com/x.json"},
		{"CRLF", "User-agent: *\r\nAgentmap: /x.json\r\n", "https://example.com/x.json"},
		{"first wins", "Agentmap: /1.json\nAgentmap: /2.json\n", "https://example.com/1.json"},
		{"value on next line (JavaScript \\s)", "Agentmap:\n/next.json\n", "https://example.com/next.json"},
		{"not at line start", "# Agentmap: /x.json\n", ""},
		{"unresolvable", "Agentmap: http://[::1\n", ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseAgentmap(tt.robots, pageURL); got != tt.want {
				t.Errorf("ParseAgentmap = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestHTMLLinks(t *testing.T) {
	tests := []struct {
		name, html  string
		ard, legacy string
	}{
		{"both", `<link rel="ard" href="/a.json"><link rel="ai-catalog" href="/l.json">`,
			"https://example.com/a.json", "https://example.com/l.json"},
		{"rel token list, case-insensitive", `<LINK REL="alternate ARD" HREF="a.json">`, "https://example.com/a.json", ""},
		{"base href applies to earlier links", `<link rel="ard" href="a.json"><base href="https://cdn.example.org/x/">`,
			"https://cdn.example.org/x/a.json", ""},
		{"first match without href yields nothing", `<link rel="ard"><link rel="ard" href="/b.json">`, "", ""},
		{"link in body counts", `<body><link rel="ard" href="/b.json"></body>`, "https://example.com/b.json", ""},
		{"not a link element", `<a rel="ard" href="/a.json">x</a>`, "", ""},
		{"no links", `<p>hello</p>`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ard, legacy := htmlLinks([]byte(tt.html), pageURL)
			if ard != tt.ard || legacy != tt.legacy {
				t.Errorf("got (%q, %q), want (%q, %q)", ard, legacy, tt.ard, tt.legacy)
			}
		})
	}
}

func TestResolveURL(t *testing.T) {
	tests := []struct{ href, base, want string }{
		{"/ard.json", "https://example.com/page", "https://example.com/ard.json"},
		{"  /ard.json\t", "https://example.com/page", "https://example.com/ard.json"},
		{"HTTPS://EXAMPLE.com", "https://example.com/page", "https://example.com/"},
		{"", "https://example.com/page", ""},
		{"/x", "::not a url", ""},
		{"//cdn.example.org/a.json", "https://example.com/page", "https://cdn.example.org/a.json"},
	}
	for _, tt := range tests {
		if got := resolveURL(tt.href, tt.base); got != tt.want {
			t.Errorf("resolveURL(%q, %q) = %q, want %q", tt.href, tt.base, got, tt.want)
		}
	}
}
