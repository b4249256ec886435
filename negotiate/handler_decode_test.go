package negotiate

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// outcome is what the client gets for a page the origin compressed.
type outcome int

const (
	decoded outcome = iota // the page, decoded: converted or annotated
	origin                 // the origin's bytes and headers, untouched
	kept                   // the page annotated in the origin's coding, or the origin's bytes when that is larger
)

func (o outcome) String() string { return [...]string{"decoded", "origin", "kept"}[o] }

// noisyPage is an HTML page of about n bytes whose text (seeded
// pseudo-random letters) compresses to about two thirds: its compressed
// form is long, so a fault in its middle comes after the first decoded
// bytes went out.
func noisyPage(n int) []byte {
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

// codedOrigin serves body as an HTML page in the given content coding, in
// chunks of 16 KiB, each flushed; with a Content-Length when length is set,
// else chunked.
func codedOrigin(body []byte, coding string, length bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Encoding", coding)
		h.Set("Etag", `"v1"`)
		if length {
			h.Set("Content-Length", strconv.Itoa(len(body)))
		}
		for p := body; len(p) > 0; {
			n := min(len(p), 16<<10)
			if _, err := w.Write(p[:n]); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			p = p[n:]
		}
	}
}

// flip returns b with the byte at i inverted.
func flip(b []byte, i int) []byte {
	b = bytes.Clone(b)
	b[i] ^= 0xff
	return b
}

// fetchPricing gets /pricing and returns what the client saw, transport
// errors included (a broken transfer is an expected outcome here).
func fetchPricing(t *testing.T, s *stack, accept string) (*http.Response, []byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.front.URL+"/pricing", nil)
	req.Header.Set("Accept", accept)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
	resp, err := testClient.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

// TestHandlerDecodeFailures: a compressed page that cannot be decoded in
// full (a zstd window over the maximum, a decompression bomb, a corrupt or
// truncated stream) is never cut short or emptied: the origin's bytes go
// out untouched with their headers, the reason reported. A healthy one
// goes to a browser annotated in its own coding, never larger than the
// origin's bytes (else as the origin sent it: rewrite_larger).
func TestHandlerDecodeFailures(t *testing.T) {
	const link = `<link rel="alternate" type="text/markdown" href="/pricing/md">`
	noisy := noisyPage(200 << 10)
	long := repetitive(300 << 10) // longer than a zstd block: framed with its window
	bomb := repetitive(4 << 20)   // past the 2 MiB bound that MaxSize 64 KiB sets
	small := Options{MaxSize: 64 << 10}
	gz := encode(t, noisy, "gzip")
	zs := encode(t, noisy, "zstd")
	zl := encode(t, noisy, "deflate")
	br := encode(t, noisy, "br")
	raw := encode(t, noisy, "rawdeflate")
	if len(gz) > maxPlannedPage || len(gz) < 64<<10 {
		t.Fatalf("noisy page compresses to %d bytes: not the case under test", len(gz))
	}

	type input struct {
		name   string
		body   []byte
		coding string
		page   []byte // the decoded page; nil when it does not decode
		opts   Options
	}
	inputs := []input{
		{"zstd window at the 8 MiB maximum", zstdWindow(t, long, maxZstdWindow), "zstd", long, Options{}},
		{"zstd window 16 MiB", zstdWindow(t, long, 16<<20), "zstd", nil, Options{}},
		{"zstd window 128 MiB (--long=27)", zstdLongWindow(t, long, 27), "zstd", nil, Options{}},
		{"gzip bomb", encode(t, bomb, "gzip"), "gzip", nil, small},
		{"br bomb", encode(t, bomb, "br"), "br", nil, small},
		{"zstd bomb", zstdWindow(t, bomb, 1<<20), "zstd", nil, small},
		{"deflate bomb", encode(t, bomb, "deflate"), "deflate", nil, small},
		{"gzip magic corrupt", flip(gz, 0), "gzip", nil, Options{}},
		{"gzip corrupt in the middle", flip(gz, len(gz)/2), "gzip", nil, Options{}},
		{"gzip truncated", cut(gz), "gzip", nil, Options{}},
		{"gzip checksum wrong", flip(gz, len(gz)-5), "gzip", nil, Options{}},
		{"zstd magic corrupt", flip(zs, 0), "zstd", nil, Options{}},
		{"zstd corrupt in the middle", flip(zs, len(zs)/2), "zstd", nil, Options{}},
		{"zstd truncated", cut(zs), "zstd", nil, Options{}},
		{"deflate corrupt in the middle", flip(zl, len(zl)/2), "deflate", nil, Options{}},
		{"deflate truncated", cut(zl), "deflate", nil, Options{}},
		{"raw deflate truncated", cut(raw), "deflate", nil, Options{}},
		{"br truncated", cut(br), "br", nil, Options{}},
		{"gzip, healthy", gz, "gzip", noisy, Options{}},
		{"br, healthy", br, "br", noisy, Options{}},
	}
	type form struct {
		name   string
		accept string
		length bool
	}
	forms := []form{
		{"markdown, length known", agentAccept, true},
		{"markdown, streamed", agentAccept, false},
		{"html, length known", browserAccept, true},
		{"html, streamed", browserAccept, false},
	}
	for _, in := range inputs {
		for _, f := range forms {
			t.Run(in.name+"/"+f.name, func(t *testing.T) {
				want, reason := decoded, ""
				markdown := f.accept == agentAccept
				switch {
				case !markdown && in.page != nil:
					want = kept
				case !markdown && strings.Contains(in.name, "bomb"):
					want, reason = origin, "rewrite_size"
				case in.page != nil:
				case markdown && strings.Contains(in.name, "bomb"):
					want, reason = origin, "too_large"
				case markdown:
					want, reason = origin, "decode"
				default:
					want, reason = origin, "rewrite_decode"
				}
				s := newStack(t, stackConfig{opts: in.opts, origin: codedOrigin(in.body, in.coding, f.length)})
				resp, body, err := fetchPricing(t, s, f.accept)
				t.Logf("want %s; client saw %d bytes, error %v", want, len(body), err)
				if want == kept && bytes.Equal(body, in.body) {
					want, reason = origin, "rewrite_larger"
				}
				switch want {
				case kept:
					if err != nil {
						t.Fatal(err)
					}
					page, derr := Decode(bytes.NewReader(body), in.coding, 8<<20)
					wantPage := strings.Replace(string(in.page), "</head>", link+"</head>", 1)
					if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != in.coding || derr != nil || string(page) != wantPage {
						t.Fatalf("status %d, Content-Encoding %q, decodes to %d bytes (%v); want the %d annotated bytes in %s",
							resp.StatusCode, resp.Header.Get("Content-Encoding"), len(page), derr, len(wantPage), in.coding)
					}
					if len(body) > len(in.body) || resp.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
						t.Errorf("%d bytes (Content-Length %q) for the origin's %d", len(body), resp.Header.Get("Content-Length"), len(in.body))
					}
				case origin:
					if err != nil {
						t.Fatalf("want the origin's response, got %v", err)
					}
					if resp.StatusCode != 200 || !bytes.Equal(body, in.body) {
						t.Fatalf("status %d, %d bytes; want 200 and the origin's %d bytes", resp.StatusCode, len(body), len(in.body))
					}
					for k, v := range map[string]string{"Content-Encoding": in.coding, "Etag": `"v1"`, "Content-Type": "text/html; charset=utf-8"} {
						if got := resp.Header.Get(k); got != v {
							t.Errorf("%s = %q, want the origin's %q", k, got, v)
						}
					}
					if cl := resp.Header.Get("Content-Length"); (f.length || cl != "") && cl != strconv.Itoa(len(in.body)) {
						t.Errorf("Content-Length = %q for %d bytes", cl, len(in.body))
					}
					if !hasToken(resp.Header.Values("Vary"), "Accept") {
						t.Errorf("Vary = %q", resp.Header.Values("Vary"))
					}
				case decoded:
					if err != nil {
						t.Fatal(err)
					}
					wantBody := strings.Replace(string(in.page), "</head>", link+"</head>", 1)
					if markdown {
						wantBody = testMarkdown
						if calls := s.conv.called(); len(calls) != 1 || calls[0].html != string(in.page) {
							t.Errorf("the converter was not given the decoded page")
						}
					}
					if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "" || string(body) != wantBody {
						t.Fatalf("status %d, Content-Encoding %q, %d bytes; want the %d decoded bytes",
							resp.StatusCode, resp.Header.Get("Content-Encoding"), len(body), len(wantBody))
					}
				}
				events := s.obs.list()
				var failed []string
				for _, e := range events {
					if r, ok := strings.CutPrefix(e, "failopen:"); ok {
						failed = append(failed, r)
					}
				}
				if reason == "" && len(failed) > 0 || reason != "" && !slices.Equal(failed, []string{reason}) {
					t.Errorf("fail-open reasons %q, want %q", failed, reason)
				}
			})
		}
	}
}

// TestHandlerEncodedHTMLPassesWhole: a compressed page of unknown length
// is held up to maxPlannedPage bytes before anything goes out, so one that
// turns out corrupt at its end (its CRC) goes out whole as the origin sent
// it (rewrite_decode), and one longer than that passes as it came, with
// its coding (rewrite_size): never decoded on the way, never cut short.
func TestHandlerEncodedHTMLPassesWhole(t *testing.T) {
	corrupt := encode(t, []byte(strings.Repeat(testPage, 50)), "gzip")
	corrupt[len(corrupt)-5] ^= 0xff // the CRC: detected once everything was read
	large := encode(t, noisyPage(600<<10), "gzip")
	if len(large) <= maxPlannedPage {
		t.Fatalf("the large page compresses to %d bytes", len(large))
	}
	for _, tc := range []struct {
		name   string
		body   []byte
		reason string
	}{{"corrupt", corrupt, "rewrite_decode"}, {"large", large, "rewrite_size"}} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStack(t, stackConfig{origin: codedOrigin(tc.body, "gzip", false)})
			resp, body, err := fetchPricing(t, s, browserAccept)
			if err != nil || resp.StatusCode != 200 || !bytes.Equal(body, tc.body) || resp.Header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("%v, %d bytes; want the origin's %d gzip bytes", err, len(body), len(tc.body))
			}
			if ev := s.obs.list(); !slices.Contains(ev, "failopen:"+tc.reason) {
				t.Errorf("events %v, want failopen:%s", ev, tc.reason)
			}
		})
	}
}
