package sites

import (
	"io"
	"net/http"
	"sync"

	"github.com/agentready/caddy-agentready/traffic"
)

// Writer sits in front of the client's ResponseWriter and keeps what the
// traffic counts need: the status, the body bytes, the form (from the
// response's Content-Type: text/html or text/markdown; a generated
// document, the MCP endpoint and /ask are set by who serves them) and,
// from the negotiation's observer, the Markdown's tokens and source size.
// It is pooled (NewWriter, Release): counting a request allocates nothing
// of its own.
type Writer struct {
	http.ResponseWriter
	// Status is the first final status written, 0 before.
	Status int
	// Bytes counts the body bytes written.
	Bytes int64
	// Form is the form the response went out as.
	Form traffic.Form
	// Tokens and HTMLBytes are the Markdown's tokens and the size of the
	// HTML it was converted from.
	Tokens, HTMLBytes int64
}

var writerPool = sync.Pool{New: func() any { return new(Writer) }}

// NewWriter is a Writer in front of w, from the pool.
func NewWriter(w http.ResponseWriter) *Writer {
	tw := writerPool.Get().(*Writer)
	*tw = Writer{ResponseWriter: w}
	return tw
}

// Release returns tw to the pool; it must not be used after.
func (tw *Writer) Release() {
	*tw = Writer{}
	writerPool.Put(tw)
}

// WriteHeader keeps the first final status and the form it is sent as.
func (tw *Writer) WriteHeader(code int) {
	if tw.Status == 0 && code >= 200 {
		tw.final(code)
	}
	tw.ResponseWriter.WriteHeader(code)
}

// final records the final status and, unless known, the form from the
// response's media type.
func (tw *Writer) final(code int) {
	tw.Status = code
	if tw.Form != traffic.FormOther {
		return
	}
	if ct := tw.ResponseWriter.Header()["Content-Type"]; len(ct) > 0 {
		// The types most pages and every Markdown answer are sent with
		// first: one comparison instead of a byte-by-byte fold.
		switch c := ct[0]; {
		case c == "text/html; charset=utf-8", hasPrefixFold(c, "text/html"):
			tw.Form = traffic.FormHTML
		case c == "text/markdown; charset=utf-8", hasPrefixFold(c, "text/markdown"):
			tw.Form = traffic.FormMarkdown
		}
	}
}

// hasPrefixFold reports whether s begins with the lower-case prefix, ASCII
// case ignored (media types are case-insensitive, RFC 9110 §8.3.1).
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// Write counts the body bytes.
func (tw *Writer) Write(p []byte) (int, error) {
	if tw.Status == 0 {
		tw.final(http.StatusOK)
	}
	n, err := tw.ResponseWriter.Write(p)
	tw.Bytes += int64(n)
	return n, err
}

// ReadFrom counts the bytes copied (file_server's sendfile path).
func (tw *Writer) ReadFrom(r io.Reader) (int64, error) {
	if tw.Status == 0 {
		tw.final(http.StatusOK)
	}
	var n int64
	var err error
	if rf, ok := tw.ResponseWriter.(io.ReaderFrom); ok {
		n, err = rf.ReadFrom(r)
	} else {
		n, err = io.Copy(tw.ResponseWriter, r)
	}
	tw.Bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the client's writer (Flush,
// Hijack, deadlines).
func (tw *Writer) Unwrap() http.ResponseWriter { return tw.ResponseWriter }

// Outer finds, below w, the Writer of the client's request that a
// Markdown suffix URL re-entered the server with.
func Outer(w http.ResponseWriter) *Writer {
	for range 16 {
		if tw, ok := w.(*Writer); ok {
			return tw
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return nil
		}
		w = u.Unwrap()
	}
	return nil
}
