package discover

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Sitemap limits of the sitemaps.org protocol: 50,000 URLs and 50 MB
// (uncompressed) per file; a loc is at most 2,048 characters.
const (
	MaxSitemapURLs  = 50000
	maxSitemapBytes = 50 << 20
	maxLocLen       = 2048
)

// sitemapEntry is one <url> of a urlset or one <sitemap> of an index.
type sitemapEntry struct {
	loc     string
	lastmod time.Time // zero when absent or unparsable
}

// sitemapDoc is one parsed sitemap file.
type sitemapDoc struct {
	kind      string // "urlset" or "sitemapindex"
	entries   []sitemapEntry
	truncated bool // more than MaxSitemapURLs entries: the rest is ignored
	dropped   int  // entries past the caller's keep bound: counted, not kept
}

// errTooLarge is parseSitemap's error for a file larger than its limit.
var errTooLarge = errors.New("sitemap too large")

// sitemapKeep bounds the entries parseSitemap keeps of each kind; those
// past it are counted in sitemapDoc.dropped.
type sitemapKeep struct{ urls, sitemaps int }

// parseSitemap reads a sitemaps.org urlset or sitemapindex from r, gzip
// compressed or not (sitemap.xml.gz is detected by its magic bytes, whatever
// the Content-Type), reading at most limit bytes uncompressed: the
// decoded bytes are what is counted (decoded, also on error),
// so a gzip bomb costs no more than an honest file of the limit's size.
// It keeps at most keep.urls entries of a urlset and keep.sitemaps of an
// index, counting the rest. Element names are matched by local name, so a
// missing or odd namespace is tolerated. encoding/xml expands no custom
// entities, so an entity bomb is a syntax error. It never panics.
func parseSitemap(r io.Reader, limit int64, keep sitemapKeep) (doc *sitemapDoc, decoded int64, err error) {
	r, closeGzip, err := gunzipIfGzip(r)
	if err != nil {
		return nil, 0, err
	}
	defer closeGzip()
	lr := &io.LimitedReader{R: r, N: limit + 1}
	defer func() { decoded = min(limit+1-lr.N, limit) }()
	dec := xml.NewDecoder(lr)
	dec.Strict = true
	p := &sitemapParser{doc: &sitemapDoc{}, keep: keep}
	for {
		tok, err := dec.Token()
		if lr.N <= 0 {
			return nil, 0, fmt.Errorf("%w: larger than %d bytes", errTooLarge, limit)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, 0, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := p.start(t); err != nil {
				return nil, 0, err
			}
		case xml.CharData:
			p.text(t)
		case xml.EndElement:
			if p.end() {
				return p.doc, 0, nil
			}
		}
	}
	if p.doc.kind == "" {
		return nil, 0, errors.New("no root element")
	}
	return p.doc, 0, nil
}

// gunzipIfGzip returns r decompressed when it starts with the gzip magic
// bytes, else r as it is, and the function that closes the decompressor.
func gunzipIfGzip(r io.Reader) (io.Reader, func(), error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); len(magic) != 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return br, func() {}, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, nil, fmt.Errorf("gzip: %v", err)
	}
	return zr, func() { zr.Close() }, nil
}

// sitemapParser is the state of parseSitemap between XML tokens.
type sitemapParser struct {
	doc           *sitemapDoc
	keep          sitemapKeep
	depth         int
	field         string // "loc" or "lastmod" while inside one, at depth 3
	loc, lastmod  strings.Builder
	inEntry       bool
	entryElement  string
	overLongEntry bool
}

// start enters an element: the root names the sitemap's kind, an entry
// (<url> or <sitemap>) starts afresh, and <loc> or <lastmod> inside one
// starts collecting text.
func (p *sitemapParser) start(t xml.StartElement) error {
	p.depth++
	switch p.depth {
	case 1:
		switch t.Name.Local {
		case "urlset":
			p.doc.kind, p.entryElement = "urlset", "url"
		case "sitemapindex":
			p.doc.kind, p.entryElement = "sitemapindex", "sitemap"
		default:
			return fmt.Errorf("root element is <%s>, want <urlset> or <sitemapindex>", t.Name.Local)
		}
	case 2:
		p.inEntry = t.Name.Local == p.entryElement
		p.loc.Reset()
		p.lastmod.Reset()
		p.overLongEntry = false
	case 3:
		if p.inEntry && (t.Name.Local == "loc" || t.Name.Local == "lastmod") {
			p.field = t.Name.Local
		}
	}
	return nil
}

// text collects the text of <loc> (an entry whose URL is longer than
// maxLocLen is dropped) and of <lastmod> (up to 64 bytes).
func (p *sitemapParser) text(t xml.CharData) {
	switch p.field {
	case "loc":
		if p.loc.Len()+len(t) > maxLocLen {
			p.overLongEntry = true
		} else {
			p.loc.Write(t)
		}
	case "lastmod":
		if p.lastmod.Len() < 64 {
			p.lastmod.Write(t)
		}
	}
}

// end leaves an element; leaving an entry records it. It reports true when
// the sitemap holds more than MaxSitemapURLs entries: the rest is ignored.
func (p *sitemapParser) end() (full bool) {
	if p.depth == 3 {
		p.field = ""
	}
	if p.depth == 2 && p.inEntry {
		p.inEntry = false
		u := strings.TrimSpace(p.loc.String())
		if u != "" && !p.overLongEntry {
			if len(p.doc.entries)+p.doc.dropped >= MaxSitemapURLs {
				p.doc.truncated = true
				return true
			}
			keep := p.keep.urls
			if p.doc.kind == "sitemapindex" {
				keep = p.keep.sitemaps
			}
			if len(p.doc.entries) >= keep {
				p.doc.dropped++
				p.depth--
				return false
			}
			p.doc.entries = append(p.doc.entries, sitemapEntry{loc: u, lastmod: parseW3CDate(p.lastmod.String())})
		}
	}
	p.depth--
	return false
}

// w3cLayouts are the W3C Datetime forms sitemaps.org allows for lastmod.
var w3cLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04Z07:00",
	"2006-01-02",
	"2006-01",
	"2006",
}

// parseW3CDate parses a sitemap lastmod; anything else is unknown (zero),
// never guessed.
func parseW3CDate(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, l := range w3cLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// wellKnownSitemaps are probed, in order, when robots.txt names no sitemap
// that lists a page: the sitemaps.org default, Yoast and Rank Math's index,
// WordPress core's (since 5.5), and the index of Astro and other static
// generators.
var wellKnownSitemaps = []string{"/sitemap.xml", "/sitemap_index.xml", "/wp-sitemap.xml", "/sitemap-index.xml"}

// acceptXML is the Accept of sitemap requests.
const acceptXML = "application/xml, text/xml;q=0.9, */*;q=0.1"

// The Sitemap.Error of a sitemap URL never requested.
const (
	errNotHTTP = "not an http(s) URL"
	errOffSite = "on another origin"
)

// sitemapJob is one sitemap file to read.
type sitemapJob struct {
	key   string
	found string
}

// readSitemaps reads the sitemaps robots.txt names, else the well-known
// locations until one lists a page, descending into sitemap indexes, and
// returns the keys of the same-site pages they list, in document order,
// each once. Every file tried is recorded in Result.Sitemaps.
func (c *crawler) readSitemaps(ctx context.Context) []string {
	var pages []string
	seenPage := map[string]bool{}
	seenMap := map[string]bool{}
	var queue []sitemapJob
	add := func(raw, found string, base *url.URL) {
		k, kind := c.s.resolve(base, raw)
		switch {
		case kind == linkInvalid:
			c.res.Sitemaps = append(c.res.Sitemaps, Sitemap{URL: raw, Found: found, Error: errNotHTTP})
		case kind == linkOffSite:
			c.res.Sitemaps = append(c.res.Sitemaps, Sitemap{URL: raw, Found: found, Error: errOffSite})
		case !seenMap[k]:
			seenMap[k] = true
			queue = append(queue, sitemapJob{key: k, found: found})
		}
	}
	for _, raw := range c.robots.sitemaps {
		add(raw, "robots.txt", c.s.fetch)
	}
	probe := 0
	for len(queue) > 0 || (len(pages) == 0 && probe < len(wellKnownSitemaps)) {
		if ctx.Err() != nil {
			return pages
		}
		if len(queue) == 0 {
			add(wellKnownSitemaps[probe], "well-known", c.s.fetch)
			probe++
			continue
		}
		job := queue[0]
		queue = queue[1:]
		if len(pages) >= c.o.MaxPages {
			// Nothing more could be kept: the file is not read.
			c.res.Sitemaps = append(c.res.Sitemaps, Sitemap{URL: c.s.publicURL(job.key), Found: job.found,
				Error: fmt.Sprintf("not read: max_pages (%d) reached", c.o.MaxPages)})
			c.res.Limited = string(SkipMaxPages)
			continue
		}
		if len(c.res.Sitemaps) >= c.o.MaxSitemaps {
			c.res.Sitemaps = append(c.res.Sitemaps, Sitemap{URL: c.s.publicURL(job.key), Found: job.found,
				Error: fmt.Sprintf("over max_sitemaps (%d)", c.o.MaxSitemaps)})
			continue
		}
		keep := sitemapKeep{urls: c.o.MaxPages - len(pages), sitemaps: max(c.o.MaxSitemaps-len(c.res.Sitemaps)-len(queue), 0)}
		sm, doc, base := c.readSitemap(ctx, job, keep)
		if sm.Location != "" {
			add(sm.Location, "redirect", base)
			sm.Location = c.publicLocation(base, sm.Location)
		}
		c.res.Sitemaps = append(c.res.Sitemaps, sm)
		if doc == nil {
			continue
		}
		if doc.dropped > 0 && doc.kind == "urlset" {
			// Past max_pages: counted, not kept (sitemapDoc.dropped).
			c.res.Skipped[SkipMaxPages] += doc.dropped
			c.res.Limited = string(SkipMaxPages)
		}
		for _, e := range doc.entries {
			if doc.kind == "sitemapindex" {
				add(e.loc, "index", base)
				continue
			}
			k, kind := c.s.resolve(base, e.loc)
			switch {
			case kind == linkInvalid:
				c.skip(e.loc, SkipInvalid, "sitemap loc")
			case kind == linkOffSite:
				c.skip(e.loc, SkipOffSite, "sitemap loc")
			case !seenPage[k]:
				seenPage[k] = true
				pages = append(pages, k)
				if !e.lastmod.IsZero() {
					c.lastmods[k] = e.lastmod
				}
			}
		}
	}
	return pages
}

// readSitemap fetches and parses one sitemap file without following a
// redirect, and says what it answered.
func (c *crawler) readSitemap(ctx context.Context, job sitemapJob, keep sitemapKeep) (Sitemap, *sitemapDoc, *url.URL) {
	sm := Sitemap{URL: c.s.publicURL(job.key), Found: job.found}
	base := c.s.fetch.ResolveReference(&url.URL{Path: keyPath(job.key)})
	if !c.robots.allowed(job.key) {
		sm.Error = "disallowed by robots.txt"
		return sm, nil, base
	}
	if c.res.Bytes >= c.o.MaxBytes {
		sm.Error = "over max_bytes"
		return sm, nil, base
	}
	ctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	resp, err := c.get(ctx, job.key, acceptXML, nil)
	if err != nil {
		sm.Error = errText(err)
		return sm, nil, base
	}
	defer resp.Body.Close()
	base = resp.Request.URL
	sm.Status = resp.StatusCode
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		sm.Location = resp.Header.Get("Location")
		sm.Error = "redirects"
		return sm, nil, base
	case resp.StatusCode != http.StatusOK:
		sm.Error = "status " + strconv.Itoa(resp.StatusCode)
		return sm, nil, base
	}
	// What is left of max_bytes bounds the file, counted decoded: a
	// sitemap.xml.gz that inflates a thousandfold spends its inflated size.
	limit := min(maxSitemapBytes, c.o.MaxBytes-c.res.Bytes)
	cr := &countingReader{r: resp.Body, left: limit}
	doc, decoded, err := parseSitemap(cr, limit, keep)
	c.res.Bytes += max(cr.n, decoded)
	switch {
	case errors.Is(err, errTooLarge) && limit < maxSitemapBytes:
		sm.Error = "over max_bytes"
		c.res.Limited = string(SkipMaxBytes)
		return sm, nil, base
	case err != nil:
		sm.Error = "parsing: " + err.Error()
		return sm, nil, base
	}
	sm.Direct, sm.Kind, sm.Entries = true, doc.kind, len(doc.entries)+doc.dropped
	switch {
	case doc.truncated:
		sm.Error = fmt.Sprintf("more than %d entries; the rest ignored", MaxSitemapURLs)
	case doc.dropped > 0 && doc.kind == "urlset":
		sm.Error = fmt.Sprintf("%d entries past max_pages (%d) not kept", doc.dropped, c.o.MaxPages)
	case doc.dropped > 0:
		sm.Error = fmt.Sprintf("%d child sitemaps past max_sitemaps (%d) not kept", doc.dropped, c.o.MaxSitemaps)
	}
	if c.o.Progress != nil {
		c.o.Progress(Progress{Requests: int(c.requests.Load()), Bytes: c.res.Bytes, URL: sm.URL})
	}
	return sm, doc, base
}

// Sitemaps reads robots.txt and the origin's sitemaps as Run does, and
// stops there: no page is fetched. It says where the site's sitemaps are
// (Result.Sitemaps, Result.DirectSitemaps, Result.SitemapStatus) for a few
// requests, without the cost of a crawl. The result's Pages are the
// sitemap entries as listed, unchecked (Found "sitemap", Lastmod from
// <lastmod>), at most Options.MaxPages of them; Source is "sitemap", and
// Pages is empty when the site has no sitemap. Options.Mode, Seeds and the
// page limits other than MaxPages are not used. As with Run, the result is
// returned with ErrRobotsUnreachable (then no sitemap is read) or when ctx
// ends.
func Sitemaps(ctx context.Context, opts Options) (*Result, error) {
	o, s, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	c := &crawler{o: o, s: s, seen: map[string]string{}, lastmods: map[string]time.Time{},
		res: &Result{Source: "sitemap", Skipped: map[SkipReason]int{}, Started: o.now()}}
	c.pace.gap = o.Delay
	robotsErr := c.readRobots(ctx)
	c.paceRobots()
	entries := c.readSitemaps(ctx)
	if ctx.Err() == nil {
		// A crawl may start from here (Options.Start).
		c.res.start = &sitemapStart{fetch: s.fetch.String(), robots: c.robots, robotsErr: robotsErr, entries: entries, lastmods: c.lastmods}
	}
	for _, k := range entries {
		if len(c.res.Pages) >= o.MaxPages {
			c.skip(s.publicURL(k), SkipMaxPages, "")
			c.res.Limited = string(SkipMaxPages)
			continue
		}
		c.res.Pages = append(c.res.Pages, Page{URL: s.publicURL(k), Lastmod: c.lastmods[k], Found: "sitemap"})
	}
	c.res.Requests = int(c.requests.Load())
	c.res.Duration = o.now().Sub(c.res.Started)
	if err := ctx.Err(); err != nil {
		return c.res, fmt.Errorf("discover: interrupted: %w", err)
	}
	return c.res, robotsErr
}

// SitemapStatus is the status the sitemap at path (on the site, e.g.
// "/sitemap.xml") answered when it was tried as a top-level sitemap (named
// by robots.txt, probed at a well-known location, or a redirect's target),
// redirects not followed; 0 when it was not tried or the request failed.
func (r *Result) SitemapStatus(path string) int {
	if r == nil {
		return 0
	}
	for _, s := range r.Sitemaps {
		if s.Found == "index" || s.Error == errOffSite || s.Error == errNotHTTP {
			continue
		}
		if u, err := url.Parse(s.URL); err == nil && u.EscapedPath() == path {
			return s.Status
		}
	}
	return 0
}
