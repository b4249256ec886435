package selfcheck

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestHostileSites: garbage, huge bodies, bombs, loops, slow bodies,
// refused connections and TLS errors each end in a verdict with a receipt,
// in bounded time, never a crash.
func TestHostileSites(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(s *testSite)
		id    string
		want  Verdict
		opts  Options
		error string // in the check's missing line
	}{
		{name: "10 MB llms.txt", edit: replace("/llms.txt", &doc{ctype: "text/plain", body: "# Big\n" + strings.Repeat("x", 10<<20)}), id: "llms_txt", want: CouldNotCheck, error: "size cap"},
		{name: "XML bomb in the sitemap", edit: replace("/sitemap.xml", &doc{ctype: "application/xml", body: xmlBomb}), id: "sitemap", want: Fail, error: "entity"},
		{name: "sitemap with a million URLs", edit: replace("/sitemap.xml", &doc{handler: millionURLs}), id: "sitemap", want: CouldNotCheck, error: "size cap"},
		{name: "sitemap with a million URLs under a larger cap", edit: replace("/sitemap.xml", &doc{handler: millionURLs}), id: "sitemap", want: Pass, opts: Options{MaxBodyBytes: 64 << 20, RequestTimeout: time.Minute, Timeout: 2 * time.Minute}},
		{name: "JSON nested 100000 deep", edit: replace("/.well-known/agents.json", &doc{ctype: "application/json", body: strings.Repeat("[", 100000) + strings.Repeat("]", 100000)}), id: "capability_manifest", want: Pass},
		{name: "JSON-LD nested 100000 deep", edit: editBody("/pricing", "</head>", `<script type="application/ld+json">`+strings.Repeat(`{"a":`, 100000)+"1"+strings.Repeat("}", 100000)+`</script></head>`), id: "structured_identity", want: Partial},
		{name: "infinite redirect", edit: replace("/llms.txt", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/llms.txt", http.StatusFound)
		}}), id: "llms_txt", want: CouldNotCheck, error: "redirect loop"},
		{name: "redirect chain that never lands", edit: replace("/llms.txt", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
			n, _ := strconv.Atoi(r.URL.Query().Get("n"))
			http.Redirect(w, r, fmt.Sprintf("/llms.txt?n=%d", n+1), http.StatusFound)
		}}), id: "llms_txt", want: CouldNotCheck, error: "too many redirects"},
		{name: "slow-loris body", edit: replace("/llms.txt", &doc{handler: slowLoris}), id: "llms_txt", want: CouldNotCheck, error: "timeout", opts: Options{RequestTimeout: 300 * time.Millisecond}},
		{name: "garbage bytes", edit: replace("/.well-known/security.txt", &doc{ctype: "text/plain", body: "\x00\xff\xfe garbage \x1b[31m"}), id: "security_contact", want: Fail},
		{name: "garbage HTML", edit: replace("/", &doc{ctype: "text/html", body: "<html lang=\"en\"><<<>>><main><div<div" + strings.Repeat("<div>", 100000) + "\x00"}), id: "language_declared", want: Pass},
		{name: "garbage HTML has no main text", edit: replace("/", &doc{ctype: "text/html", body: "<html lang=\"en\"><<<>>><main><div<div" + strings.Repeat("<div>", 100000) + "\x00"}), id: "content_in_initial_html", want: Partial},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := agentReadySite(t)
			tc.edit(s)
			r := scanHandler(t, s, tc.opts)
			c := r.checkByID(tc.id)
			if c.Verdict != tc.want {
				t.Fatalf("%s = %s, want %s\n%s", tc.id, c.Verdict, tc.want, receiptText(*c))
			}
			if c.Receipt.Expected == "" {
				t.Error("no receipt")
			}
			if tc.error != "" && !strings.Contains(c.Missing, tc.error) {
				t.Errorf("missing %q does not say %q", c.Missing, tc.error)
			}
		})
	}
}

// xmlBomb is the billion-laughs document: encoding/xml never expands
// custom entities, so it fails to parse instead of exploding.
const xmlBomb = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<urlset><url><loc>&lol3;</loc></url></urlset>`

// millionURLs streams a sitemap of a million locs (about 48 MB).
func millionURLs(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/xml")
	io.WriteString(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	loc := "http://" + r.Host + "/p/"
	for i := range 1000000 {
		if _, err := fmt.Fprintf(w, "<url><loc>%s%d</loc></url>", loc, i); err != nil {
			return
		}
	}
	io.WriteString(w, "</urlset>")
}

// slowLoris sends headers then one byte every 100ms, forever (until the
// client gives up).
func slowLoris(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(200)
	for {
		if _, err := w.Write([]byte("x")); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// TestUnreachableHome: a refused connection, a TLS error, a redirect loop
// and a timeout on the home page end the scan with an error and a report of
// COULD_NOT_CHECK receipts.
func TestUnreachableHome(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/"
	ln.Close()
	tlsSrv := httptest.NewTLSServer(http.NotFoundHandler())
	defer tlsSrv.Close()
	loop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/", http.StatusFound) }))
	defer loop.Close()
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer hang.Close()
	tests := []struct{ name, url, kind string }{
		{"refused", refused, "connection refused"},
		{"TLS error", tlsSrv.URL, "TLS error"},
		{"redirect loop", loop.URL, "redirect loop"},
		{"hang", hang.URL, "timeout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Scan(context.Background(), tc.url, Options{RequestTimeout: 300 * time.Millisecond, Now: func() time.Time { return fixedNow }})
			if err == nil || !strings.Contains(err.Error(), tc.kind) {
				t.Fatalf("err = %v, want one naming %q", err, tc.kind)
			}
			if r == nil || len(r.Checks) != 35 || len(r.CouldNotCheck) != 27 || r.Score != 0 {
				t.Fatalf("report = %+v, want 35 checks, 27 could not check", r)
			}
			if !strings.Contains(r.Checks[0].Missing, tc.kind) || r.Checks[0].Receipt.Request == nil {
				t.Errorf("receipt %+v does not name %q", r.Checks[0].Receipt, tc.kind)
			}
		})
	}
}

// TestSameOriginOnly: requests and redirects leaving the origin are refused.
func TestSameOriginOnly(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request left the origin: %s", r.URL)
	}))
	defer other.Close()
	s := agentReadySite(t)
	s.set("/llms.txt", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/llms.txt", http.StatusFound)
	}})
	s.set("/sitemap.xml", &doc{ctype: "application/xml", body: `<urlset><url><loc>` + other.URL + `/x</loc></url></urlset>`})
	r := scanHandler(t, s, Options{SameOriginOnly: true})
	if c := r.checkByID("llms_txt"); c.Verdict != CouldNotCheck || !strings.Contains(c.Missing, "origin") {
		t.Errorf("llms_txt = %s (%s), want COULD_NOT_CHECK naming the origin", c.Verdict, c.Missing)
	}
	if len(r.Routes) != 1 {
		t.Errorf("routes %v include a foreign page", r.Routes)
	}
}

// TestScanTimeoutBoundsTheScan: a site that hangs on every resource but the
// home page is cut off by the scan timeout.
func TestScanTimeoutBoundsTheScan(t *testing.T) {
	s := bareSite()
	s.fallback = &doc{handler: func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }}
	start := time.Now()
	r := scanHandler(t, s, Options{Timeout: time.Second, RequestTimeout: time.Minute})
	if time.Since(start) > 30*time.Second {
		t.Errorf("scan took %v despite a 1s timeout", time.Since(start))
	}
	if c := r.checkByID("llms_txt"); c.Verdict != CouldNotCheck {
		t.Errorf("llms_txt = %s, want COULD_NOT_CHECK", c.Verdict)
	}
}

// TestHostileMemoryBounded: scanning a site full of oversized answers keeps
// the heap far below the sum of the bodies served.
func TestHostileMemoryBounded(t *testing.T) {
	big := &doc{handler: func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		chunk := []byte(strings.Repeat("<div>", 1<<14))
		for range 1 << 10 { // 80 MiB
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}}
	s := bareSite()
	s.fallback = big
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	scanHandler(t, s, Options{})
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 64<<20 {
		t.Errorf("heap grew %d MiB", grew>>20)
	}
}
