// Package cdn_test runs the example of this directory: a shared HTTP cache
// (nginx or Varnish, from Debian) in front of Caddy with agent_ready, and
// checks that a browser never receives the Markdown the cache stored for an
// agent, that an agent gets its Markdown, and that repeated requests are
// served from the cache. A URL-keyed cache (one that ignores Vary, as some
// CDNs do) shows what goes wrong without the documented mitigations.
package cdn_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// Whether a step must be a cache hit.
const (
	hitAny = iota
	hitNo
	hitYes
)

// step is one request and what must come back.
type step struct {
	path, accept string
	form         string // formHTML or formMarkdown
	hit          int
	why          string
}

// primeMarkdownFirst and primeHTMLFirst fill the cache with one form, then
// ask for the other: the order in which poisoning would show.
var (
	primeMarkdownFirst = []step{
		{"/pricing", agentAccept, formMarkdown, hitNo, "an agent primes the cache with the Markdown"},
		{"/pricing", chromeAccept, formHTML, hitNo, "Chrome must not get the stored Markdown"},
		{"/pricing", curlAccept, formHTML, hitAny, "curl's */* means HTML"},
		{"/pricing", agentAccept, formMarkdown, hitYes, "the agent's Markdown is served from the cache"},
		{"/pricing", chromeAccept, formHTML, hitYes, "so is Chrome's HTML"},
	}
	primeHTMLFirst = []step{
		{"/", chromeAccept, formHTML, hitNo, "Chrome primes the cache with the HTML"},
		{"/", agentAccept, formMarkdown, hitNo, "the agent must not get the stored HTML"},
		{"/", chromeAccept, formHTML, hitYes, "Chrome's HTML is served from the cache"},
		{"/", agentAccept, formMarkdown, hitYes, "so is the agent's Markdown"},
	}
)

// scenario is one cache configuration and the requests it must pass.
type scenario struct {
	name   string
	kind   cacheKind
	config string // file with the cache's configuration
	// cacheControl, when set, is agent_ready's cache_control (the
	// Cache-Control of the Markdown form).
	cacheControl string
	steps        []step
	// rounds repeats every client on both pages; agentsToo also requires
	// agents to get Markdown (else only browsers are checked) and every
	// repeat to be a hit.
	rounds, agentsToo bool
}

var scenarios = []scenario{
	{
		name: "nginx honours Vary", kind: nginx, config: "nginx.conf",
		steps:  concat(primeMarkdownFirst, primeHTMLFirst),
		rounds: true, agentsToo: true,
	},
	{
		name: "varnish honours Vary", kind: varnish, config: "varnish.vcl",
		steps:  concat(primeMarkdownFirst, primeHTMLFirst),
		rounds: true, agentsToo: true,
	},
	{
		name: "nginx keyed on the form", kind: nginx, config: "nginx-accept-key.conf",
		steps: concat(primeMarkdownFirst, primeHTMLFirst, []step{
			{"/docs/getting-started", chromeAccept, formHTML, hitNo, "Chrome primes the HTML key"},
			{"/docs/getting-started", firefoxAccept, formHTML, hitYes, "every browser shares the HTML key"},
			{"/docs/getting-started", curlAccept, formHTML, hitYes, "so does curl"},
			{"/docs/getting-started", agentAccept, formMarkdown, hitNo, "an agent primes the Markdown key"},
			{"/docs/getting-started", agent2Accept, formMarkdown, hitYes, "every Markdown-preferring agent shares it"},
		}),
		rounds: true, agentsToo: true,
	},
	{
		// The control: it shows that the checks catch poisoning.
		name: "URL-keyed cache without mitigation is poisoned", kind: nginx, config: "testdata/url-keyed.conf",
		steps: []step{
			{"/pricing", agentAccept, formMarkdown, hitNo, "an agent primes the cache with the Markdown"},
			{"/pricing", chromeAccept, formMarkdown, hitYes, "a cache that ignores Vary hands Chrome the agent's Markdown"},
		},
	},
	{
		name: "URL-keyed cache with private Markdown", kind: nginx, config: "testdata/url-keyed.conf",
		cacheControl: "private, max-age=300",
		steps: []step{
			{"/pricing", agentAccept, formMarkdown, hitNo, "the private Markdown is not stored"},
			{"/pricing", agentAccept, formMarkdown, hitNo, "so the next agent request goes to the origin"},
			{"/pricing", chromeAccept, formHTML, hitNo, "Chrome gets HTML and the cache stores it"},
			{"/pricing", chromeAccept, formHTML, hitYes, "from the cache"},
			{"/pricing", agentAccept, formHTML, hitYes, "the price: the URL's one entry is the HTML, agents get it too"},
			{"/pricing/md", agentAccept, formMarkdown, hitNo, "the Markdown URL still gives Markdown"},
			{"/pricing/md", curlAccept, formMarkdown, hitNo, "to anyone (that URL is only ever Markdown)"},
		},
		rounds: true,
	},
}

func concat(lists ...[]step) []step {
	var out []step
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

func TestSharedCacheKeepsFormsApart(t *testing.T) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			need(t, sc.kind)
			p := newPorts(t)
			runCaddy(t, p, sc.cacheControl)
			startCache(t, sc.kind, p.apply(t, readExample(t, sc.config), cachePort, frontPort), p[cachePort])
			base := "http://127.0.0.1:" + p[cachePort]
			for i, s := range sc.steps {
				r := fetch(t, base+s.path, s.accept)
				checkStep(t, fmt.Sprintf("step %d (%s)", i+1, s.why), s, r, sc)
			}
			if sc.rounds {
				checkRounds(t, base, sc)
			}
		})
	}
}

// checkStep compares one reply with what the step wants, and checks the
// headers every reply of that form must carry.
func checkStep(t *testing.T, name string, s step, r reply, sc scenario) {
	t.Helper()
	if r.form != s.form {
		t.Fatalf("%s: GET %s with Accept %q: got %s, want %s\n%.300s", name, s.path, s.accept, r.form, s.form, r.body)
	}
	if s.hit == hitYes && !r.hit {
		t.Errorf("%s: GET %s with Accept %q: not a cache hit (X-Cache %q)", name, s.path, s.accept, r.header.Get("X-Cache"))
	}
	if s.hit == hitNo && r.hit {
		t.Errorf("%s: GET %s with Accept %q: a cache hit, want a miss", name, s.path, s.accept)
	}
	checkHeaders(t, name, r, sc)
}

// markdownETag matches the entity tag of the Markdown form: agent_ready's
// "-md" suffix, followed by the content coding's when Caddy's encode
// compressed it ("…-md-gzip": encode gives each coding its own tag, and
// strips its suffix from If-None-Match before agent_ready sees it).
var markdownETag = regexp.MustCompile(`-md(-[a-z]+)?"$`)

// checkHeaders checks what makes the two forms distinct to any cache:
// Vary: Accept on both (RFC 9110 §12.5.5), an entity tag of its own on the
// Markdown (RFC 9110 §8.8.3.3), and the configured Cache-Control.
func checkHeaders(t *testing.T, name string, r reply, sc scenario) {
	t.Helper()
	if !strings.Contains(strings.ToLower(strings.Join(r.header.Values("Vary"), ",")), "accept") {
		t.Errorf("%s: Vary %q lacks Accept", name, r.header.Values("Vary"))
	}
	etag := r.header.Get("ETag")
	switch r.form {
	case formMarkdown:
		if !markdownETag.MatchString(etag) {
			t.Errorf("%s: Markdown ETag %q is not the -md variant", name, etag)
		}
		if cc := r.header.Get("Cache-Control"); sc.cacheControl != "" && cc != sc.cacheControl {
			t.Errorf("%s: Markdown Cache-Control %q, want %q", name, cc, sc.cacheControl)
		}
	case formHTML:
		if markdownETag.MatchString(etag) {
			t.Errorf("%s: HTML carries the Markdown ETag %q", name, etag)
		}
	}
}

// checkRounds sends every client to two pages three times over. Browsers
// and curl must always get HTML; with agentsToo, agents must always get
// Markdown and, after the first round, every answer must be a cache hit.
func checkRounds(t *testing.T, base string, sc scenario) {
	t.Helper()
	clients := []struct{ name, accept, form string }{
		{"chrome", chromeAccept, formHTML},
		{"agent", agentAccept, formMarkdown},
		{"firefox", firefoxAccept, formHTML},
		{"agent2", agent2Accept, formMarkdown},
		{"curl", curlAccept, formHTML},
	}
	for round := range 3 {
		for _, path := range []string{"/pricing", "/"} {
			for _, c := range clients {
				browser := c.form == formHTML
				if !browser && !sc.agentsToo {
					continue
				}
				hit := hitAny
				if round > 0 && sc.agentsToo {
					hit = hitYes
				}
				name := fmt.Sprintf("round %d, %s", round+1, c.name)
				checkStep(t, name, step{path, c.accept, c.form, hit, ""}, fetch(t, base+path, c.accept), sc)
			}
		}
	}
}
