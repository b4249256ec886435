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
	"time"
)

// The X-Cache values a step may require; "" accepts any.
const (
	hit         = "HIT"
	miss        = "MISS"
	revalidated = "REVALIDATED" // nginx: stale, and the upstream answered 304
)

// step is one request and what must come back.
type step struct {
	path, accept string
	form         string // formHTML or formMarkdown
	cache        string // the X-Cache value wanted, "" for any
	why          string
}

// waitStale is a step that sends nothing: it waits until every stored
// response is stale, in scenarios where the origin's max-age is 1 s.
var waitStale = step{why: "wait until the stored responses are stale"}

// staleAfter is how long waitStale waits: over the 1 s max-age, with room
// for caches that count age in whole seconds.
const staleAfter = 2100 * time.Millisecond

// primeMarkdownFirst and primeHTMLFirst fill the cache with one form, then
// ask for the other: the order in which poisoning would show.
var (
	primeMarkdownFirst = []step{
		{"/pricing", agentAccept, formMarkdown, miss, "an agent primes the cache with the Markdown"},
		{"/pricing", chromeAccept, formHTML, miss, "Chrome must not get the stored Markdown"},
		{"/pricing", curlAccept, formHTML, "", "curl's */* means HTML"},
		{"/pricing", agentAccept, formMarkdown, hit, "the agent's Markdown is served from the cache"},
		{"/pricing", chromeAccept, formHTML, hit, "so is Chrome's HTML"},
	}
	primeHTMLFirst = []step{
		{"/", chromeAccept, formHTML, miss, "Chrome primes the cache with the HTML"},
		{"/", agentAccept, formMarkdown, miss, "the agent must not get the stored HTML"},
		{"/", chromeAccept, formHTML, hit, "Chrome's HTML is served from the cache"},
		{"/", agentAccept, formMarkdown, hit, "so is the agent's Markdown"},
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
	// shortLived makes the origin's max-age 1 s instead of 300 s.
	shortLived bool
	steps      []step
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
			{"/docs/getting-started", chromeAccept, formHTML, miss, "Chrome primes the HTML key"},
			{"/docs/getting-started", firefoxAccept, formHTML, hit, "every browser shares the HTML key"},
			{"/docs/getting-started", curlAccept, formHTML, hit, "so does curl"},
			{"/docs/getting-started", agentAccept, formMarkdown, miss, "an agent primes the Markdown key"},
			{"/docs/getting-started", agent2Accept, formMarkdown, hit, "every Markdown-preferring agent shares it"},
		}),
		rounds: true, agentsToo: true,
	},
	{
		// RFC 9111 §4.3: a stale entry is revalidated with its own
		// validator. The Markdown's -md tag must come back to agent_ready,
		// which asks the origin with the origin's tag; each form's 304
		// must refresh its own entry.
		name: "nginx revalidates each form with its own ETag", kind: nginx, config: "nginx.conf",
		shortLived: true,
		steps: []step{
			{"/pricing", agentAccept, formMarkdown, miss, "an agent stores the Markdown"},
			{"/pricing", chromeAccept, formHTML, miss, "Chrome stores the HTML"},
			waitStale,
			{"/pricing", agentAccept, formMarkdown, revalidated, "the stale Markdown is revalidated"},
			{"/pricing", chromeAccept, formHTML, revalidated, "the stale HTML is revalidated"},
			{"/pricing", agentAccept, formMarkdown, hit, "the refreshed Markdown is served"},
			{"/pricing", chromeAccept, formHTML, hit, "the refreshed HTML is served"},
		},
	},
	{
		// The control: it shows that the checks catch poisoning.
		name: "URL-keyed cache without mitigation is poisoned", kind: nginx, config: "testdata/url-keyed.conf",
		steps: []step{
			{"/pricing", agentAccept, formMarkdown, miss, "an agent primes the cache with the Markdown"},
			{"/pricing", chromeAccept, formMarkdown, hit, "a cache that ignores Vary hands Chrome the agent's Markdown"},
		},
	},
	{
		name: "URL-keyed cache with private Markdown", kind: nginx, config: "testdata/url-keyed.conf",
		cacheControl: "private, max-age=300",
		steps: []step{
			{"/pricing", agentAccept, formMarkdown, miss, "the private Markdown is not stored"},
			{"/pricing", agentAccept, formMarkdown, miss, "so the next agent request goes to the origin"},
			{"/pricing", chromeAccept, formHTML, miss, "Chrome gets HTML and the cache stores it"},
			{"/pricing", chromeAccept, formHTML, hit, "from the cache"},
			{"/pricing", agentAccept, formHTML, hit, "the price: the URL's one entry is the HTML, agents get it too"},
			{"/pricing/md", agentAccept, formMarkdown, miss, "the Markdown URL still gives Markdown"},
			{"/pricing/md", curlAccept, formMarkdown, miss, "to anyone (that URL is only ever Markdown)"},
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
			runCaddy(t, p, sc.cacheControl, sc.shortLived)
			startCache(t, sc.kind, p.apply(t, readExample(t, sc.config), cachePort, frontPort), p[cachePort])
			base := "http://127.0.0.1:" + p[cachePort]
			for i, s := range sc.steps {
				if s == waitStale {
					time.Sleep(staleAfter)
					continue
				}
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
	if s.cache != "" && r.cache != s.cache {
		t.Errorf("%s: GET %s with Accept %q: X-Cache %q, want %q", name, s.path, s.accept, r.cache, s.cache)
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
				want := ""
				if round > 0 && sc.agentsToo {
					want = hit
				}
				name := fmt.Sprintf("round %d, %s", round+1, c.name)
				checkStep(t, name, step{path, c.accept, c.form, want, ""}, fetch(t, base+path, c.accept), sc)
			}
		}
	}
}
