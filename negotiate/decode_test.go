package negotiate

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
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

func TestDecode(t *testing.T) {
	page := []byte(strings.Repeat("<p>Hello, agents.</p>\n", 200))
	bomb := encode(t, make([]byte, 16<<20), "gzip")
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
			case tc.wantErr == nil && !bytes.Equal(got, tc.want):
				t.Fatalf("Decode = %d bytes, want %d", len(got), len(tc.want))
			}
			if err != nil && err != ErrTooLarge && strings.HasSuffix(err.Error(), ".") {
				t.Errorf("error %q ends with a period", err)
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
