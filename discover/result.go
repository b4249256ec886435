package discover

import (
	"time"
)

// Result is what one run found. Every URL in it is on the public origin.
type Result struct {
	// Source is where the pages came from: "sitemap" or "crawl".
	Source string
	// Pages are the site's pages, one per canonical URL: seeds and sitemap
	// entries in their order first, then by depth and URL.
	Pages []Page
	// Sitemaps are the sitemap files tried, in the order tried, with what
	// each answered. Only those with Direct set may be advertised.
	Sitemaps []Sitemap
	// Skipped counts the URLs not listed, by reason.
	Skipped map[SkipReason]int
	// Samples are the first few skipped URLs of each reason, for the log.
	Samples []Skip
	// Requests is how many requests were sent; NotModified how many of them
	// answered 304 (entry kept from Previous).
	Requests, NotModified int
	// Bytes is the body bytes read, counted after decompression.
	Bytes int64
	// Limited names the limit that cut the run short ("max_pages",
	// "max_bytes"), "" when the site was read whole. Pages over max_depth
	// are counted in Skipped but do not set it.
	Limited string
	// RobotsStatus is the status robots.txt answered (0 when unreachable).
	RobotsStatus int
	// CrawlDelay is the robots.txt Crawl-delay that applied, 0 for none.
	CrawlDelay time.Duration
	// Started and Duration time the run.
	Started  time.Time
	Duration time.Duration

	// start is set by Sitemaps, for a crawl that starts from it.
	start *sitemapStart
}

// Page is one page of the site.
type Page struct {
	// URL is the page's canonical URL on the public origin.
	URL string
	// Title is the text of <title>, white space collapsed.
	Title string
	// Description is <meta name="description"> (else og:description).
	Description string
	// Lastmod is when the page last changed: the sitemap's <lastmod>, else
	// the Last-Modified header; zero when neither says (never invented).
	Lastmod time.Time
	// ETag and LastModified are the validators the page answered with, as
	// sent, for the next run's conditional request.
	ETag, LastModified string
	// Depth is how many links away from / or a seed the page was found
	// (0 for seeds and sitemap entries).
	Depth int
	// Found says how: "seed", "sitemap", "link", "redirect" or "canonical".
	Found string

	// links are the page's same-site links (keys), kept for a 304 on the
	// next crawl; linksCut says they were not kept (over heldLinksCap), so
	// the next crawl fetches the page whole.
	links    []string
	linksCut bool
}

// Sitemap is one sitemap file tried.
type Sitemap struct {
	// URL is the sitemap's URL on the public origin.
	URL string
	// Found says where it was named: "robots.txt", "well-known" (a usual
	// location probed), "index" (a child of a sitemap index) or "redirect"
	// (the target of another sitemap's redirect).
	Found string
	// Status is the status of the answer, redirects not followed (0 when the
	// request failed).
	Status int
	// Location is the redirect target, on the public origin, for a 3xx.
	Location string
	// Direct is true when the sitemap answered 200 at this URL and parsed:
	// only such a URL may be advertised (a robots.txt Sitemap line, a
	// sitemap index entry).
	Direct bool
	// Kind is "urlset" or "sitemapindex" once parsed.
	Kind string
	// Entries is how many locs it listed (pages or child sitemaps).
	Entries int
	// Error says why it was not used, "" when it was.
	Error string
}

// SkipReason says why a URL is not listed.
type SkipReason string

// The skip reasons.
const (
	SkipRobots    SkipReason = "robots"    // disallowed by robots.txt for Agent
	SkipNoindex   SkipReason = "noindex"   // <meta name=robots> or X-Robots-Tag noindex
	SkipCanonical SkipReason = "canonical" // its canonical URL is another one
	SkipRedirect  SkipReason = "redirect"  // it redirects (a same-site target is fetched instead)
	SkipNotHTML   SkipReason = "not_html"  // not text/html (by Content-Type, or by extension unfetched)
	SkipStatus    SkipReason = "status"    // answered neither 200, 304 nor a redirect
	SkipError     SkipReason = "error"     // the request or the read failed
	SkipOffSite   SkipReason = "off_site"  // a sitemap entry, redirect or canonical on another origin
	SkipMaxPages  SkipReason = "max_pages" // known but not fetched: max_pages reached
	SkipMaxDepth  SkipReason = "max_depth" // deeper than max_depth
	SkipMaxBytes  SkipReason = "max_bytes" // known but not fetched: max_bytes reached
	SkipCancelled SkipReason = "cancelled" // known but not fetched: the context ended
	SkipInvalid   SkipReason = "invalid"   // a sitemap loc that is not a URL
)

// Skip is one skipped URL.
type Skip struct {
	URL    string
	Reason SkipReason
	Detail string
}

// Progress is the running state of a run, reported to Options.Progress.
type Progress struct {
	// Requests sent, Pages listed so far, URLs Queued and not yet fetched,
	// URLs Skipped so far, Bytes read.
	Requests, Pages, Queued, Skipped int
	Bytes                            int64
	// URL is the URL last fetched (public form).
	URL string
}

// URLs returns the pages' URLs, in order.
func (r *Result) URLs() []string {
	if r == nil {
		return nil
	}
	out := make([]string, len(r.Pages))
	for i, p := range r.Pages {
		out[i] = p.URL
	}
	return out
}

// SkippedTotal is the sum of Skipped.
func (r *Result) SkippedTotal() int {
	n := 0
	for _, c := range r.Skipped {
		n += c
	}
	return n
}

// DirectSitemaps are the URLs of the top-level sitemaps (not index
// children) that answered 200 directly and parsed: the ones a robots.txt
// Sitemap line may name.
func (r *Result) DirectSitemaps() []string {
	var out []string
	for _, s := range r.Sitemaps {
		if s.Direct && s.Found != "index" {
			out = append(out, s.URL)
		}
	}
	return out
}

// sitemapStart is what a sitemaps-only run read, for a crawl that starts
// from it (Options.Start): the site it read (its fetch origin), robots.txt
// and its error, and the pages the sitemaps list (their keys, with their
// <lastmod>).
type sitemapStart struct {
	fetch     string
	robots    *robots
	robotsErr error
	entries   []string
	lastmods  map[string]time.Time
}
