// Package traffic tells a site owner who reads the site: which AI
// crawlers, fetchers and agents come, what they read, whether they take
// the Markdown, how many tokens they were served and saved, and whether the
// bot that says it is GPTBot really is. It is the pure-Go core of the
// traffic view (issue #17) and imports no Caddy package. Package
// traffic/sites keeps each site's Store and Verifier across config reloads
// and carries them through a request; the Caddy glue lives in caddymodule.
//
// # Know the client
//
// Classify (or a Classifier built with the site's extra_agents) reads a
// User-Agent against the data file of traffic/agents: a known agent (with
// operator, product and purpose: training, search, user or agent), a
// generic client (curl, HTTP libraries: ClassTool; HeadlessChrome:
// ClassHeadless), an unknown self-declared bot (a token ending in "bot",
// "crawler" or "spider", or an http(s): URL), an ordinary browser, or
// unknown. It looks only at product tokens on token boundaries, ASCII case
// ignored, and allocates nothing. ClassifySigned also recognises agents
// that sign their requests (the Signature-Agent header of RFC 9421 HTTP
// Message Signatures), such as ChatGPT agent, which sends a browser's
// User-Agent; the signature itself is not checked.
//
// Classification.Label is the bounded metrics label value (the data file's
// names, "browser", or "other"; Labels lists them all) and
// Classification.Purpose the purpose label, so that
// caddy_agent_ready_agent_requests_total{purpose,agent,form,verification}
// has a fixed label set.
//
// # Claimed versus verified
//
// A Verifier checks a claim the way the operator publishes: the client
// address in its IP-range list (ParseRanges reads the operators' JSON,
// {"prefixes":[{"ipv4Prefix":…},{"ipv6Prefix":…}]}, JSON arrays or plain
// text; load each URL that RangeURLs names from a file with
// LoadRangesFile or, optionally and periodically, with FetchRanges, and
// install it with SetRanges), or forward-confirmed reverse DNS under the
// operator's host suffixes. Range checks are answered at once; DNS checks
// go to a bounded queue served by a few workers (a full queue drops the
// check, counted) and their results to an LRU cache with a TTL, so a
// request never waits: the first request from an address is Unverified,
// later ones Verified or Failed (a spoofer). The glue passes the client
// address Caddy determined (which honours trusted_proxies); tests inject a
// fake Resolver.
//
// # Count what matters
//
// A Store counts each answered request (an Event: classification,
// verification, Form, status, path, bytes, Markdown tokens, the HTML size
// the Markdown came from, blocked) per client and purpose, form (html,
// markdown, discovery, mcp, ask, other), status class and verification:
// requests, bytes, Markdown tokens served, tokens saved against the HTML
// (TokensSaved: the Markdown tokens scaled by the HTML/Markdown size ratio,
// no second tokenisation) and blocked requests. It keeps each client's top
// pages in a Space-Saving sketch (paths only, PagePath: no query) and a
// per-minute (24 h) and per-hour (30 days) series. Memory is bounded by
// StoreConfig.MaxRows × TopPages, whatever the traffic; no client address
// is ever stored. A Store is meant to live in a usage pool across config
// reloads and to be written with Save (versioned JSON) on shutdown and
// periodically, and read back with Load after a restart.
//
// Snapshot returns exactly what GET /agent-ready/traffic.json serves; its
// JSON field names are documented on the types.
//
// # Enforce, if asked
//
// Decide applies the site's crawler policy (Policy: which kinds are
// disallowed, Enforce off, claimed or verified, and the tokens the site
// names) to a classified, verified request; BlockBody is the short
// plain-text 403 body pointing to the policy and contact. The glue answers
// a blocked request with 403 and the Content-Signal header, and records it
// with Event.Blocked. User-triggered fetchers and autonomous agents are
// only blocked when the site names them.
//
// # Outline (traffic/sites does this for the glue)
//
//	// once per config (store and verifier: the site's, kept across reloads):
//	cl := traffic.NewClassifier(extraAgents...)
//	// each request:
//	c := cl.ClassifySigned(r.UserAgent(), r.Header.Get("Signature-Agent"))
//	v := verifier.Verify(clientIP, c) // Caddy's client IP
//	if d := traffic.Decide(policy, c, v); d.Block { /* 403 + BlockBody */ }
//	// after the response:
//	store.Record(traffic.Event{Client: c, Verification: v, Form: …, Status: …, Path: r.URL.Path, …})
package traffic
