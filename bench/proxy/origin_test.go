package main

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// testOrigin is an origin with the demo site and small generated pages.
func testOrigin(t *testing.T) *origin {
	t.Helper()
	o, err := newOrigin(originConfig{Site: "../../examples/site", Big: 5000, Huge: 20000, Bomb: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestOriginServes(t *testing.T) {
	o := testOrigin(t)
	tests := []struct {
		name, method, path, inm string
		wantStatus              int
		wantType, wantEncoding  string
		wantLen                 int // -1: do not check
	}{
		{"page by try_files .html", "GET", "/pricing", "", 200, "text/html; charset=utf-8", "", -1},
		{"index", "GET", "/", "", 200, "text/html; charset=utf-8", "", -1},
		{"query ignored", "GET", "/pricing?n=42", "", 200, "text/html; charset=utf-8", "", -1},
		{"big page", "GET", bigPath, "", 200, "text/html; charset=utf-8", "", 5000},
		{"huge page", "GET", hugePath, "", 200, "text/html; charset=utf-8", "", 20000},
		{"1 KiB page", "GET", "/size/1k.html", "", 200, "text/html; charset=utf-8", "", 1024},
		{"60 KiB page", "GET", "/size/60k.html", "", 200, "text/html; charset=utf-8", "", 60 << 10},
		{"1 MiB page", "GET", "/size/1m.html", "", 200, "text/html; charset=utf-8", "", 1 << 20},
		{"chunked 1 MiB page", "GET", "/chunked/size/1m.html", "", 200, "text/html; charset=utf-8", "", 1 << 20},
		{"chunked demo page", "GET", "/chunked/pricing", "", 200, "text/html; charset=utf-8", "", -1},
		{"chunked missing", "GET", "/chunked/nope", "", 404, "text/plain; charset=utf-8", "", -1},
		{"bomb is gzip whatever the request accepts", "GET", bombPath, "", 200, "text/html; charset=utf-8", "gzip", -1},
		{"HEAD has no body", "HEAD", bigPath, "", 200, "text/html; charset=utf-8", "", 0},
		{"missing", "GET", "/nope", "", 404, "text/plain; charset=utf-8", "", -1},
		{"POST refused", "POST", "/pricing", "", 405, "text/plain; charset=utf-8", "", -1},
		{"If-None-Match *", "GET", "/pricing", "*", 304, "", "", 0},
		{"If-None-Match other", "GET", "/pricing", `"nope"`, 200, "text/html; charset=utf-8", "", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.path, nil)
			if tt.inm != "" {
				req.Header.Set("If-None-Match", tt.inm)
			}
			rec := httptest.NewRecorder()
			o.ServeHTTP(rec, req)
			if rec.Code != tt.wantStatus {
				t.Fatalf("status %d, want %d", rec.Code, tt.wantStatus)
			}
			if tt.wantType != "" && rec.Header().Get("Content-Type") != tt.wantType {
				t.Errorf("Content-Type %q, want %q", rec.Header().Get("Content-Type"), tt.wantType)
			}
			if got := rec.Header().Get("Content-Encoding"); got != tt.wantEncoding {
				t.Errorf("Content-Encoding %q, want %q", got, tt.wantEncoding)
			}
			if tt.wantLen >= 0 && rec.Body.Len() != tt.wantLen {
				t.Errorf("body %d bytes, want %d", rec.Body.Len(), tt.wantLen)
			}
		})
	}
}

// TestOriginRevalidation: the ETag of a 200 gets a 304 with the same ETag
// (RFC 9110 §13.1.2, §15.4.5), a weak form of it too (weak comparison).
func TestOriginRevalidation(t *testing.T) {
	o := testOrigin(t)
	rec := httptest.NewRecorder()
	o.ServeHTTP(rec, httptest.NewRequest("GET", "/docs/getting-started", nil))
	etag := rec.Header().Get("ETag")
	if rec.Code != 200 || !strings.HasPrefix(etag, `"`) {
		t.Fatalf("status %d, ETag %q: want 200 with a strong ETag", rec.Code, etag)
	}
	for _, inm := range []string{etag, "W/" + etag, `"x", ` + etag} {
		req := httptest.NewRequest("GET", "/docs/getting-started", nil)
		req.Header.Set("If-None-Match", inm)
		rec := httptest.NewRecorder()
		o.ServeHTTP(rec, req)
		if rec.Code != http.StatusNotModified || rec.Header().Get("ETag") != etag || rec.Body.Len() != 0 {
			t.Errorf("If-None-Match %s: status %d, ETag %q, %d bytes; want an empty 304 with %s",
				inm, rec.Code, rec.Header().Get("ETag"), rec.Body.Len(), etag)
		}
	}
}

// TestOriginChunked: a /chunked/ page goes out without Content-Length or
// validators, as a dynamic origin's would, so a client reads it chunked.
func TestOriginChunked(t *testing.T) {
	srv := httptest.NewServer(testOrigin(t))
	defer srv.Close()
	for _, p := range []string{"/size/1k.html", "/size/60k.html"} {
		plain, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := io.ReadAll(plain.Body)
		plain.Body.Close()
		resp, err := http.Get(srv.URL + "/chunked" + p)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.ContentLength != -1 || len(resp.TransferEncoding) == 0 || resp.TransferEncoding[0] != "chunked" {
			t.Errorf("%s: Content-Length %d, Transfer-Encoding %v; want chunked without a length", p, resp.ContentLength, resp.TransferEncoding)
		}
		if resp.Header.Get("ETag") != "" {
			t.Errorf("%s: ETag %q on the chunked form", p, resp.Header.Get("ETag"))
		}
		if string(got) != string(want) {
			t.Errorf("%s: chunked body of %d bytes differs from the page (%d bytes)", p, len(got), len(want))
		}
	}
}

func TestBombInflates(t *testing.T) {
	const size = 3<<20 + 17
	bomb, err := gzipBomb(size)
	if err != nil {
		t.Fatal(err)
	}
	if len(bomb) > size/100 {
		t.Errorf("bomb is %d bytes for %d inflated: want over 100:1", len(bomb), size)
	}
	zr, err := gzip.NewReader(strings.NewReader(string(bomb)))
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, zr)
	if err != nil || n != size {
		t.Errorf("inflated to %d bytes (err %v), want %d", n, err, size)
	}
}

func TestArticlePageSize(t *testing.T) {
	for _, size := range []int{1000, 4097, 65536, 2_000_000} {
		p := articlePage("t", size)
		if len(p) != size {
			t.Errorf("articlePage(%d) is %d bytes", size, len(p))
		}
		if !strings.HasSuffix(string(p), "</html>\n") || !strings.Contains(string(p), "<main>") {
			t.Errorf("articlePage(%d) is not a whole page", size)
		}
	}
}

func TestLoopbackOnly(t *testing.T) {
	for addr, ok := range map[string]bool{
		"127.0.0.1:80": true, "[::1]:8080": true, "localhost:1": true,
		"10.0.0.1:80": false, "example.com:80": false, ":80": false, "nope": false,
	} {
		if err := loopbackOnly(addr); (err == nil) != ok {
			t.Errorf("loopbackOnly(%q) = %v, want ok %v", addr, err, ok)
		}
	}
}
