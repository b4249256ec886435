package negotiate

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

// ErrTooLarge is returned by Decode when the decoded body would exceed the
// limit; the caller fails open to the original bytes.
var ErrTooLarge = errors.New("negotiate: body exceeds the size limit")

// maxCodings bounds how many stacked content codings Decode undoes; a real
// origin applies one.
const maxCodings = 4

// maxZstdWindow is the largest zstd window (RFC 8878 §3.1.1.1.2) Decode and
// the head rewrite accept: 8 MiB, the most RFC 9659 §3 lets an encoder use
// for the "zstd" content coding and what browsers decode (every zstd level
// up to 19 stays within it). The decoder allocates the window up front,
// whatever the page's size, so it is what one decode costs in memory; a
// frame asking for more (zstd --long, levels 20-22, a hostile header) fails
// to decode and the caller sends the origin's bytes untouched.
const maxZstdWindow = 8 << 20

// errZstdWindow reports a zstd frame whose window is over maxZstdWindow.
var errZstdWindow = fmt.Errorf("zstd window over the %d MiB maximum (RFC 9659 §3)", maxZstdWindow>>20)

// Decode undoes the content codings listed in contentEncoding (RFC 9110
// §8.4: listed in the order they were applied, so they are undone right to
// left) and returns at most limit decoded bytes. Supported: gzip (and
// x-gzip), br, zstd (windows up to 8 MiB), deflate (zlib-wrapped or raw, as
// both are seen in the wild) and identity. A decoded size over limit gives
// ErrTooLarge, however small the encoded input (decompression bombs stop
// there); corrupt or truncated input, a zstd window over 8 MiB and an
// unknown coding give another error.
func Decode(body io.Reader, contentEncoding string, limit int64) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := decodeTo(&buf, body, contentEncoding, limit); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decodeTo writes the decoded body to w, at most limit bytes.
func decodeTo(w io.Writer, body io.Reader, contentEncoding string, limit int64) (int64, error) {
	var codings []string
	for _, c := range strings.Split(contentEncoding, ",") {
		if c = strings.ToLower(trimOWS(c)); c != "" && c != "identity" {
			codings = append(codings, c)
		}
	}
	if len(codings) > maxCodings {
		return 0, fmt.Errorf("decoding body: %d stacked content codings", len(codings))
	}
	r := body
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	for i := len(codings) - 1; i >= 0; i-- {
		dec, err := newDecoder(r, codings[i])
		if err != nil {
			return 0, fmt.Errorf("decoding %s body: %w", codings[i], err)
		}
		if c, ok := dec.(io.Closer); ok {
			closers = append(closers, c)
		}
		r = dec
	}
	n, err := io.Copy(w, io.LimitReader(r, limit+1))
	switch {
	case err != nil:
		return 0, fmt.Errorf("decoding %s body: %w", contentEncoding, zstdError(err))
	case n > limit:
		return 0, ErrTooLarge
	}
	return n, nil
}

// zstdError names the window in the errors a zstd frame asking for too
// large a window gives.
func zstdError(err error) error {
	if errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		return fmt.Errorf("%w: %w", errZstdWindow, err)
	}
	return err
}

// newDecoder returns a reader undoing one content coding.
func newDecoder(r io.Reader, coding string) (io.Reader, error) {
	switch coding {
	case "gzip", "x-gzip":
		return gzip.NewReader(r)
	case "br":
		// RFC 7932 §9.1: at most a 16 MiB window (the large-window
		// extension is off by default).
		return brotli.NewReader(r), nil
	case "zstd":
		// One synchronous decoder (no goroutines), whose window, and so
		// memory, is capped: a frame header cannot make it allocate more.
		// WithDecoderMaxMemory bounds the window of single-segment frames
		// (their content size) the same way.
		d, err := zstd.NewReader(r,
			zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxMemory(maxZstdWindow),
			zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err != nil {
			return nil, err
		}
		return zstdReader{d}, nil
	case "deflate":
		return newDeflateReader(r)
	}
	return nil, fmt.Errorf("unsupported content coding %q", coding)
}

// zstdReader adapts *zstd.Decoder, whose Close returns nothing, to io.Closer.
type zstdReader struct{ *zstd.Decoder }

// Close releases the decoder.
func (z zstdReader) Close() error {
	z.Decoder.Close()
	return nil
}

// newDeflateReader reads "deflate" as RFC 9110 §8.4.1.2 defines it (a zlib
// stream) and also as raw DEFLATE, which some servers send instead: the
// first two bytes tell (RFC 1950 §2.2: CM 8 and a header checksum that is a
// multiple of 31).
func newDeflateReader(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(2)
	if len(head) == 2 && head[0]&0x0f == 8 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
		return zlib.NewReader(br)
	}
	return flate.NewReader(br), nil
}

// ToUTF8 returns body as UTF-8. The charset comes from contentType's charset
// parameter when present, otherwise from a byte order mark or a <meta>
// declaration in the first 1024 bytes, otherwise UTF-8 when the bytes are
// valid UTF-8 and windows-1252 when not (the WHATWG encoding sniffing rules,
// as golang.org/x/net/html/charset implements them). A charset parameter
// that names no known encoding (or the "replacement" encoding) is an error:
// the caller fails open rather than guess. Invalid UTF-8 in the result is
// replaced with U+FFFD and a leading BOM is removed.
func ToUTF8(body []byte, contentType string) ([]byte, error) {
	var enc encoding.Encoding
	var name string // the WHATWG name of enc
	if label := charsetParam(contentType); label != "" {
		enc, name = charset.Lookup(label)
		if enc == nil || name == "replacement" {
			return nil, fmt.Errorf("converting body to utf-8: unknown charset %q", label)
		}
		// A BOM overrides the declared charset (WHATWG encoding "decode").
		if bomEnc, bomName, certain := charset.DetermineEncoding(body[:min(len(body), 3)], ""); certain {
			enc, name = bomEnc, bomName
		}
	} else {
		var certain bool
		enc, name, certain = charset.DetermineEncoding(body[:min(len(body), 1024)], "text/html")
		// x/net/html/charset falls back to windows-1252 when the first 1024
		// bytes are plain ASCII and declare nothing, even if a UTF-8 page
		// declares its charset later: valid UTF-8 is UTF-8.
		if !certain && name == "windows-1252" && utf8.Valid(body) {
			enc, name = unicode.UTF8, "utf-8"
		}
	}
	out := body
	// UTF-8 needs no decoding (invalid sequences are replaced below); the
	// encoding charset.Lookup returns for it is a wrapper, so compare names.
	if name != "utf-8" && enc != encoding.Nop {
		var err error
		if out, err = enc.NewDecoder().Bytes(body); err != nil {
			return nil, fmt.Errorf("converting body to utf-8: %w", err)
		}
	}
	out = bytes.TrimPrefix(out, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(out) {
		out = bytes.ToValidUTF8(out, []byte("\uFFFD"))
	}
	return out, nil
}

// charsetParam returns the charset parameter of a Content-Type value, "" when
// there is none.
func charsetParam(contentType string) string {
	_, _, params, ok := splitMediaType(contentType)
	if !ok {
		return ""
	}
	var label string
	scanParams(params, func(k, v string) bool {
		if k == "charset" {
			label = trimOWS(v)
			return false
		}
		return true
	})
	return label
}
