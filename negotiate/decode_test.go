package negotiate

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// encode applies the content codings listed (in application order).
func encode(t testing.TB, data []byte, codings ...string) []byte {
	t.Helper()
	for _, c := range codings {
		var buf bytes.Buffer
		var w io.WriteCloser
		switch c {
		case "gzip":
			w = gzip.NewWriter(&buf)
		case "deflate":
			w = zlib.NewWriter(&buf)
		case "rawdeflate":
			w, _ = flate.NewWriter(&buf, flate.BestSpeed)
		case "br":
			w = brotli.NewWriter(&buf)
		case "zstd":
			zw, err := zstd.NewWriter(&buf)
			if err != nil {
				t.Fatal(err)
			}
			w = zw
		default:
			t.Fatalf("unknown coding %q", c)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		data = buf.Bytes()
	}
	return data
}

// zstdWindow compresses data as one zstd frame written in blocks, whose
// header declares a window of window bytes (the frame a streaming encoder
// writes: not single-segment, no content size). data must be longer than a
// block (128 KiB) for the encoder to write it so.
func zstdWindow(t testing.TB, data []byte, window int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := zstd.NewWriter(&buf, zstd.WithWindowSize(window), zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithLowerEncoderMem(true))
	if err != nil {
		t.Fatal(err)
	}
	for p := data; len(p) > 0; p = p[min(len(p), 64<<10):] {
		if _, err := zw.Write(p[:min(len(p), 64<<10)]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	wantWindow(t, buf.Bytes(), uint64(window))
	return buf.Bytes()
}

// zstdLongWindow is zstdWindow with the header changed to declare a window
// of 1<<log bytes, as `zstd --long=log` writes it (log 10 to 41), without
// making the encoder allocate such a window: the frame decodes the same
// with any window at least as large as the one it was written with.
func zstdLongWindow(t testing.TB, data []byte, log int) []byte {
	t.Helper()
	frame := bytes.Clone(zstdWindow(t, data, 1<<20))
	// RFC 8878 §3.1.1.1: magic (4 bytes), Frame_Header_Descriptor, then the
	// Window_Descriptor (Exponent in the high 5 bits, window 1<<(10+E)).
	if fhd := frame[4]; fhd&0x20 != 0 {
		t.Fatalf("frame header descriptor %#x: a single-segment frame has no window descriptor", fhd)
	}
	frame[5] = byte(log-10) << 3
	wantWindow(t, frame, 1<<log)
	return frame
}

// wantWindow fails the test unless the zstd frame declares window bytes.
func wantWindow(t testing.TB, frame []byte, window uint64) {
	t.Helper()
	var h zstd.Header
	if err := h.Decode(frame); err != nil || h.SingleSegment || h.WindowSize != window {
		t.Fatalf("zstd header %+v (%v), want a window of %d bytes", h, err, window)
	}
}

// repetitive is a page of n bytes or more that compresses a thousandfold.
func repetitive(n int) []byte {
	p := []byte("<html><head><title>Bomb</title></head><body>")
	for len(p) < n {
		p = append(p, "<p>the same paragraph, again and again</p>\n"...)
	}
	return append(p, "</body></html>\n"...)
}

func TestDecode(t *testing.T) {
	page := []byte(strings.Repeat("<p>Hello, agents.</p>\n", 200))
	bomb := encode(t, make([]byte, 16<<20), "gzip")
	long := repetitive(300 << 10) // longer than a zstd block: framed with its window
	for _, tc := range []struct {
		name     string
		body     []byte
		encoding string
		limit    int64
		want     []byte
		wantErr  error // nil: success; errAny: some error
	}{
		{"identity absent", page, "", 1 << 20, page, nil},
		{"identity named", page, "identity", 1 << 20, page, nil},
		{"gzip", encode(t, page, "gzip"), "gzip", 1 << 20, page, nil},
		{"x-gzip upper case", encode(t, page, "gzip"), " X-GZIP ", 1 << 20, page, nil},
		{"br", encode(t, page, "br"), "br", 1 << 20, page, nil},
		{"zstd", encode(t, page, "zstd"), "zstd", 1 << 20, page, nil},
		{"deflate zlib", encode(t, page, "deflate"), "deflate", 1 << 20, page, nil},
		{"deflate raw", encode(t, page, "rawdeflate"), "deflate", 1 << 20, page, nil},
		{"stacked gzip then br", encode(t, page, "gzip", "br"), "gzip, br", 1 << 20, page, nil},
		{"stacked with identity", encode(t, page, "zstd", "gzip"), "zstd,identity,gzip", 1 << 20, page, nil},
		{"exactly the limit", page, "", int64(len(page)), page, nil},
		{"identity over limit", page, "", int64(len(page)) - 1, nil, ErrTooLarge},
		{"gzip bomb", bomb, "gzip", 1 << 20, nil, ErrTooLarge},
		{"br bomb", encode(t, make([]byte, 16<<20), "br"), "br", 1 << 20, nil, ErrTooLarge},
		{"zstd bomb", encode(t, make([]byte, 16<<20), "zstd"), "zstd", 1 << 20, nil, ErrTooLarge},
		{"stacked bomb", encode(t, bomb, "gzip"), "gzip, gzip", 1 << 20, nil, ErrTooLarge},
		{"deflate bomb", encode(t, make([]byte, 16<<20), "deflate"), "deflate", 1 << 20, nil, ErrTooLarge},
		{"zstd window 1 MiB", zstdWindow(t, long, 1<<20), "zstd", 1 << 20, long, nil},
		{"zstd window at the 8 MiB maximum", zstdWindow(t, long, maxZstdWindow), "zstd", 1 << 20, long, nil},
		{"zstd window at the maximum, limit below it", zstdWindow(t, long, maxZstdWindow), "zstd", int64(len(long)), long, nil},
		{"zstd window 16 MiB", zstdWindow(t, long, 16<<20), "zstd", 1 << 20, nil, errZstdWindow},
		{"zstd window 128 MiB (--long=27)", zstdLongWindow(t, long, 27), "zstd", 1 << 20, nil, errZstdWindow},
		{"zstd window 2 GiB (--long=31)", zstdLongWindow(t, long, 31), "zstd", 64 << 20, nil, errZstdWindow},
		{"zstd window over the maximum, stacked", encode(t, zstdWindow(t, long, 16<<20), "gzip"), "zstd, gzip", 1 << 20, nil, errZstdWindow},
		{"truncated gzip", cut(encode(t, page, "gzip")), "gzip", 1 << 20, nil, errAny},
		{"truncated br", cut(encode(t, page, "br")), "br", 1 << 20, nil, errAny},
		{"truncated zstd", cut(encode(t, page, "zstd")), "zstd", 1 << 20, nil, errAny},
		{"truncated deflate", cut(encode(t, page, "deflate")), "deflate", 1 << 20, nil, errAny},
		{"corrupt gzip", []byte("not gzip at all"), "gzip", 1 << 20, nil, errAny},
		{"corrupt br", []byte("not brotli at all"), "br", 1 << 20, nil, errAny},
		{"empty gzip", nil, "gzip", 1 << 20, nil, errAny},
		{"unknown coding", page, "compress", 1 << 20, nil, errAny},
		{"wrong order", encode(t, page, "gzip", "br"), "br, gzip", 1 << 20, nil, errAny},
		{"too many codings", page, "identity, gzip, gzip, gzip, gzip, gzip", 1 << 20, nil, errAny},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode(bytes.NewReader(tc.body), tc.encoding, tc.limit)
			switch {
			case tc.wantErr == nil && err != nil:
				t.Fatalf("Decode: %v", err)
			case tc.wantErr == errAny && err == nil:
				t.Fatalf("Decode succeeded with %d bytes, want an error", len(got))
			case tc.wantErr == ErrTooLarge && !errors.Is(err, ErrTooLarge):
				t.Fatalf("Decode error = %v, want ErrTooLarge", err)
			case tc.wantErr == errZstdWindow && (!errors.Is(err, errZstdWindow) || errors.Is(err, ErrTooLarge)):
				t.Fatalf("Decode error = %v, want the window error", err)
			case tc.wantErr == nil && !bytes.Equal(got, tc.want):
				t.Fatalf("Decode = %d bytes, want %d", len(got), len(tc.want))
			}
			if err != nil && err != ErrTooLarge && strings.HasSuffix(err.Error(), ".") {
				t.Errorf("error %q ends with a period", err)
			}
		})
	}
}

// TestDecodeZstdWindowMemory: a frame declaring a window over the maximum
// is refused from its header, before the decoder allocates the window;
// one within it costs about its window, whatever the page.
func TestDecodeZstdWindowMemory(t *testing.T) {
	long := repetitive(300 << 10)
	for _, tc := range []struct {
		name     string
		frame    []byte
		maxAlloc uint64
	}{
		{"2 GiB window refused", zstdLongWindow(t, long, 31), 1 << 20},
		{"128 MiB window refused", zstdLongWindow(t, long, 27), 1 << 20},
		{"8 MiB window decoded", zstdWindow(t, long, maxZstdWindow), maxZstdWindow + 4<<20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, _ = Decode(bytes.NewReader(tc.frame), "zstd", 1<<20)
			runtime.ReadMemStats(&after)
			got := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d bytes allocated", got)
			if got > tc.maxAlloc {
				t.Errorf("decoding allocated %d bytes, want at most %d", got, tc.maxAlloc)
			}
		})
	}
}

var errAny = errors.New("any error")

// cut drops the last third of b.
func cut(b []byte) []byte { return b[:len(b)*2/3] }

func TestToUTF8(t *testing.T) {
	latin1 := []byte("<p>caf\xe9</p>")
	for _, tc := range []struct {
		name, contentType string
		body              []byte
		want              string
		wantErr           bool
	}{
		{"utf-8 declared", "text/html; charset=utf-8", []byte("<p>café</p>"), "<p>café</p>", false},
		{"utf-8 sniffed", "text/html", []byte("<p>café</p>"), "<p>café</p>", false},
		{"latin-1 declared", "text/html; charset=ISO-8859-1", latin1, "<p>café</p>", false},
		{"quoted charset", `text/html; charset="windows-1252"`, latin1, "<p>café</p>", false},
		{"meta charset", "text/html", append([]byte(`<meta charset="iso-8859-1">`), latin1...), `<meta charset="iso-8859-1"><p>café</p>`, false},
		{"meta http-equiv", "text/html", append([]byte(`<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">`), latin1...), `<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><p>café</p>`, false},
		{"shift_jis", "text/html; charset=shift_jis", []byte("\x93\xfa\x96\x7b"), "日本", false},
		{"utf-8 bom stripped", "text/html", []byte("\xef\xbb\xbf<p>x</p>"), "<p>x</p>", false},
		{"utf-16 bom wins over header", "text/html; charset=iso-8859-1", []byte("\xff\xfe<\x00p\x00>\x00"), "<p>", false},
		{"invalid utf-8 sanitised", "text/html; charset=utf-8", []byte("a\xffb"), "a\uFFFDb", false},
		{"no charset, invalid utf-8 is windows-1252", "text/html", latin1, "<p>café</p>", false},
		{"unknown charset", "text/html; charset=klingon", []byte("x"), "", true},
		{"replacement charset", "text/html; charset=iso-2022-kr", []byte("x"), "", true},
		{"empty", "", nil, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ToUTF8(tc.body, tc.contentType)
			if (err != nil) != tc.wantErr {
				t.Fatalf("ToUTF8 error = %v, want error %v", err, tc.wantErr)
			}
			if string(got) != tc.want {
				t.Errorf("ToUTF8 = %q, want %q", got, tc.want)
			}
		})
	}
}

// A UTF-8 page whose first 1024 bytes are ASCII and whose <meta charset>
// comes later must not be read as windows-1252.
func TestToUTF8LateMetaCharset(t *testing.T) {
	page := "<!doctype html><html><head><!--" + strings.Repeat("x", 1100) + "--><meta charset=\"utf-8\"><title>Café – naïve</title></head></html>"
	got, err := ToUTF8([]byte(page), "text/html")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != page {
		t.Errorf("UTF-8 page garbled: %q", got[len(got)-60:])
	}
	// Windows-1252 bytes that are not valid UTF-8 still decode as such.
	latin := append([]byte("<html><body>"+strings.Repeat("a", 1100)), 0xe9, '<')
	got, err = ToUTF8(latin, "text/html")
	if err != nil || !strings.Contains(string(got), "é<") {
		t.Errorf("windows-1252 fallback: %q, %v", got[len(got)-5:], err)
	}
}
