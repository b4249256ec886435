package negotiate

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// TestHandlerStreams checks that responses which are not converted are not
// buffered: the origin sends a first chunk and waits until the client has
// read it before sending the rest. A handler that buffered would never let
// the client see the first chunk, and the test fails at its deadline.
func TestHandlerStreams(t *testing.T) {
	const first = "<html><head><title>x</title></head><body><p>first</p>"
	for _, tc := range []struct {
		name        string
		opts        Options
		accept      string
		contentType string
		length      string // Content-Length the origin announces
		first       string // first chunk
		wantFirst   string // what the client must read before the origin goes on
	}{
		{"html pass-through", Options{HeadLink: Bool(false)}, browserAccept, "text/html", "", first, first},
		{"html through the rewriter", Options{}, browserAccept, "text/html", "", first,
			`<link rel="alternate" type="text/markdown" href="/pricing/md"></head><body><p>first</p>`},
		{"markdown asked, length over the cap known up front", Options{MaxSize: 1 << 20}, agentAccept, "text/html", "5000000", first, first},
		{"markdown asked, body grows over the cap", Options{MaxSize: 100}, agentAccept, "text/html", "", first + strings.Repeat("<p>more</p>", 20), "<p>more</p>"},
		{"markdown asked, event stream", Options{}, agentAccept, "text/event-stream", "", "data: first\n\n", "data: first\n\n"},
		{"markdown asked, non-html", Options{}, agentAccept, "application/json", "", `{"first":`, `{"first":`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			s := newStack(t, stackConfig{opts: tc.opts, origin: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tc.contentType)
				if tc.length != "" {
					w.Header().Set("Content-Length", tc.length)
				}
				io.WriteString(w, tc.first)
				w.(http.Flusher).Flush()
				select {
				case <-release:
				case <-r.Context().Done():
					return
				}
				if tc.length == "" {
					io.WriteString(w, "<p>rest</p>")
				} else {
					io.WriteString(w, strings.Repeat(" ", 5000000-len(tc.first)))
				}
			}})
			all := readInTwoSteps(t, s, hdr("Accept", tc.accept), tc.wantFirst, release)
			if tc.length == "" && !strings.HasSuffix(all, "<p>rest</p>") {
				t.Errorf("body ends %q", all[max(0, len(all)-40):])
			}
		})
	}
}

// TestHandlerEventStreamHeadersFlush: an event stream that flushes its
// headers before any event reaches the client at once, even when the client
// asked for Markdown.
func TestHandlerEventStreamHeadersFlush(t *testing.T) {
	release := make(chan struct{})
	s := newStack(t, stackConfig{next: func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", "text/event-stream")
		if err := http.NewResponseController(w).Flush(); err != nil {
			return err
		}
		<-release
		_, err := io.WriteString(w, "data: 1\n\n")
		return err
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.front.URL+"/events", nil)
	req.Header.Set("Accept", "text/markdown")
	resp, err := testClient.Do(req)
	close(release)
	if err != nil {
		t.Fatalf("headers did not arrive before the first event: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.Header.Get("Content-Type") != "text/event-stream" || string(body) != "data: 1\n\n" {
		t.Errorf("got %q %q", resp.Header.Get("Content-Type"), body)
	}
}

// TestHandlerWebSocketUntouched: an upgrade request reaches next with the
// client's own ResponseWriter, so it can hijack the connection.
func TestHandlerWebSocketUntouched(t *testing.T) {
	s := newStack(t, stackConfig{next: func(w http.ResponseWriter, r *http.Request) error {
		conn, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return err
		}
		defer conn.Close()
		brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
		brw.Flush()
		line, _ := brw.ReadString('\n')
		conn.Write([]byte("echo: " + line))
		return nil
	}})
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.front.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(conn, "GET /chat HTTP/1.1\r\nHost: x\r\nAccept: text/markdown\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"+
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Vary") != "" {
		t.Fatalf("status %d, Vary %q", resp.StatusCode, resp.Header.Get("Vary"))
	}
	io.WriteString(conn, "ping\n")
	if line, _ := br.ReadString('\n'); line != "echo: ping\n" {
		t.Errorf("after the upgrade got %q", line)
	}
}

// catalogPage is an HTML page of about n bytes whose paragraphs repeat
// with variations: a fast compression level leaves much to gain on it.
func catalogPage(n int) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><title>Catalog</title></head>\n<body><main>")
	words := []string{"blue", "large", "steel", "wooden", "quiet"}
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "<p>Item %d: the %s widget ships in %d days from store %d.</p>\n", i, words[i%5], i%9+1, i*7%31)
	}
	b.WriteString("</main></body></html>\n")
	return b.String()
}

// encodeFast encodes data in coding at a fast level, as an origin that
// compresses on the fly may: the fastest, zstd's default (Caddy's encode).
func encodeFast(t testing.TB, data []byte, coding string) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w, _ = gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	case "deflate":
		w, _ = zlib.NewWriterLevel(&buf, zlib.BestSpeed)
	case "br":
		w = brotli.NewWriterLevel(&buf, 1)
	case "zstd":
		w, _ = zstd.NewWriter(&buf, zstd.WithEncoderLevel(zstd.SpeedDefault))
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestHandlerRewritesEncodedHTML: an HTML page the origin compressed is
// annotated in its own coding, with its exact length and never larger
// than the origin's bytes, and the next copy of the same bytes from what
// the first became; where the annotated page would encode larger (a tiny
// page, compressed as hard), the origin's bytes go out as they came.
// Codings the rewriter cannot undo pass untouched.
func TestHandlerRewritesEncodedHTML(t *testing.T) {
	const link = `<link rel="alternate" type="text/markdown" href="/pricing/md">`
	page := catalogPage(40 << 10)
	annotated := strings.Replace(page, "</head>", link+"</head>", 1)
	tiny := encode(t, []byte(testPage), "gzip")
	stacked := encode(t, []byte(testPage), "gzip", "br")
	for _, tc := range []struct {
		name, encoding string
		body           []byte
		wantEncoding   string
		wantPage       string // the body decoded; "" for the origin's bytes
	}{
		{"gzip", "gzip", encodeFast(t, []byte(page), "gzip"), "gzip", annotated},
		{"br", "br", encodeFast(t, []byte(page), "br"), "br", annotated},
		{"zstd", "zstd", encodeFast(t, []byte(page), "zstd"), "zstd", annotated},
		{"deflate zlib", "deflate", encodeFast(t, []byte(page), "deflate"), "deflate", annotated},
		{"deflate raw", "deflate", encode(t, []byte(page), "rawdeflate"), "deflate", annotated},
		{"larger annotated", "gzip", tiny, "gzip", ""},
		{"stacked codings untouched", "gzip, br", stacked, "gzip, br", ""},
		{"unknown coding untouched", "compress", []byte("LZW bytes"), "compress", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStack(t, stackConfig{origin: htmlOrigin(string(tc.body), "Content-Encoding", tc.encoding, "Etag", `"v1"`)})
			res := s.do(http.MethodGet, "/pricing", hdr("Accept", browserAccept, "Accept-Encoding", "gzip, br, zstd, deflate"))
			res.wantStatus(t, 200)
			res.wantHeader(t, "Content-Encoding", tc.wantEncoding)
			res.wantVary(t, true)
			if len(res.body) > len(tc.body) {
				t.Errorf("%d bytes on the wire, the origin sent %d", len(res.body), len(tc.body))
			}
			if tc.wantPage == "" {
				if !bytes.Equal(res.body, tc.body) {
					t.Errorf("body of %d bytes, want the origin's %d", len(res.body), len(tc.body))
				}
				res.wantHeader(t, "Etag", `"v1"`)
				return
			}
			got, err := Decode(bytes.NewReader(res.body), tc.wantEncoding, 1<<20)
			if err != nil || string(got) != tc.wantPage {
				t.Fatalf("decodes to %d bytes (%v), want the %d annotated", len(got), err, len(tc.wantPage))
			}
			res.wantHeader(t, "Etag", `W/"v1"`)
			res.wantHeader(t, "Content-Length", strconv.Itoa(len(res.body)))
			// The same bytes again: what they became is kept, not redone.
			again := s.do(http.MethodGet, "/pricing", hdr("Accept", browserAccept, "Accept-Encoding", "gzip, br, zstd, deflate"))
			if !bytes.Equal(again.body, res.body) || !slices.Contains(s.obs.list(), "rewrote:plan=true") {
				t.Errorf("the second copy: %d bytes (first %d), events %v", len(again.body), len(res.body), s.obs.list())
			}
		})
	}
}

// TestHandlerCorruptEncodedHTMLWhole: a compressed page of known length is
// decoded whole before anything goes out, so when it turns out corrupt the
// origin's bytes go out as they came, with their Content-Encoding and
// length, and without the annotations.
func TestHandlerCorruptEncodedHTMLWhole(t *testing.T) {
	gz := encode(t, []byte(strings.Repeat(testPage, 50)), "gzip")
	gz[len(gz)/2] ^= 0xff
	s := newStack(t, stackConfig{origin: htmlOrigin(string(gz), "Content-Encoding", "gzip", "Etag", `"v1"`)})
	res := s.do(http.MethodGet, "/pricing", hdr("Accept", browserAccept, "Accept-Encoding", "gzip"))
	res.wantStatus(t, 200)
	res.wantHeader(t, "Content-Encoding", "gzip")
	res.wantHeader(t, "Content-Length", strconv.Itoa(len(gz)))
	res.wantHeader(t, "Etag", `"v1"`)
	if !bytes.Equal(res.body, gz) {
		t.Errorf("body of %d bytes is not the origin's %d", len(res.body), len(gz))
	}
	if ev := s.obs.list(); !slices.Contains(ev, "failopen:rewrite_decode") {
		t.Errorf("events %v, want failopen:rewrite_decode", ev)
	}
}

// TestHandlerEncodedHTMLInflatingPastMaxSize: a small compressed page that
// decodes to more than max_size is not annotated: the origin's bytes go
// out as they came (rewrite_size).
func TestHandlerEncodedHTMLInflatingPastMaxSize(t *testing.T) {
	page := strings.Replace(testPage, "</body>", strings.Repeat("<p>the same words again</p>", 10000)+"</body>", 1)
	gz := encode(t, []byte(page), "gzip")
	if len(gz) > maxPlannedPage || len(page) <= 64<<10 {
		t.Fatalf("page of %d bytes, %d compressed: not the case under test", len(page), len(gz))
	}
	s := newStack(t, stackConfig{opts: Options{MaxSize: 64 << 10}, origin: htmlOrigin(string(gz), "Content-Encoding", "gzip")})
	res := s.do(http.MethodGet, "/pricing", hdr("Accept", browserAccept, "Accept-Encoding", "gzip"))
	res.wantStatus(t, 200)
	res.wantHeader(t, "Content-Encoding", "gzip")
	res.wantBody(t, string(gz))
	if ev := s.obs.list(); !slices.Contains(ev, "failopen:rewrite_size") {
		t.Errorf("events %v, want failopen:rewrite_size", ev)
	}
}

// TestHandlerHoldsEncodedHTML: a compressed page of unknown length is held
// until it ends (at most maxPlannedPage bytes) and then goes out annotated
// in its coding, with a length: never sent decoded.
func TestHandlerHoldsEncodedHTML(t *testing.T) {
	page := catalogPage(20 << 10)
	s := newStack(t, stackConfig{origin: func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
		half := len(page) / 2
		io.WriteString(zw, page[:half])
		zw.Flush()
		w.(http.Flusher).Flush()
		io.WriteString(zw, page[half:])
		zw.Close()
	}})
	res := s.do(http.MethodGet, "/pricing", hdr("Accept", browserAccept, "Accept-Encoding", "gzip"))
	res.wantStatus(t, 200)
	res.wantHeader(t, "Content-Encoding", "gzip")
	res.wantHeader(t, "Content-Length", strconv.Itoa(len(res.body)))
	got, err := Decode(bytes.NewReader(res.body), "gzip", 1<<20)
	if want := strings.Replace(page, "</head>", `<link rel="alternate" type="text/markdown" href="/pricing/md"></head>`, 1); err != nil || string(got) != want {
		t.Errorf("decodes to %d bytes (%v), want the %d annotated", len(got), err, len(want))
	}
}

// readInTwoSteps gets /pricing, reads the body until it holds first, then
// closes release (letting the origin go on) and reads the rest. It fails the
// test if first does not arrive while the origin waits.
func readInTwoSteps(t *testing.T, s *stack, header http.Header, first string, release chan struct{}) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.front.URL+"/pricing", nil)
	req.Header = header
	resp, err := testClient.Do(req)
	if err != nil {
		t.Fatalf("no response while the origin waits: %v", err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	var got strings.Builder
	for !strings.Contains(got.String(), first) {
		b, err := br.ReadByte()
		if err != nil {
			t.Fatalf("read %q before the origin went on, then: %v", got.String(), err)
		}
		got.WriteByte(b)
	}
	close(release)
	rest, err := io.ReadAll(br)
	if err != nil {
		t.Fatalf("reading the rest: %v", err)
	}
	return got.String() + string(rest)
}

// TestHandlerNextPanics: a panic in next (a proxy aborting with
// http.ErrAbortHandler) goes on up, and the rewriter goroutine it was
// feeding is stopped (TestMain's goleak check fails otherwise).
func TestHandlerNextPanics(t *testing.T) {
	s := newStack(t, stackConfig{next: func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><head><title>x</title></head><body><p>first</p>")
		panic(http.ErrAbortHandler)
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.front.URL+"/pricing", nil)
	req.Header.Set("Accept", browserAccept)
	resp, err := testClient.Do(req)
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err == nil {
		t.Error("the client got a complete response from an aborted handler")
	}
}

// TestHandlerHeadMatchesGet: HEAD gets the headers GET gets, the Markdown's
// length and token count included; a rewritten HTML page's length is known
// only once its body is rewritten.
func TestHandlerHeadMatchesGet(t *testing.T) {
	for _, tc := range []struct {
		name, accept string
		opts         Options
		unknown      []string // headers HEAD may leave out
	}{
		{"html with head link", browserAccept, Options{}, []string{"Content-Length"}},
		{"html untouched", browserAccept, Options{HeadLink: Bool(false)}, nil},
		{"markdown", agentAccept, Options{ContentSignal: "ai-train=no"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStack(t, stackConfig{opts: tc.opts, origin: htmlOrigin(testPage, "Etag", `"v1"`, "Cache-Control", "max-age=60")})
			get := s.do(http.MethodGet, "/pricing", hdr("Accept", tc.accept))
			head := s.do(http.MethodHead, "/pricing", hdr("Accept", tc.accept))
			for _, k := range []string{"Content-Type", "Content-Length", "Etag", "Vary", "Link", "Cache-Control", "Content-Signal", "X-Markdown-Tokens", "Content-Encoding"} {
				g, h := strings.Join(get.header.Values(k), ", "), strings.Join(head.header.Values(k), ", ")
				if g != h && !(slices.Contains(tc.unknown, k) && h == "") {
					t.Errorf("%s: GET %q, HEAD %q", k, g, h)
				}
			}
		})
	}
}
