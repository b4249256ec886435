package caddymodule

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// What goes to a browser on the wire (issue 23, holes 7 and 10): the
// annotations land only where a rewrite of the page's own bytes puts them,
// and the page never gets bigger than the origin sent it.

// TestSecurityPlanNeverInsertsIntoScript: an origin that names two
// variants of a page the same (one strong ETag, one length; here by
// cookie) gets no markup inserted into a script by the plan of the other.
// Variant b has a's "</title></head>" at the same offset, and the 8 bytes
// before it, inside a JavaScript string: the plan recorded on a used to
// insert the Markdown link and the JSON-LD there. Now the replay checks a
// hash of every byte before the insertion, b passes untouched (its length
// made up with spaces) and is counted as plan_mismatch, and the next copy
// of b is read and annotated at its real head's end.
func TestSecurityPlanNeverInsertsIntoScript(t *testing.T) {
	const pa = "<!DOCTYPE html><html><head><title>"
	const pb = "<!DOCTYPE html><html><head><script>var s=\"<title>"
	tail := "</title></head><body>" + strings.Repeat("<p>text</p>", 50) + "</body></html>\";</script></head><body><p>b</p></body></html>"
	a := pa + strings.Repeat("x", len(pb)-len(pa)) + tail
	b := pb + tail
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := a
		if c, err := r.Cookie("variant"); err == nil && c.Value == "b" {
			body = b
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("ETag", `"same"`)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(origin.Close)
	base, _ := runCaddy(t, agentReadySite(proxyTo(origin.URL)))
	const link = `<link rel="alternate" type="text/markdown"`

	if _, got := get(t, "GET", base+"/page", "Accept", acceptBrowser); !strings.Contains(got, "</title>"+link) {
		t.Fatalf("variant a is not annotated at its head's end: %.300q", got)
	}
	mismatches := counterValue(t, metrics.failOpen.WithLabelValues("plan_mismatch"))
	resp, got := get(t, "GET", base+"/page", "Accept", acceptBrowser, "Cookie", "variant=b")
	if strings.TrimRight(got, " ") != b {
		t.Errorf("variant b through a's plan:\n%.300q\nwant b untouched", got)
	}
	if resp.Header.Get("Content-Length") != strconv.Itoa(len(got)) {
		t.Errorf("Content-Length %q for %d bytes", resp.Header.Get("Content-Length"), len(got))
	}
	if n := counterValue(t, metrics.failOpen.WithLabelValues("plan_mismatch")) - mismatches; n != 1 {
		t.Errorf("%v plan mismatches counted, want 1", n)
	}
	_, got = get(t, "GET", base+"/page", "Accept", acceptBrowser, "Cookie", "variant=b")
	script := b[len(pb)-len("<title>") : strings.Index(b, "</script>")]
	if !strings.Contains(got, script) || !strings.Contains(got, "</script>"+link) {
		t.Errorf("the next copy of b is not annotated where its own rewrite puts it:\n%.400q", got)
	}
	if bytes.Count([]byte(got), []byte(link)) != 1 {
		t.Errorf("%d Markdown links in b", bytes.Count([]byte(got), []byte(link)))
	}
}

// wirePage is an HTML page of about n bytes, its paragraphs repeating with
// variations, as a catalog or an article list.
func wirePage(n int) []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Catalog</title></head>\n<body><main>\n")
	words := []string{"blue", "large", "steel", "wooden", "quiet"}
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "<p>Item %d: the %s widget ships in %d days from store %d.</p>\n", i, words[i%5], i%9+1, i*7%31)
	}
	b.WriteString("</main></body></html>\n")
	return []byte(b.String())
}

// compressAs encodes page in coding at the level of a server that
// compresses on the fly: gzip 6 (Go's and nginx's usual), brotli 4 (a
// CDN's), zstd's default (Caddy's encode).
func compressAs(t *testing.T, page []byte, coding string) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "br":
		w = brotli.NewWriterLevel(&buf, 4)
	case "zstd":
		w, _ = zstd.NewWriter(&buf)
	}
	w.Write(page)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// decodeAs undoes coding.
func decodeAs(t *testing.T, body []byte, coding string) string {
	t.Helper()
	var r io.Reader
	var err error
	switch coding {
	case "gzip":
		r, err = gzip.NewReader(bytes.NewReader(body))
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	case "zstd":
		var d *zstd.Decoder
		d, err = zstd.NewReader(bytes.NewReader(body))
		if err == nil {
			defer d.Close()
			r = d
		}
	}
	if err != nil {
		t.Fatalf("%s: %v", coding, err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", coding, err)
	}
	return string(out)
}

// TestSecurityBrowserNeverGetsMoreBytes: with zero configuration in front
// of an origin that compresses (and no encode in the site block), a
// browser gets each HTML page in the origin's coding, annotated, and never
// in more bytes than the origin sent: gzip, br and zstd, with and without
// a Content-Length. A page the origin compressed harder than the module
// would, a page over 256 KiB compressed or over max_size decoded and a
// broken gzip body go out as the origin sent them. HEAD and 304 keep the coding and end.
func TestSecurityBrowserNeverGetsMoreBytes(t *testing.T) {
	page := wirePage(120 << 10)
	bodies := map[string][]byte{}
	for _, c := range []string{"gzip", "br", "zstd"} {
		bodies[c] = compressAs(t, page, c)
	}
	var hard bytes.Buffer
	bw := brotli.NewWriterLevel(&hard, 11)
	bw.Write(page)
	bw.Close()
	bodies["br-hard"] = hard.Bytes()
	bodies["gzip-large"] = compressAs(t, noisyHTML(900<<10), "gzip")
	bodies["gzip-3m"] = compressAs(t, wirePage(3<<20), "gzip") // over max_size decoded
	t.Logf("the page: %d bytes; the 3 MB page: %d bytes, %d of gzip", len(page), 3<<20, len(bodies["gzip-3m"]))
	bodies["gzip-broken"] = []byte("\x1f\x8b\x08\x00garbage that is not deflate")
	if n := len(bodies["gzip-large"]); n <= 256<<10 {
		t.Fatalf("the large page compresses to %d bytes", n)
	}
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// /<coding>[-variant] with a Content-Length; /chunked/… without.
		path := strings.TrimPrefix(r.URL.Path, "/")
		path, chunked := strings.CutPrefix(path, "chunked/")
		body, ok := bodies[path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Encoding", strings.Split(path, "-")[0])
		h.Set("Vary", "Accept-Encoding")
		h.Set("Etag", `"`+path+`"`)
		if strings.Contains(r.Header.Get("If-None-Match"), `"`+path+`"`) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		if !chunked {
			h.Set("Content-Length", strconv.Itoa(len(body)))
		}
		if r.Method == http.MethodHead {
			return
		}
		for p := body; len(p) > 0; p = p[min(len(p), 16<<10):] {
			if _, err := w.Write(p[:min(len(p), 16<<10)]); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(origin.Close)
	base, _ := runCaddy(t, agentReadySite(proxyTo(origin.URL)))
	const link = `<link rel="alternate" type="text/markdown"`
	const accept = "gzip, deflate, br, zstd"

	for _, tc := range []struct {
		path      string
		annotated bool
	}{
		{"/gzip", true}, {"/br", true}, {"/zstd", true},
		{"/chunked/gzip", true}, {"/chunked/br", true}, {"/chunked/zstd", true},
		{"/br-hard", false}, {"/gzip-large", false}, {"/chunked/gzip-large", false},
		{"/gzip-3m", false}, {"/gzip-broken", false}, {"/chunked/gzip-broken", false},
	} {
		t.Run(tc.path, func(t *testing.T) {
			name := tc.path[strings.LastIndex(tc.path, "/")+1:]
			coding := strings.Split(name, "-")[0]
			origBytes := bodies[name]
			resp, body := get(t, "GET", base+tc.path, "Accept", acceptBrowser, "Accept-Encoding", accept)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != coding {
				t.Fatalf("status %d, Content-Encoding %q; want 200 in %s", resp.StatusCode, resp.Header.Get("Content-Encoding"), coding)
			}
			t.Logf("%s: %d bytes on the wire, the origin sent %d", tc.path, len(body), len(origBytes))
			if len(body) > len(origBytes) {
				t.Errorf("%d bytes on the wire, the origin sent %d", len(body), len(origBytes))
			}
			if cl := resp.Header.Get("Content-Length"); cl != "" && cl != strconv.Itoa(len(body)) {
				t.Errorf("Content-Length %q for %d bytes", cl, len(body))
			}
			if !tc.annotated {
				if body != string(origBytes) {
					t.Errorf("%d bytes, want the origin's %d untouched", len(body), len(origBytes))
				}
				return
			}
			// Decoded: the page, with the annotations before its </head>.
			head := bytes.Index(page, []byte("</head>"))
			got := decodeAs(t, []byte(body), coding)
			if !strings.HasPrefix(got, string(page[:head])) || !strings.HasSuffix(got, string(page[head:])) ||
				!strings.Contains(got[head:len(got)-len(page)+head], link) {
				t.Errorf("decodes to %d bytes, not the page annotated in its head: %.300q", len(got), got)
			}
		})
	}

	t.Run("HEAD", func(t *testing.T) {
		resp, body := get(t, "HEAD", base+"/gzip", "Accept", acceptBrowser, "Accept-Encoding", accept)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || body != "" {
			t.Errorf("status %d, Content-Encoding %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Encoding"), len(body))
		}
	})
	t.Run("304", func(t *testing.T) {
		resp, body := get(t, "GET", base+"/gzip", "Accept", acceptBrowser, "Accept-Encoding", accept, "If-None-Match", `W/"gzip"`)
		if resp.StatusCode != http.StatusNotModified || body != "" {
			t.Errorf("status %d, %d bytes", resp.StatusCode, len(body))
		}
	})
}

// noisyHTML is an HTML page of about n bytes of seeded pseudo-random
// letters: it compresses to about two thirds.
func noisyHTML(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	p := []byte("<!DOCTYPE html>\n<html><head><title>Noise</title></head>\n<body><main>")
	for len(p) < n {
		p = append(p, "<p>"...)
		for range 60 {
			p = append(p, "abcdefghijklmnopqrstuvwxyz     "[rng.IntN(31)])
		}
		p = append(p, "</p>\n"...)
	}
	return append(p, "</main></body></html>\n"...)
}
