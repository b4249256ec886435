// Package discover finds the pages of one site, once, for everything that
// needs the list: the generated sitemap, the llms.txt listing, the content
// index behind /mcp and /ask, and the self-scan's choice of pages.
//
// The package is plain net/http and imports no other package of this
// module: the caller supplies an *http.Client (in the Caddy module, one
// whose transport serves requests through the site's own server in
// process) and maps the YAML's `discovery` section onto [Options].
//
// # Where the pages come from
//
//  1. robots.txt (RFC 9309), read for the product token [Agent]: its rules
//     for "agentready", else for "*", its Crawl-delay, its Sitemap lines.
//     A 4xx means no restriction; a 5xx or a network error means complete
//     disallow (§2.3.1.4), and Run returns [ErrRobotsUnreachable] with an
//     empty result, so the caller keeps its previous one.
//  2. The origin's sitemaps: the Sitemap lines, else the first of
//     /sitemap.xml, /sitemap_index.xml, /wp-sitemap.xml and
//     /sitemap-index.xml that lists a page. Sitemap indexes are followed,
//     gzip files read (by their magic bytes, whatever the Content-Type). Redirects are not followed blindly:
//     a sitemap that redirects is recorded as such ([Sitemap].Direct false)
//     and its same-site target read as a sitemap of its own, so a
//     robots.txt Sitemap line can name only URLs that answered 200
//     ([Result.DirectSitemaps]).
//  3. In [ModeAuto] (the default), when the sitemaps list at least one page,
//     those pages (with / and [Options.Seeds]) are fetched, each once, to
//     check them and read their head. Otherwise a breadth-first crawl starts
//     from / and the seeds and follows <a href>, <area href> and
//     <link rel="next|prev"> on the site.
//
// [Sitemaps] does steps 1 and 2 only, to learn where the site's sitemaps
// are without fetching a page.
//
// Either way a URL is listed only when it answers 200 with HTML, robots.txt
// allows it, it is not noindex (<meta name="robots">, <meta
// name="agentready"> or X-Robots-Tag, unprefixed or prefixed
// "agentready:"), and its <link rel="canonical"> names itself: a page whose
// canonical is another URL is replaced by that URL, so there is one entry per
// canonical page. A same-site redirect is followed by queueing its target;
// the redirecting URL is never listed. Links marked rel="nofollow", and all
// links of a nofollow page, are not followed; links of a noindex page are.
// URLs with a non-page extension (.pdf, .png, .css, .xml…) are skipped
// without a request. Every URL left out is counted by [SkipReason] in
// [Result].Skipped, with a few samples for the log.
//
// # URLs
//
// Requests go to [Options].Origin; every URL reported is written on
// [Options].PublicOrigin (the configured site.origin, else the host the site
// is served under), never on the in-process address. Links, canonicals and
// sitemap entries written on either origin, with either scheme, are the
// site's own.
//
// # Limits and refresh
//
// At most Concurrency requests are in flight (4 by default), their starts
// spaced by Delay (or a longer robots.txt Crawl-delay, up to a minute);
// MaxPages, MaxDepth, MaxBytes and MaxPageBytes bound the work, and
// [Result].Limited names the limit that cut a run short. A page of
// [Options].Previous is asked for with If-None-Match and If-Modified-Since
// (RFC 9110 §13.1); a 304 keeps its entry, and the links it had are followed
// again. [Discoverer] runs one discovery at a time for a site and feeds each
// run the last result. A run reads no page body into memory whole: the HTML
// is tokenized as it streams (golang.org/x/net/html), and only the head
// facts and the links are kept.
//
// # Configuration
//
// The YAML section the module maps onto [Options] (manifest.Discovery):
//
//	discovery:
//	  mode: auto              # auto | sitemap | crawl            (Options.Mode)
//	  max_pages: 10000        # pages listed at most              (Options.MaxPages)
//	  max_depth: 50           # links followed from / or a seed   (Options.MaxDepth)
//	  max_bytes: 536870912    # bytes read in one run (512 MiB)   (Options.MaxBytes)
//	  max_page_bytes: 5242880 # bytes read of one page (5 MiB)    (Options.MaxPageBytes)
//	  concurrency: 4          # requests in flight at once        (Options.Concurrency)
//	  delay: 0s               # least gap between request starts  (Options.Delay)
//	  timeout: 30s            # per request                       (Options.Timeout)
//
// The seeds are the YAML's site.pages and llms.txt links; the public origin
// is site.origin, else the served host.
//
// # Wiring it in
//
// The client must reach the origin's own robots.txt and sitemaps, not the
// documents generated in front of it: in Caddy the agent_ready handler serves
// a merged robots.txt (with a Sitemap line for the generated sitemap) and a
// generated /sitemap.xml when the origin has none, so discovery requests
// must be marked to pass through to the next handler. Page requests send
// Accept: text/html, so the negotiated Markdown form is never asked for.
package discover
