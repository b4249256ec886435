package negotiate

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sync"

	"golang.org/x/net/html"
)

// Injection says what the HTML form of a page gains on its way through. The
// zero value (or a nil *Injection) changes nothing.
type Injection struct {
	// Lang is set as the lang attribute of <html> when the tag has none;
	// "" never sets it.
	Lang string
	// Head elements are inserted, in order, just before </head>; when the
	// page has no </head>, before <body> or whatever first starts the body
	// (a tag that cannot sit in a head, or non-blank text). An element is
	// left out when its SkipIf matched a tag already in the head.
	Head []HeadElement
	// Forms lists the WebMCP annotations to add to matching <form> start
	// tags and to their fields.
	Forms []FormAnnotation
}

// HeadElement is a piece of markup to insert into the head of a page.
type HeadElement struct {
	// HTML is inserted verbatim: the caller escapes what it interpolates.
	HTML string
	// SkipIf names a tag whose presence in the head makes HTML redundant
	// (the page already has its canonical link, say); the zero TagMatch
	// never skips.
	SkipIf TagMatch
}

// TagMatch matches a start tag by name and attributes.
type TagMatch struct {
	// Tag is the element name, compared case-insensitively; "" matches any
	// element (only useful with Attrs).
	Tag string
	// Attrs must all be present. A value of "*" accepts any value; "rel" is
	// matched as a space-separated token list (every token of the wanted
	// value must be present); other values are compared case-insensitively.
	Attrs map[string]string
}

// FormAnnotation adds attributes (WebMCP's toolname, tooldescription, …) to
// the forms a selector picks and to their fields.
type FormAnnotation struct {
	// Selector is a CSS selector matched against the <form> element alone:
	// its name, id, classes and attributes (the rewriter streams, so
	// selectors that look at ancestors or siblings never match).
	Selector string
	// Attrs are added to the <form> start tag; attributes the tag already
	// has are never overwritten.
	Attrs map[string]string
	// Fields maps the name attribute of an <input>, <select> or <textarea>
	// inside the form to the attributes added to it (again never
	// overwriting).
	Fields map[string]map[string]string
}

// maxTokenBuf caps what the tokenizer buffers for one token (a long inline
// script, comment or text run). Past it the rewriter stops looking and
// copies the rest of the page through unchanged, so memory stays bounded.
const maxTokenBuf = 1 << 20

// errClosed is returned by Write after Close.
var errClosed = errors.New("negotiate: write to closed html rewriter")

// NewRewriter returns a writer that copies HTML to w, applying inj on the
// way. It streams: a byte goes out as soon as the token holding it is
// complete, so memory stays bounded whatever the input (see maxTokenBuf).
// Bytes it does not inject into are copied untouched, so invalid HTML comes
// out byte for byte; a nil or empty inj gives back the input exactly. The
// caller must call Close, which flushes what is left and returns the first
// error writing to w.
func NewRewriter(w io.Writer, inj *Injection) io.WriteCloser {
	return newDecodingRewriter(w, inj, "", 0)
}

// newDecodingRewriter is NewRewriter for input in one content coding
// (gzip, br, zstd, deflate), undone on the way: the output is identity.
// Corrupt input ends the output where the decoder stopped; Write and Close
// then report the error. maxDecoded bounds the decoded bytes (0: no bound),
// so a decompression bomb cannot make the response a thousand times the
// size the origin sent: past it the output ends and the error is reported.
func newDecodingRewriter(w io.Writer, inj *Injection, coding string, maxDecoded int64) io.WriteCloser {
	if inj == nil {
		inj = &Injection{}
	}
	return &rewriter{out: w, inj: inj, coding: coding, maxDecoded: maxDecoded}
}

// rewriter runs an html.Tokenizer in a goroutine fed by Write. Write hands
// over its slice and waits until the goroutine has consumed it and asks for
// more, so the goroutine never runs at the same time as the caller: writes
// to w keep the order and the goroutine of a plain io.Writer call.
type rewriter struct {
	out    io.Writer
	inj    *Injection
	coding string // content coding of the input, undone on the way; "" for none
	// maxDecoded bounds the bytes decoding may produce; 0 for no bound.
	maxDecoded int64

	in     chan []byte   // Write -> goroutine
	idle   chan struct{} // goroutine -> Write: input consumed
	done   chan struct{} // closed when the goroutine exits
	err    error         // first error, set before done is closed
	closed bool

	// goroutine side
	bw  *bufio.Writer // batches the tokens for out; flushed whenever input runs dry
	cur []byte
	fed bool // a chunk has been received: the next empty read reports idle
	eof bool
}

func (rw *rewriter) start() {
	rw.bw = bufioPool.Get().(*bufio.Writer)
	rw.bw.Reset(rw.out)
	rw.in = make(chan []byte)
	rw.idle = make(chan struct{})
	rw.done = make(chan struct{})
	go rw.run()
}

// Write passes p to the tokenizer and returns once it has all been consumed.
func (rw *rewriter) Write(p []byte) (int, error) {
	if rw.closed {
		return 0, errClosed
	}
	if len(p) == 0 {
		return 0, nil
	}
	if rw.done == nil {
		rw.start()
	}
	select {
	case rw.in <- p:
	case <-rw.done:
		return 0, rw.err
	}
	select {
	case <-rw.idle:
		return len(p), nil
	case <-rw.done:
		if rw.err != nil {
			return 0, rw.err
		}
		return len(p), nil
	}
}

// Close ends the input, waits for the last bytes to be written and returns
// the first write error.
func (rw *rewriter) Close() error {
	if rw.closed {
		return rw.err
	}
	rw.closed = true
	if rw.done == nil {
		return nil
	}
	close(rw.in)
	<-rw.done
	return rw.err
}

// Read feeds the tokenizer from Write calls.
func (rw *rewriter) Read(b []byte) (int, error) {
	if len(rw.cur) == 0 {
		if rw.eof {
			return 0, io.EOF
		}
		if rw.fed {
			// Everything the chunk made goes out before Write returns, so
			// the page streams as the origin sends it.
			if !rw.flush() {
				return 0, io.ErrClosedPipe
			}
			rw.idle <- struct{}{}
		}
		p, ok := <-rw.in
		if !ok {
			rw.eof = true
			return 0, io.EOF
		}
		rw.cur, rw.fed = p, true
	}
	n := copy(b, rw.cur)
	rw.cur = rw.cur[n:]
	return n, nil
}

// run is the goroutine: decode, tokenize, rewrite, write.
func (rw *rewriter) run() {
	defer close(rw.done)
	defer func() {
		rw.flush()
		rw.bw.Reset(nil)
		bufioPool.Put(rw.bw)
	}()
	defer func() {
		if v := recover(); v != nil {
			rw.err = fmt.Errorf("rewriting html: panic: %v", v)
		}
	}()
	var src io.Reader = rw
	if rw.coding != "" {
		dec, err := newDecoder(rw, rw.coding, streamWindow)
		if err != nil {
			rw.err = fmt.Errorf("decoding %s html: %w", rw.coding, err)
			return
		}
		if c, ok := dec.(io.Closer); ok {
			defer c.Close()
		}
		src = dec
		if rw.maxDecoded > 0 {
			src = &boundedReader{r: dec, left: rw.maxDecoded}
		}
	}
	z := html.NewTokenizer(src)
	z.SetMaxBuf(maxTokenBuf)
	st := newRewriteState(rw.inj)
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if !rw.emit(z.Raw()) || !rw.emit(z.Buffered()) {
				return
			}
			switch err := z.Err(); {
			case err == html.ErrBufferExceeded:
				rw.copyRest(src)
			case err != io.EOF:
				rw.err = fmt.Errorf("decoding %s html: %w", rw.coding, err)
			}
			return
		}
		if !rw.emit(st.token(z, tt)) {
			return
		}
		if st.finished() {
			if rw.emit(z.Buffered()) {
				rw.copyRest(src)
			}
			return
		}
	}
}

// streamWindow bounds the memory a zstd decoder may take when HTML is
// decoded on the fly (RFC 8878 §3.1.1.1.2 asks decoders to support 8 MB
// windows).
const streamWindow = 8 << 20

// emit writes b, recording the first error; it reports whether to go on.
// Tokens are batched: one write per token would cost a write deadline
// update per token in Caddy's response writer.
func (rw *rewriter) emit(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	if rw.err != nil {
		return false
	}
	if _, err := rw.bw.Write(b); err != nil {
		rw.err = fmt.Errorf("writing html: %w", err)
		return false
	}
	return true
}

// flush writes out what emit batched, recording the first error.
func (rw *rewriter) flush() bool {
	if rw.err != nil {
		return false
	}
	if err := rw.bw.Flush(); err != nil {
		rw.err = fmt.Errorf("writing html: %w", err)
		return false
	}
	return true
}

// boundedReader reads at most left bytes from r, then fails with
// ErrTooLarge.
type boundedReader struct {
	r    io.Reader
	left int64
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, ErrTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

var bufioPool = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 32<<10) }}

// copyRest copies what is left of src unchanged.
func (rw *rewriter) copyRest(src io.Reader) {
	if !rw.flush() {
		return
	}
	buf := copyBufPool.Get().(*[]byte)
	defer copyBufPool.Put(buf)
	if _, err := io.CopyBuffer(onlyWriter{rw.out}, onlyReader{src}, *buf); err != nil && rw.err == nil {
		rw.err = fmt.Errorf("copying html: %w", err)
	}
}

var copyBufPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// onlyReader and onlyWriter hide any ReadFrom/WriteTo so io.CopyBuffer uses
// the given buffer.
type onlyReader struct{ io.Reader }
type onlyWriter struct{ io.Writer }
