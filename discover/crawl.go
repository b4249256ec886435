package discover

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sync/atomic"
	"time"
)

// ErrRobotsUnreachable is returned (wrapped, with the result) when
// robots.txt answered a server error or could not be fetched: RFC 9309
// §2.3.1.4 then disallows everything, so the result lists no page and the
// caller should keep its previous one.
var ErrRobotsUnreachable = errors.New("discover: robots.txt unreachable, crawling nothing")

// maxCrawlDelay caps a robots.txt Crawl-delay honoured.
const maxCrawlDelay = time.Minute

// maxSamples is how many URLs of each skip reason Result.Samples keeps.
const maxSamples = 5

// acceptHTML is the Accept of page requests: HTML, never the Markdown form.
const acceptHTML = "text/html, application/xhtml+xml;q=0.9"

// item is one URL waiting to be fetched.
type item struct {
	key   string
	depth int
	found string
	order int // position among seeds and sitemap entries, -1 for others
}

// outcome is what fetching one item gave.
type outcome struct {
	it          item
	bytes       int64
	reason      SkipReason // "" when the page is listed
	detail      string
	page        *Page
	links       []string // same-site keys to enqueue at depth+1
	redirect    string   // same-site key a redirect or canonical points to
	notModified bool
}

// crawler is the state of one run. Only the coordinating goroutine touches
// it, except the fields marked otherwise.
type crawler struct {
	o        Options
	s        *site
	res      *Result
	robots   *robots
	prev     map[string]*Page
	lastmods map[string]time.Time // sitemap <lastmod> by key
	follow   bool
	pace     pacer        // shared by the fetching goroutines
	requests atomic.Int64 // shared by the fetching goroutines

	seen   map[string]string // key interning, every URL ever queued or skipped, at most knownCap
	held   int               // links kept on listed pages (Page.links), at most heldLinksCap
	queue  []item
	head   int
	listed []listed
	stop   SkipReason // why dispatching ended early, "" while it goes on
}

// listed is a page with its sort keys.
type listed struct {
	page  *Page
	order int
}

// Run discovers the site's pages once: robots.txt, then the sitemaps, then
// (per Options.Mode) a crawl or a check of every page the sitemaps list.
// The result is returned even with an error: ctx ending (a partial result,
// the rest counted as cancelled) or ErrRobotsUnreachable. Invalid options
// are an error with a nil result.
func Run(ctx context.Context, opts Options) (*Result, error) {
	o, s, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	c := &crawler{o: o, s: s, seen: map[string]string{}, lastmods: map[string]time.Time{},
		res: &Result{Skipped: map[SkipReason]int{}, Started: o.now()}}
	c.pace.gap = o.Delay
	if o.Previous != nil {
		c.prev = make(map[string]*Page, len(o.Previous.Pages))
		for i := range o.Previous.Pages {
			p := &o.Previous.Pages[i]
			if k, kind := s.resolve(nil, p.URL); kind == linkOnSite {
				c.prev[k] = p
			}
		}
	}
	err = c.run(ctx)
	c.finish()
	return c.res, err
}

func (c *crawler) run(ctx context.Context) error {
	entries, robotsErr := c.resume()
	if entries == nil {
		robotsErr = c.readRobots(ctx)
		c.paceRobots()
		entries = c.readSitemaps(ctx)
	}
	c.follow = c.o.Mode == ModeCrawl || (c.o.Mode == ModeAuto && len(entries) == 0)
	c.res.Source = "sitemap"
	if c.follow {
		c.res.Source = "crawl"
	}
	order := 0
	seed := func(raw, found string) {
		k, kind := c.s.resolve(c.s.fetch, raw)
		switch kind {
		case linkOnSite:
			c.enqueue(item{key: k, found: found, order: order})
			order++
		case linkOffSite:
			c.skip(raw, SkipOffSite, "")
		default:
			c.skip(raw, SkipInvalid, "")
		}
	}
	seed("/", "seed")
	for _, raw := range c.o.Seeds {
		seed(raw, "seed")
	}
	for _, k := range entries {
		c.enqueue(item{key: k, found: "sitemap", order: order})
		order++
	}
	c.crawl(ctx)
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("discover: interrupted: %w", err)
	}
	return robotsErr
}

// paceRobots honours the Crawl-delay robots.txt asked for, up to
// maxCrawlDelay, when it is longer than Options.Delay.
func (c *crawler) paceRobots() {
	if d := min(c.robots.delay, maxCrawlDelay); d > c.pace.gap {
		c.pace.gap = d
		c.res.CrawlDelay = d
	}
}

// resume takes robots.txt and the sitemaps' pages from Options.Start, a
// sitemaps-only run of the same site, and returns the pages' keys (never
// nil) and that run's robots.txt error; nil keys when there is none to
// take.
func (c *crawler) resume() (entries []string, robotsErr error) {
	st := c.o.Start
	if st == nil || st.start == nil || st.start.fetch != c.s.fetch.String() {
		return nil, nil
	}
	c.robots = st.start.robots
	c.res.RobotsStatus = st.RobotsStatus
	c.res.Sitemaps = append([]Sitemap(nil), st.Sitemaps...)
	maps.Copy(c.lastmods, st.start.lastmods)
	c.paceRobots()
	return append(make([]string, 0, len(st.start.entries)), st.start.entries...), st.start.robotsErr
}

// readRobots fetches /robots.txt, following up to five same-site redirects
// (RFC 9309 §2.3.1.2).
func (c *crawler) readRobots(ctx context.Context) error {
	c.robots = allowAll
	key := "/robots.txt"
	for range 6 {
		resp, err := c.get(ctx, key, "text/plain", nil)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			c.robots = disallowAll
			return fmt.Errorf("%w: %v", ErrRobotsUnreachable, errText(err))
		}
		c.res.RobotsStatus = resp.StatusCode
		switch {
		case resp.StatusCode >= 300 && resp.StatusCode < 400:
			resp.Body.Close()
			next, kind := c.s.resolve(resp.Request.URL, resp.Header.Get("Location"))
			if kind != linkOnSite {
				return nil // §2.3.1.3: treated as unavailable
			}
			key = next
			continue
		case resp.StatusCode >= 500:
			resp.Body.Close()
			c.robots = disallowAll
			return fmt.Errorf("%w: status %d", ErrRobotsUnreachable, resp.StatusCode)
		case resp.StatusCode != http.StatusOK:
			resp.Body.Close()
			return nil // §2.3.1.3: 4xx, no restriction
		}
		cr := &countingReader{r: resp.Body, left: maxRobotsBytes}
		body, err := io.ReadAll(cr)
		resp.Body.Close()
		c.res.Bytes += cr.n
		if err != nil {
			c.robots = disallowAll
			return fmt.Errorf("%w: reading: %v", ErrRobotsUnreachable, err)
		}
		c.robots = parseRobots(body, Agent)
		return nil
	}
	return nil // too many redirects: unavailable
}

// enqueue queues a URL unless it was seen, or skips it at once when it
// cannot be a page, is disallowed or too deep.
func (c *crawler) enqueue(it item) {
	if _, ok := c.seen[it.key]; ok {
		return
	}
	if len(c.seen) >= knownCap(c.o.MaxPages) {
		// Link-dense pages name more URLs than a run could fetch: the
		// ones past the bound are counted, not kept.
		c.skip(c.s.publicURL(it.key), SkipMaxPages, "more URLs known than max_pages can use")
		return
	}
	c.seen[it.key] = it.key
	switch {
	case looksNonHTML(it.key):
		c.skip(c.s.publicURL(it.key), SkipNotHTML, "by extension")
	case !c.robots.allowed(it.key):
		c.skip(c.s.publicURL(it.key), SkipRobots, "")
	case it.depth > c.o.MaxDepth:
		c.skip(c.s.publicURL(it.key), SkipMaxDepth, "")
	default:
		c.queue = append(c.queue, it)
	}
}

// knownCap bounds the URLs a run keeps (queued, fetched or skipped), and
// heldLinksCap the links kept on listed pages for the next run's 304s:
// both in proportion to max_pages, so link-dense pages cannot hold more
// memory than the pages a run may list justify (at the default 10,000
// pages: 81,024 URLs of at most 4 KiB, 640,000 links of one pointer each).
func knownCap(maxPages int) int { return 8*maxPages + 1024 }

func heldLinksCap(maxPages int) int { return 64 * maxPages }

// intern returns the stored copy of a seen key, so the links kept for
// every page share one string per URL.
func (c *crawler) intern(k string) string {
	if s, ok := c.seen[k]; ok {
		return s
	}
	return k
}

func (c *crawler) skip(u string, reason SkipReason, detail string) {
	c.res.Skipped[reason]++
	if c.res.Skipped[reason] <= maxSamples {
		c.res.Samples = append(c.res.Samples, Skip{URL: u, Reason: reason, Detail: detail})
	}
}

// crawl fetches the queue with at most Concurrency requests in flight,
// queueing what each page links to when following links.
func (c *crawler) crawl(ctx context.Context) {
	results := make(chan outcome)
	inflight := 0
	done := ctx.Done()
	for {
		for c.stop == "" && inflight < c.o.Concurrency && c.head < len(c.queue) {
			if len(c.listed)+inflight >= c.o.MaxPages {
				if len(c.listed) >= c.o.MaxPages {
					c.stop = SkipMaxPages
				}
				break
			}
			if c.res.Bytes >= c.o.MaxBytes {
				c.stop = SkipMaxBytes
				break
			}
			it := c.queue[c.head]
			c.queue[c.head] = item{}
			c.head++
			inflight++
			left := c.o.MaxBytes - c.res.Bytes
			go func() { results <- c.fetch(ctx, it, left) }()
		}
		if inflight == 0 {
			break
		}
		select {
		case out := <-results:
			inflight--
			c.handle(out)
		case <-done:
			c.stop, done = SkipCancelled, nil
		}
	}
	if c.stop == "" && len(c.listed) >= c.o.MaxPages && c.head < len(c.queue) {
		c.stop = SkipMaxPages
	}
	for _, it := range c.queue[c.head:] {
		c.skip(c.s.publicURL(it.key), c.stop, "")
	}
	c.queue, c.head = nil, 0
	if c.stop == SkipMaxPages || c.stop == SkipMaxBytes {
		c.res.Limited = string(c.stop)
	}
}

// handle folds one outcome into the result and queues what it points to.
func (c *crawler) handle(out outcome) {
	c.res.Bytes += out.bytes
	if out.notModified {
		c.res.NotModified++
	}
	if out.reason != "" {
		c.skip(c.s.publicURL(out.it.key), out.reason, out.detail)
	} else {
		if lm := c.lastmods[out.it.key]; !lm.IsZero() {
			out.page.Lastmod = lm // the sitemap's word over the header's
		}
		c.listed = append(c.listed, listed{page: out.page, order: out.it.order})
	}
	if out.redirect != "" {
		c.enqueue(item{key: out.redirect, depth: out.it.depth, found: out.found(), order: -1})
	}
	for _, k := range out.links {
		c.enqueue(item{key: k, depth: out.it.depth + 1, found: "link", order: -1})
	}
	if out.page != nil && c.follow {
		if c.held+len(out.page.links) > heldLinksCap(c.o.MaxPages) {
			// Over the bound, the page keeps no links: the next run
			// fetches it whole instead of trusting a 304.
			out.page.links, out.page.linksCut = nil, true
		}
		c.held += len(out.page.links)
		for i, k := range out.page.links {
			out.page.links[i] = c.intern(k)
		}
	}
	if c.o.Progress != nil {
		c.o.Progress(Progress{Requests: int(c.requests.Load()), Pages: len(c.listed),
			Queued: len(c.queue) - c.head, Skipped: c.res.SkippedTotal(), Bytes: c.res.Bytes,
			URL: c.s.publicURL(out.it.key)})
	}
}

// found names how a redirect or canonical target was reached.
func (out outcome) found() string {
	if out.reason == SkipCanonical {
		return "canonical"
	}
	return "redirect"
}

// fetch requests one page and reads what the crawler needs from it. It runs
// on its own goroutine and touches no crawler state but the shared pacer
// and request counter.
func (c *crawler) fetch(ctx context.Context, it item, left int64) (out outcome) {
	out.it = it
	defer func() {
		if r := recover(); r != nil {
			out.reason, out.detail, out.page, out.links = SkipError, fmt.Sprintf("panic: %v", r), nil, nil
		}
	}()
	prev := c.prev[it.key]
	if prev != nil && prev.linksCut && c.follow {
		prev = nil // its links were not kept: a 304 could not replay them
	}
	ctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	resp, err := c.get(ctx, it.key, acceptHTML, conditional(prev))
	if err != nil {
		out.reason, out.detail = SkipError, errText(err)
		return out
	}
	defer resp.Body.Close()
	if c.answered(resp, prev, &out) {
		return out
	}
	// The decoded bytes are counted, against max_page_bytes and what is
	// left of max_bytes: a gzip body that inflates a thousandfold costs its
	// inflated size.
	body, closeBody, err := decodeBody(resp, resp.Body)
	if err != nil {
		out.reason, out.detail = SkipError, err.Error()
		return out
	}
	defer closeBody()
	cr := &countingReader{r: body, left: min(c.o.MaxPageBytes, max(left, 0))}
	defer func() { out.bytes = cr.n }()
	c.readPage(resp, cr, &out)
	return out
}

// conditional returns the request header that revalidates prev, the page
// as the last crawl saw it (none when prev is nil). RFC 9110 §13.1.1,
// §13.1.3: If-None-Match first; If-Modified-Since for an origin that only
// sends Last-Modified.
func conditional(prev *Page) http.Header {
	hdr := http.Header{}
	if prev == nil {
		return hdr
	}
	if prev.ETag != "" {
		hdr.Set("If-None-Match", prev.ETag)
	}
	if prev.LastModified != "" {
		hdr.Set("If-Modified-Since", prev.LastModified)
	}
	return hdr
}

// answered fills out for a response whose body the crawler does not read:
// 304 Not Modified (prev is kept), a redirect, another status, or not HTML.
// It reports whether it did.
func (c *crawler) answered(resp *http.Response, prev *Page, out *outcome) bool {
	it := out.it
	switch {
	case resp.StatusCode == http.StatusNotModified && prev != nil:
		p := *prev
		p.Depth, p.Found = it.depth, it.found
		out.page, out.notModified = &p, true
		if c.follow {
			out.links = prev.links
		}
		return true
	case resp.StatusCode >= 300 && resp.StatusCode < 400 && resp.Header.Get("Location") != "":
		loc := resp.Header.Get("Location")
		out.reason, out.detail = SkipRedirect, c.publicLocation(resp.Request.URL, loc)
		if k, kind := c.s.resolve(resp.Request.URL, loc); kind == linkOnSite {
			out.redirect = k
		}
		return true
	case resp.StatusCode != http.StatusOK:
		out.reason, out.detail = SkipStatus, resp.Status
		return true
	case !isHTML(resp.Header.Get("Content-Type")):
		out.reason, out.detail = SkipNotHTML, resp.Header.Get("Content-Type")
		return true
	}
	return false
}

// readPage fills out from the HTML body of a 200 response: the on-site
// links to follow, then a canonical elsewhere or a noindex (meta robots or
// X-Robots-Tag) as a skip, else the page.
func (c *crawler) readPage(resp *http.Response, body io.Reader, out *outcome) {
	it := out.it
	f := extractPage(body, Agent)
	xNoindex, xNofollow := xRobotsTag(resp.Header, Agent)
	base := resp.Request.URL
	if f.base != "" {
		if b, err := base.Parse(f.base); err == nil {
			base = b
		}
	}
	var links []string
	if c.follow && !f.nofollow && !xNofollow {
		for _, href := range f.links {
			if k, kind := c.s.resolve(base, href); kind == linkOnSite && k != it.key {
				links = append(links, k)
			}
		}
		links = compactKeys(links)
		out.links = links
	}
	if f.canonical != "" {
		k, kind := c.s.resolve(base, f.canonical)
		switch {
		case kind == linkOnSite && k != it.key:
			out.reason, out.detail, out.redirect = SkipCanonical, c.s.publicURL(k), k
			return
		case kind == linkOffSite:
			out.reason, out.detail = SkipCanonical, "canonical on another origin: "+f.canonical
			return
		}
	}
	if f.noindex || xNoindex {
		out.reason = SkipNoindex
		return
	}
	p := &Page{URL: c.s.publicURL(it.key), Title: f.title, Description: f.description,
		ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"),
		Depth: it.depth, Found: it.found, links: links}
	if t, err := http.ParseTime(p.LastModified); err == nil {
		p.Lastmod = t.UTC()
	}
	out.page = p
}

// compactKeys drops repeated keys, keeping the first of each.
func compactKeys(keys []string) []string {
	if len(keys) < 2 {
		return keys
	}
	seen := make(map[string]bool, len(keys))
	out := keys[:0]
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return slices.Clip(out)
}

// finish sorts the pages and times the run.
func (c *crawler) finish() {
	slices.SortStableFunc(c.listed, func(a, b listed) int {
		if a.page.Depth != b.page.Depth {
			return cmp.Compare(a.page.Depth, b.page.Depth)
		}
		ao, bo := a.order, b.order
		if ao < 0 {
			ao = int(^uint(0) >> 1)
		}
		if bo < 0 {
			bo = int(^uint(0) >> 1)
		}
		if ao != bo {
			return cmp.Compare(ao, bo)
		}
		return cmp.Compare(a.page.URL, b.page.URL)
	})
	c.res.Pages = make([]Page, len(c.listed))
	for i, l := range c.listed {
		c.res.Pages[i] = *l.page
	}
	c.res.Requests = int(c.requests.Load())
	c.res.Duration = c.o.now().Sub(c.res.Started)
}

// errText is an error's text without the URL a *url.Error prefixes (the
// in-process address), which Samples must not carry.
func errText(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// publicLocation writes a redirect target on the public origin when it is
// on the site, as is otherwise.
func (c *crawler) publicLocation(base *url.URL, loc string) string {
	if k, kind := c.s.resolve(base, loc); kind == linkOnSite {
		return c.s.publicURL(k)
	}
	return loc
}
