package negotiate

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/agentready/caddy-agentready/negotiate/htmlrewrite"
)

// DefaultRewriteCache is the default Options.RewriteCache: a plan holds the
// bytes it inserts (a few kilobytes with the head elements), so this keeps
// the plans of a few thousand pages.
const DefaultRewriteCache = 8 << 20

// maxPlannedPage is the largest page, by its Content-Length, that the HTML
// path buffers whole: it is then sent with its exact Content-Length and its
// plan is looked up or recorded. A larger page, or one of unknown length,
// streams through the rewriter.
const maxPlannedPage = 256 << 10

// rewritePage returns page rewritten with inj, in buf (from pageBufPool),
// through the rewrite plans (see htmlrewrite.RewritePage): filed under id
// when the page is named, else under a hash of its bytes.
func rewritePage(buf *[]byte, page []byte, inj *Injection, plans *htmlrewrite.PlanCache, id htmlrewrite.PageID, named bool) (out *[]byte, fromPlan bool) {
	if named {
		*buf, fromPlan = htmlrewrite.RewritePageAs((*buf)[:0], page, inj, plans, id)
	} else {
		*buf, fromPlan = htmlrewrite.RewritePage((*buf)[:0], page, inj, plans)
	}
	return buf, fromPlan
}

// pageBufPool holds the buffers of the pages rewritten whole.
var pageBufPool = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

func putPageBuf(b *[]byte) {
	if cap(*b) <= 2*maxPlannedPage {
		*b = (*b)[:0]
		pageBufPool.Put(b)
	}
}

// newDecodingRewriter is htmlrewrite.New for input in one content coding
// (gzip, br, zstd, deflate), undone on the way: the output is identity.
// When the decoder fails (corrupt or truncated input, a zstd window over
// maxZstdWindow), the output stops where it was, without what the rewriter
// held back, and Write or Close return a *decodeError: the output is then a
// prefix of the page that the caller must not let pass for the whole page.
// maxDecoded bounds the decoded bytes (0: no bound), so a decompression
// bomb cannot make the response a thousand times the size the origin sent:
// past it the decoder fails with ErrTooLarge.
func newDecodingRewriter(w io.Writer, inj *Injection, coding string, maxDecoded int64) io.WriteCloser {
	rw := htmlrewrite.New(w, inj)
	if coding == "" {
		return rw
	}
	return &decodingWriter{next: rw, coding: coding, maxDecoded: maxDecoded}
}

// decodingWriter undoes a content coding in front of a rewriter. The
// decompressors pull their input, so a goroutine runs the decoder over
// what Write hands it: Write passes its slice and waits until the
// goroutine has consumed it and asks for more, so the goroutine never runs
// at the same time as the caller, and the rewriter's writes keep the order
// and the goroutine of a plain io.Writer call.
type decodingWriter struct {
	next       *htmlrewrite.Rewriter
	coding     string
	maxDecoded int64 // bound on the decoded bytes; 0 for none

	in     chan []byte   // Write -> goroutine
	idle   chan struct{} // goroutine -> Write: input consumed
	done   chan struct{} // closed when the goroutine exits
	err    error         // first error, set before done is closed
	closed bool

	// goroutine side
	cur []byte
	fed bool // a chunk has been received: the next empty read reports idle
	eof bool
}

func (d *decodingWriter) start() {
	d.in = make(chan []byte)
	d.idle = make(chan struct{})
	d.done = make(chan struct{})
	go d.run()
}

// Write passes p to the decoder and returns once it has all been consumed.
func (d *decodingWriter) Write(p []byte) (int, error) {
	if d.closed {
		return 0, htmlrewrite.ErrClosed
	}
	if len(p) == 0 {
		return 0, nil
	}
	if d.done == nil {
		d.start()
	}
	select {
	case d.in <- p:
	case <-d.done:
		return 0, d.err
	}
	select {
	case <-d.idle:
		return len(p), nil
	case <-d.done:
		if d.err != nil {
			return 0, d.err
		}
		return len(p), nil
	}
}

// Close ends the input, waits for the last bytes to be written and returns
// the first error.
func (d *decodingWriter) Close() error {
	if d.closed {
		return d.err
	}
	d.closed = true
	if d.done == nil {
		d.start() // an empty body is decoded too: for gzip it is an error
	}
	close(d.in)
	<-d.done
	return d.err
}

// Read feeds the decoder from Write calls.
func (d *decodingWriter) Read(b []byte) (int, error) {
	if len(d.cur) == 0 {
		if d.eof {
			return 0, io.EOF
		}
		if d.fed {
			d.idle <- struct{}{} // everything the chunk made is written: Write returns
		}
		p, ok := <-d.in
		if !ok {
			d.eof = true
			return 0, io.EOF
		}
		d.cur, d.fed = p, true
	}
	n := copy(b, d.cur)
	d.cur = d.cur[n:]
	return n, nil
}

// run is the goroutine: decode, then rewrite. When the decoder fails, the
// rewriter is dropped without writing what it holds: the caller decides
// what the client gets (the origin's bytes when nothing went out yet).
func (d *decodingWriter) run() {
	defer close(d.done)
	defer func() {
		if v := recover(); v != nil {
			d.err = &decodeError{coding: d.coding, err: fmt.Errorf("panic: %v", v)}
		}
	}()
	dec, err := newDecoder(d, d.coding)
	if err != nil {
		d.err = &decodeError{coding: d.coding, err: err}
		return
	}
	if c, ok := dec.(io.Closer); ok {
		defer c.Close()
	}
	src := &readErr{r: dec}
	if d.maxDecoded > 0 {
		src.r = &boundedReader{r: dec, left: d.maxDecoded}
	}
	buf := copyBufPool.Get().(*[]byte)
	defer copyBufPool.Put(buf)
	_, err = io.CopyBuffer(onlyWriter{d.next}, src, *buf)
	if src.err != nil {
		d.err = &decodeError{coding: d.coding, err: zstdError(src.err)}
		d.next.Abandon()
		return
	}
	if cerr := d.next.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		d.err = fmt.Errorf("decoding %s html: %w", d.coding, err)
	}
}

// decodeError is an error of the decoder in front of the rewriter (corrupt
// input, a zstd window too large, the bound on the decoded bytes passed),
// as opposed to one writing the output.
type decodeError struct {
	coding string
	err    error
}

func (e *decodeError) Error() string { return "decoding " + e.coding + " html: " + e.err.Error() }
func (e *decodeError) Unwrap() error { return e.err }

// isDecodeError reports whether err is the decoder's.
func isDecodeError(err error) bool {
	var de *decodeError
	return errors.As(err, &de)
}

// readErr records the first error of r other than io.EOF.
type readErr struct {
	r   io.Reader
	err error
}

func (e *readErr) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

// boundedReader reads at most left bytes from r, then fails with
// ErrTooLarge unless r ends there (the bound is inclusive, as Decode's).
type boundedReader struct {
	r    io.Reader
	left int64
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		if n, err := io.ReadAtLeast(b.r, one[:], 1); n == 0 {
			return 0, err // io.EOF, or the decoder's error
		}
		return 0, ErrTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

var copyBufPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// onlyWriter hides any ReadFrom so io.CopyBuffer uses the given buffer.
type onlyWriter struct{ io.Writer }
