package discover

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestCrawl: with no sitemap, the crawl lists every page it may list and
// says why it left out the rest.
func TestCrawl(t *testing.T) {
	tests := []struct {
		name    string
		site    func(f *fakeSite, origin string)
		opts    func(o *Options)
		pages   []string
		skipped map[SkipReason]int
		never   []string // paths that must never be requested
	}{
		{
			name: "every linked page, however the link is written",
			site: func(f *fakeSite, origin string) {
				f.page("/", "<title>Home</title>", links("/guide/", "about.html", testPublic+"/abs", origin+"/internal", "#top", "mailto:a@b.example", "javascript:void(0)", "https://elsewhere.example/"))
				f.page("/guide/", `<base href="/guide/sub/">`, links("page1.html", "../up.html"))
				f.page("/guide/sub/page1.html", `<link rel="next" href="page2.html">`, "")
				f.page("/guide/sub/page2.html", "", "")
				f.page("/guide/up.html", "", "")
				f.page("/about.html", "", links("/?x=1#frag"))
				f.page("/?x=1", "", "")
				f.page("/abs", "", "")
				f.page("/internal", "", "")
			},
			pages: []string{"/", "/?x=1", "/about.html", "/abs", "/guide/", "/guide/sub/page1.html", "/guide/sub/page2.html", "/guide/up.html", "/internal"},
		},
		{
			name: "robots.txt Disallow for us or for all",
			site: func(f *fakeSite, origin string) {
				f.file("/robots.txt", "text/plain", []byte("User-agent: otherbot\nDisallow: /\n\nUser-agent: AgentReady\nDisallow: /private\nAllow: /private/open\nCrawl-delay: soon\n"))
				f.page("/", "", links("/private", "/private/x", "/private/open", "/public"))
				f.page("/private", "", "")
				f.page("/private/x", "", "")
				f.page("/private/open", "", "")
				f.page("/public", "", "")
			},
			pages:   []string{"/", "/private/open", "/public"},
			skipped: map[SkipReason]int{SkipRobots: 2},
			never:   []string{"/private", "/private/x"},
		},
		{
			name: "noindex by meta or X-Robots-Tag; links still followed unless nofollow",
			site: func(f *fakeSite, origin string) {
				f.page("/", "", links("/meta", "/header", "/other-bot", "/ours", "/nofollow"))
				f.page("/meta", `<meta name="ROBOTS" content="NoIndex, follow">`, links("/via-meta"))
				f.page("/via-meta", "", "")
				f.handle("/header", func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "text/html")
					w.Header().Set("X-Robots-Tag", "noindex")
					w.Write([]byte(links("/via-header")))
				})
				f.page("/via-header", "", "")
				f.handle("/other-bot", func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "text/html")
					w.Header().Set("X-Robots-Tag", "otherbot: noindex")
					w.Header().Add("X-Robots-Tag", "unavailable_after: 25 Jun 2010 15:00:00 PST")
				})
				f.page("/ours", `<meta name="agentready" content="none">`, links("/not-followed"))
				f.page("/nofollow", `<meta name="robots" content="nofollow">`, links("/not-followed")+`<a rel="nofollow" href="/not-followed">x</a>`)
				f.page("/not-followed", "", "")
			},
			pages:   []string{"/", "/nofollow", "/other-bot", "/via-header", "/via-meta"},
			skipped: map[SkipReason]int{SkipNoindex: 3},
			never:   []string{"/not-followed"},
		},
		{
			name: "one entry per canonical URL",
			site: func(f *fakeSite, origin string) {
				f.page("/", "", links("/a?ref=nav", "/a", "/b", "/print/c", "/d"))
				f.page("/a", `<link rel="canonical" href="/a">`, "")
				f.page("/a?ref=nav", `<link rel="canonical" href="`+testPublic+`/a">`, "")
				f.page("/b", `<link rel="canonical" href="http://docs.example.com/b-final">`, "")
				f.page("/b-final", `<link rel="canonical" href="/b-final">`, "")
				f.page("/print/c", `<link rel="canonical" href="/c">`, "")
				f.page("/c", "", "")
				f.page("/d", `<link rel="canonical" href="https://mirror.example/d">`, "")
			},
			pages:   []string{"/", "/a", "/b-final", "/c"},
			skipped: map[SkipReason]int{SkipCanonical: 4},
		},
		{
			name: "non-HTML skipped, by extension without a request",
			site: func(f *fakeSite, origin string) {
				f.page("/", "", links("/manual.pdf", "/logo.PNG", "/api", "/feed", "/page"))
				f.file("/manual.pdf", "application/pdf", []byte("%PDF"))
				f.file("/api", "application/json", []byte("{}"))
				f.file("/feed", "application/atom+xml", []byte("<feed/>"))
				f.page("/page", "", "")
			},
			pages:   []string{"/", "/page"},
			skipped: map[SkipReason]int{SkipNotHTML: 4},
			never:   []string{"/manual.pdf", "/logo.PNG"},
		},
		{
			name: "redirects: the same-site target is listed, never the redirect",
			site: func(f *fakeSite, origin string) {
				f.page("/", "", links("/docs", "/old", "/away", "/abs"))
				f.redirect("/docs", "/docs/")
				f.page("/docs/", "", "")
				f.redirect("/old", testPublic+"/new")
				f.page("/new", "", "")
				f.redirect("/away", "https://elsewhere.example/")
				f.redirect("/abs", origin+"/docs/")
			},
			pages:   []string{"/", "/docs/", "/new"},
			skipped: map[SkipReason]int{SkipRedirect: 4},
		},
		{
			name: "errors and statuses",
			site: func(f *fakeSite, origin string) {
				f.page("/", "", links("/missing", "/broken", "/gzip"))
				f.handle("/broken", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) })
				f.handle("/gzip", func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "text/html")
					w.Header().Set("Content-Encoding", "gzip")
					w.Write(gzipped([]byte("<title>Zipped</title>" + links("/from-gzip"))))
				})
				f.page("/from-gzip", "", "")
			},
			pages:   []string{"/", "/from-gzip", "/gzip"},
			skipped: map[SkipReason]int{SkipStatus: 2},
		},
		{
			name: "seeds reach what no link does",
			site: func(f *fakeSite, origin string) {
				f.page("/", "", "")
				f.page("/orphan", "", links("/orphan-child"))
				f.page("/orphan-child", "", "")
			},
			opts:    func(o *Options) { o.Seeds = []string{"/orphan", "https://elsewhere.example/x"} },
			pages:   []string{"/", "/orphan", "/orphan-child"},
			skipped: map[SkipReason]int{SkipOffSite: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeSite()
			opts := f.serve(t)
			tt.site(f, opts.Origin)
			if tt.opts != nil {
				tt.opts(&opts)
			}
			res := run(t, opts)
			if res.Source != "crawl" {
				t.Errorf("Source = %q", res.Source)
			}
			if got := paths(res); !slices.Equal(got, tt.pages) {
				t.Errorf("pages = %q, want %q", got, tt.pages)
			}
			for r, n := range tt.skipped {
				if res.Skipped[r] != n {
					t.Errorf("Skipped[%s] = %d, want %d (all %v, samples %+v)", r, res.Skipped[r], n, res.Skipped, res.Samples)
				}
			}
			for _, p := range tt.never {
				if f.requested(p) {
					t.Errorf("%s was requested", p)
				}
			}
			for _, p := range res.Pages {
				if !strings.HasPrefix(p.URL, testPublic+"/") {
					t.Errorf("page URL %q is not on the public origin", p.URL)
				}
			}
			for _, s := range res.Samples {
				if strings.Contains(s.URL, opts.Origin) || strings.Contains(s.Detail, opts.Origin) {
					t.Errorf("skip sample %+v names the in-process origin", s)
				}
			}
		})
	}
}

// TestCrawlPageFacts: title, description and validators are recorded.
func TestCrawlPageFacts(t *testing.T) {
	f := newFakeSite()
	f.handle("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("ETag", `"v1"`)
		w.Write([]byte(`<html><head><title>
			Home &amp; more</title><meta name="description" content="  The  home page. ">
			<meta property="og:description" content="ignored"></head>
			<body><svg><title>icon</title></svg>` + links("/b") + `</body></html>`))
	})
	// A <title> in the body is still the document's title (HTML §4.2.2:
	// the first title element in tree order).
	f.page("/b", `<meta property="og:description" content="From OG">`, `<title>Body title</title>`)
	res := run(t, f.serve(t))
	want := []Page{
		{URL: testPublic + "/", Title: "Home & more", Description: "The home page.", ETag: `"v1"`, Found: "seed"},
		{URL: testPublic + "/b", Title: "Body title", Description: "From OG", Depth: 1, Found: "link"},
	}
	if len(res.Pages) != len(want) {
		t.Fatalf("pages = %q", paths(res))
	}
	for i, w := range want {
		g := res.Pages[i]
		g.links = nil
		if fmt.Sprint(g) != fmt.Sprint(w) {
			t.Errorf("page %d = %+v, want %+v", i, g, w)
		}
	}
}

// chain serves /p0 … /p{n-1}, each linking to the next, every page
// padded to pad bytes.
func chain(f *fakeSite, n, pad int) {
	f.page("/", "", links("/p0"))
	for i := range n {
		f.page(fmt.Sprintf("/p%d", i), "", links(fmt.Sprintf("/p%d", i+1))+strings.Repeat("x", pad))
	}
}

// TestLimits: each limit stops the crawl and is reported.
func TestLimits(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		pages   int
		limited string
		skipped SkipReason
	}{
		{"max_pages", Options{MaxPages: 5}, 5, "max_pages", SkipMaxPages},
		{"max_depth", Options{MaxDepth: 3}, 4, "", SkipMaxDepth},                               // "/", p0, p1, p2
		{"max_bytes", Options{MaxBytes: 10_000, Concurrency: 1}, 4, "max_bytes", SkipMaxBytes}, // the page that crosses the budget is read
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeSite()
			chain(f, 20, 4000)
			opts := f.serve(t)
			opts.MaxPages, opts.MaxDepth, opts.MaxBytes, opts.Concurrency = tt.opts.MaxPages, tt.opts.MaxDepth, tt.opts.MaxBytes, tt.opts.Concurrency
			res := run(t, opts)
			if len(res.Pages) != tt.pages || res.Limited != tt.limited || res.Skipped[tt.skipped] != 1 {
				t.Errorf("pages %d limited %q skipped %v; want %d %q %s=1", len(res.Pages), res.Limited, res.Skipped, tt.pages, tt.limited, tt.skipped)
			}
			if tt.name == "max_bytes" && res.Bytes > 10_000+int64(5000) {
				t.Errorf("read %d bytes past a 10,000 byte budget", res.Bytes)
			}
		})
	}
}

// TestMaxPageBytes: a page is read up to the cap and still listed; links
// past the cap are not seen.
func TestMaxPageBytes(t *testing.T) {
	f := newFakeSite()
	f.page("/", "<title>Big</title>", links("/early")+strings.Repeat("x", 10_000)+links("/late"))
	f.page("/early", "", "")
	f.page("/late", "", "")
	opts := f.serve(t)
	opts.MaxPageBytes = 5000
	res := run(t, opts)
	if got := paths(res); !slices.Equal(got, []string{"/", "/early"}) {
		t.Errorf("pages = %q", got)
	}
	if res.Pages[0].Title != "Big" {
		t.Errorf("title = %q", res.Pages[0].Title)
	}
}

// TestConcurrency: requests in flight never exceed the limit, counted in
// the handler.
func TestConcurrency(t *testing.T) {
	for _, limit := range []int{0, 1, 2} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			f := newFakeSite()
			var hrefs []string
			for i := range 40 {
				hrefs = append(hrefs, fmt.Sprintf("/p%d", i))
				f.page(fmt.Sprintf("/p%d", i), "", "")
			}
			f.page("/", "", links(hrefs...))
			f.before = func(*http.Request) { time.Sleep(2 * time.Millisecond) }
			opts := f.serve(t)
			opts.Concurrency = limit
			res := run(t, opts)
			want := limit
			if want == 0 {
				want = DefaultConcurrency
			}
			if len(res.Pages) != 41 {
				t.Errorf("pages = %d, want 41", len(res.Pages))
			}
			if f.peak > want {
				t.Errorf("peak in flight = %d, limit %d", f.peak, want)
			}
		})
	}
}

// TestDelay: request starts are spaced by at least the delay. Times seen
// by the handler can bunch up (scheduling), so the bound checked is the
// run's length: n spaced starts take at least (n-1) delays.
func TestDelay(t *testing.T) {
	f := newFakeSite()
	f.page("/", "", links("/a", "/b", "/c"))
	f.page("/a", "", "")
	f.page("/b", "", "")
	f.page("/c", "", "")
	opts := f.serve(t)
	opts.Delay = 20 * time.Millisecond
	res := run(t, opts)
	if len(res.Pages) != 4 {
		t.Fatalf("pages = %q", paths(res))
	}
	if min := time.Duration(res.Requests-1) * opts.Delay; res.Duration < min {
		t.Errorf("%d requests took %v, less than %v", res.Requests, res.Duration, min)
	}
}

// TestCancel: ending the context stops the run, returns what was found and
// leaves no goroutine behind (TestMain checks).
func TestCancel(t *testing.T) {
	f := newFakeSite()
	chain(f, 50, 0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n atomic.Int32
	f.before = func(r *http.Request) {
		if n.Add(1) == 7 { // robots.txt, 4 sitemaps, /, then a page

			cancel()
			<-r.Context().Done()
		}
	}
	opts := f.serve(t)
	res, err := Run(ctx, opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if res == nil || len(res.Pages) == 0 || len(res.Pages) >= 50 {
		t.Fatalf("partial result: %v", res)
	}
	if int(n.Load()) > 9 {
		t.Errorf("%d requests after cancelling at the 7th", n.Load())
	}
}

// TestRefresh: the second run sends the validators of the first; a 304
// keeps the page as it was, links included.
func TestRefresh(t *testing.T) {
	f := newFakeSite()
	var conditional atomic.Int32
	page := func(path, etag, lastmod, body string) {
		f.handle(path, func(w http.ResponseWriter, r *http.Request) {
			if etag != "" && r.Header.Get("If-None-Match") == etag ||
				etag == "" && lastmod != "" && r.Header.Get("If-Modified-Since") == lastmod {
				conditional.Add(1)
				w.WriteHeader(http.StatusNotModified)
				return
			}
			if etag != "" {
				w.Header().Set("ETag", etag)
			}
			if lastmod != "" {
				w.Header().Set("Last-Modified", lastmod)
			}
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<title>" + path + "</title>" + body))
		})
	}
	page("/", `"home"`, "", links("/a", "/b", "/c"))
	page("/a", `"a"`, "", links("/a/child"))
	page("/a/child", "", "Mon, 01 Jan 2024 00:00:00 GMT", "")
	page("/b", "", "", "")
	page("/c", `"c"`, "", "")
	opts := f.serve(t)
	first := run(t, opts)
	opts.Previous = first
	second := run(t, opts)
	if got, want := paths(second), paths(first); !slices.Equal(got, want) || len(got) != 5 {
		t.Fatalf("second run pages %q, first %q", got, want)
	}
	if second.NotModified != 4 || conditional.Load() != 4 {
		t.Errorf("NotModified = %d, handler saw %d conditional hits; want 4", second.NotModified, conditional.Load())
	}
	for i := range first.Pages {
		a, b := first.Pages[i], second.Pages[i]
		if a.URL != b.URL || a.Title != b.Title || a.ETag != b.ETag || a.LastModified != b.LastModified || !a.Lastmod.Equal(b.Lastmod) {
			t.Errorf("page %d changed across a 304: %+v -> %+v", i, a, b)
		}
	}
}

// TestRobotsUnreachable: a robots.txt answering 5xx disallows everything
// and the run says so.
func TestRobotsUnreachable(t *testing.T) {
	f := newFakeSite()
	f.handle("/robots.txt", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) })
	f.page("/", "", "")
	res, err := Run(context.Background(), f.serve(t))
	if !errors.Is(err, ErrRobotsUnreachable) {
		t.Fatalf("err = %v", err)
	}
	if len(res.Pages) != 0 || res.Skipped[SkipRobots] != 1 || res.RobotsStatus != 503 || f.requested("/") {
		t.Errorf("pages %q skipped %v status %d", paths(res), res.Skipped, res.RobotsStatus)
	}
}

// TestOptions: invalid options are refused before any request.
func TestOptions(t *testing.T) {
	c := http.DefaultClient
	for _, o := range []Options{
		{Origin: "http://127.0.0.1:1"},
		{Origin: "ftp://x", Client: c},
		{Origin: "http://127.0.0.1:1/path", Client: c},
		{Origin: "http://127.0.0.1:1", PublicOrigin: "docs.example.com", Client: c},
		{Origin: "http://127.0.0.1:1", Client: c, Mode: "spider"},
		{Origin: "http://127.0.0.1:1", Client: c, MaxPages: -1},
		{Origin: "http://127.0.0.1:1", Client: c, Delay: -time.Second},
	} {
		if _, err := New(o); err == nil {
			t.Errorf("New(%+v) accepted", o)
		}
	}
}

// TestDiscoverer: concurrent callers share one run; the next run is
// conditional on the last.
func TestDiscoverer(t *testing.T) {
	f := newFakeSite()
	release := make(chan struct{})
	f.handle("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		<-release
		w.Header().Set("ETag", `"1"`)
		w.Header().Set("Content-Type", "text/html")
	})
	d, err := New(f.serve(t))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	results := make([]*Result, 3)
	wg.Go(func() { results[0], _ = d.Run(context.Background()) })
	for !f.requested("/") {
		time.Sleep(time.Millisecond)
	}
	for i := 1; i < len(results); i++ {
		wg.Go(func() { results[i], _ = d.Run(context.Background()) })
	}
	for joined := 0; joined < 2; {
		time.Sleep(time.Millisecond)
		d.mu.Lock()
		joined = d.joined
		d.mu.Unlock()
	}
	close(release)
	wg.Wait()
	if results[0] != results[1] || results[1] != results[2] || d.Last() != results[0] {
		t.Errorf("callers got different runs")
	}
	again, err := d.Run(context.Background())
	if err != nil || again.NotModified != 1 || len(again.Pages) != 1 {
		t.Errorf("second run: %+v, %v", again, err)
	}
}

// handlerTransport serves requests with a handler in process, as the Caddy
// module's transport does; it sets no Response.Request.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path == "/fail" {
		return nil, errors.New("connection refused")
	}
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	resp := rec.Result()
	resp.Request = nil
	return resp, nil
}

// TestInProcess: through an in-process transport, with the in-process
// address written into the pages, every reported URL is public; progress
// is reported as the run goes.
func TestInProcess(t *testing.T) {
	const inproc = "http://127.0.0.1:9"
	f := newFakeSite()
	f.page("/", `<link rel="canonical" href="`+inproc+`/">`, links(inproc+"/a", "/b", "/fail"))
	f.page("/a", "", links("/b"))
	f.page("/b", "", "")
	var calls []Progress
	opts := Options{Origin: inproc, PublicOrigin: "https://Docs.Example.com:443/", Client: &http.Client{Transport: handlerTransport{f}},
		Progress: func(p Progress) { calls = append(calls, p) }}
	res := run(t, opts)
	if got := paths(res); !slices.Equal(got, []string{"/", "/a", "/b"}) {
		t.Fatalf("pages = %q (%v)", got, res.Samples)
	}
	for _, p := range res.Pages {
		if !strings.HasPrefix(p.URL, testPublic+"/") {
			t.Errorf("URL %q is not public", p.URL)
		}
	}
	if i := slices.IndexFunc(res.Samples, func(s Skip) bool { return s.Reason == SkipError }); i < 0 ||
		res.Samples[i].Detail != "connection refused" || res.Samples[i].URL != testPublic+"/fail" {
		t.Errorf("error sample: %+v", res.Samples)
	}
	if len(calls) == 0 || calls[len(calls)-1].Pages != 3 || calls[len(calls)-1].Requests != res.Requests {
		t.Errorf("progress calls: %+v", calls)
	}
	for i := 1; i < len(calls); i++ {
		if calls[i].Requests < calls[i-1].Requests || calls[i].Pages < calls[i-1].Pages {
			t.Errorf("progress went back: %+v then %+v", calls[i-1], calls[i])
		}
	}
}

// TestStartFromSitemaps: a crawl that starts from a Sitemaps call of the
// same site asks for neither robots.txt nor any sitemap again, obeys the
// robots.txt that call read, and finds what a crawl from scratch finds;
// a result of another site, or of a full run, is ignored.
func TestStartFromSitemaps(t *testing.T) {
	f := newFakeSite()
	f.file("/robots.txt", "text/plain", []byte("User-agent: *\nDisallow: /private\nSitemap: /missing.xml\n"))
	f.page("/", "", links("/a", "/private/x"))
	f.page("/a", "", links("/b"))
	f.page("/b", "", "")
	opts := f.serve(t)
	sm, err := Sitemaps(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := paths(run(t, opts))
	f.mu.Lock()
	f.requests = nil
	f.mu.Unlock()

	d, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	d.StartFrom(sm)
	res, err := d.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(res); !slices.Equal(got, want) {
		t.Errorf("pages %v, want %v (a crawl from scratch)", got, want)
	}
	for _, p := range []string{"/robots.txt", "/missing.xml", "/sitemap.xml", "/private/x"} {
		if f.requested(p) {
			t.Errorf("%s asked for again", p)
		}
	}
	if res.RobotsStatus != 200 || len(res.Sitemaps) == 0 {
		t.Errorf("robots status %d, %d sitemaps tried: the start's are not reported", res.RobotsStatus, len(res.Sitemaps))
	}
	// The next run reads them anew.
	if _, err := d.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !f.requested("/robots.txt") {
		t.Error("the second run did not read robots.txt")
	}

	// Another site's result, or a full run's, starts nothing.
	other := newFakeSite()
	other.page("/", "", "")
	for name, start := range map[string]*Result{"another site": mustSitemaps(t, other.serve(t)), "a full run": run(t, opts)} {
		f.mu.Lock()
		f.requests = nil
		f.mu.Unlock()
		o := opts
		o.Start = start
		run(t, o)
		if !f.requested("/robots.txt") {
			t.Errorf("%s: robots.txt not read", name)
		}
	}
}

func mustSitemaps(t *testing.T, opts Options) *Result {
	t.Helper()
	res, err := Sitemaps(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
