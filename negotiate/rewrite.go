package negotiate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	nethtml "golang.org/x/net/html"
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
	// Key identifies the injection for the Handler's rewrite plans
	// (Options.RewriteCache): two injections with the same non-empty Key
	// must be equal. "" keeps every page rewritten anew.
	Key string
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

// maxTokenBuf caps the bytes the rewriter holds back for one token it may
// change: a tag, or text before the body starts. Past it the rewriter stops
// looking and copies the rest of the page through unchanged, so memory
// stays bounded whatever the input. Tokens it never changes (scripts,
// styles, comments, the body's text) stream through and are not held.
const maxTokenBuf = 1 << 20

// errClosed is returned by Write after Close.
var errClosed = errors.New("negotiate: write to closed html rewriter")

// NewRewriter returns a writer that copies HTML to w, applying inj on the
// way. It streams: each Write writes out, before it returns, everything of
// its bytes but an incomplete tag at the end, which goes out with the next
// (see maxTokenBuf for the bound). Bytes it does not inject into are copied
// untouched, so invalid HTML comes out byte for byte; a nil or empty inj
// gives back the input exactly. The caller must call Close, which flushes
// what is left and returns the first error writing to w.
func NewRewriter(w io.Writer, inj *Injection) io.WriteCloser { return newRewriter(w, inj) }

func newRewriter(w io.Writer, inj *Injection) *rewriter {
	if inj == nil {
		inj = &Injection{}
	}
	r := &rewriter{out: w, st: newRewriteState(inj)}
	r.pass = r.st.finished()
	if !r.pass {
		r.take()
	}
	return r
}

// rewriteBufs are the buffers of a rewriter, reused between responses.
type rewriteBufs struct {
	hold, batch, tok, keys, head []byte
	attrs                        []attr
	spans                        []attrSpan
}

var rewriteBufPool = sync.Pool{New: func() any { return new(rewriteBufs) }}

// maxPooledBuf is the largest buffer kept for the next response.
const maxPooledBuf = 64 << 10

// take gives r the buffers of an earlier response.
func (r *rewriter) take() {
	b := rewriteBufPool.Get().(*rewriteBufs)
	r.bufs = b
	r.hold, r.batch, r.tok, r.tag.keys, r.st.buf = b.hold[:0], b.batch[:0], b.tok[:0], b.keys[:0], b.head[:0]
	r.tag.list, r.z.attrs = b.attrs[:0], b.spans[:0]
}

// release gives r's buffers back once it no longer rewrites.
func (r *rewriter) release() {
	b := r.bufs
	if b == nil {
		return
	}
	r.bufs = nil
	keep := func(p []byte) []byte {
		if cap(p) > maxPooledBuf {
			return nil
		}
		return p[:0]
	}
	b.hold, b.batch, b.tok, b.keys, b.head = keep(r.hold), keep(r.batch), keep(r.tok), keep(r.tag.keys), keep(r.st.buf)
	b.attrs, b.spans = r.tag.list[:0], r.z.attrs[:0]
	if cap(b.attrs) > 1024 || cap(b.spans) > 1024 {
		b.attrs, b.spans = nil, nil
	}
	clear(b.attrs[:cap(b.attrs)]) // no references into this response's bytes
	r.hold, r.batch, r.tok, r.tag, r.st.buf, r.z.attrs = nil, nil, nil, tagAttrs{}, nil, nil
	rewriteBufPool.Put(b)
}

// newDecodingRewriter is NewRewriter for input in one content coding
// (gzip, br, zstd, deflate), undone on the way: the output is identity.
// When the decoder fails (corrupt or truncated input, a zstd window over
// maxZstdWindow), the output stops where it was, without what the rewriter
// held back, and Write or Close return a *decodeError: the output is then a
// prefix of the page that the caller must not let pass for the whole page.
// maxDecoded bounds the decoded bytes (0: no bound), so a decompression
// bomb cannot make the response a thousand times the size the origin sent:
// past it the decoder fails with ErrTooLarge.
func newDecodingRewriter(w io.Writer, inj *Injection, coding string, maxDecoded int64) io.WriteCloser {
	rw := newRewriter(w, inj)
	if coding == "" {
		return rw
	}
	return &decodingWriter{next: rw, coding: coding, maxDecoded: maxDecoded}
}

// rewriter is the streaming rewrite, driven by Write on the caller's
// goroutine: the tokenizer reports each token as it completes, the
// rewriteState says what to write for it, and the bytes of a token it may
// still change are held until the token is complete.
type rewriter struct {
	out io.Writer
	st  *rewriteState
	z   tokenizer

	n       int64  // stream offset of the next Write's first byte
	emitted int64  // input before this offset is written or in the batch
	hold    []byte // input [emitted, n): the start of an incomplete token
	batch   []byte // output of this Write, when it is not a slice of the input
	tok     []byte // a token straddling two Writes, made contiguous
	tag     tagAttrs
	bufs    *rewriteBufs // where the buffers above came from; nil once released
	plan    *plan        // when set, the insertions are recorded in it

	pass   bool // nothing left to change: bytes are copied as they come
	closed bool
	err    error // first error writing to out
}

// Write rewrites p and writes out everything it can.
func (r *rewriter) Write(p []byte) (n int, err error) {
	if r.closed {
		return 0, errClosed
	}
	if r.err != nil {
		return 0, r.err
	}
	if r.pass {
		return r.write(p)
	}
	base := r.n
	r.n += int64(len(p))
	defer func() {
		if v := recover(); v != nil {
			// A bug of ours: the origin's bytes still go out as they are.
			r.plan = nil
			r.failOpen(p, base)
			n, err = len(p), r.err
		}
	}()
	for {
		tt, s, e, ok := r.z.next(p, base)
		if !ok {
			break
		}
		r.token(tt, s, e, p, base)
		r.z.quiet = r.st.headDone && r.st.started // from here on only the tags needs wants
		if r.st.finished() {
			r.failOpen(p, base) // the rest goes out unchanged
			return len(p), r.err
		}
	}
	keep := max(r.z.holdFrom(!r.st.headDone, r.n), r.emitted)
	if r.n-keep > maxTokenBuf {
		// A tag or text run too large to hold: give up rewriting.
		r.plan = nil
		r.failOpen(p, base)
		return len(p), r.err
	}
	r.flushTo(keep, p, base)
	r.keep(keep, p, base)
	return len(p), r.err
}

// Close rewrites the last, incomplete token (text at the end of the page
// may still start the body) and writes out what is left.
func (r *rewriter) Close() error {
	if r.closed {
		return r.err
	}
	r.closed = true
	if r.pass || r.err != nil {
		return r.err
	}
	if tt, s, ok := r.z.eof(r.n); ok && tt != nethtml.ErrorToken {
		r.token(tt, s, r.n, nil, r.n)
	}
	r.flushTo(r.n, nil, r.n)
	r.release()
	return r.err
}

// token writes what the rewrite state makes of the token [s, e).
func (r *rewriter) token(tt nethtml.TokenType, s, e int64, p []byte, base int64) {
	if !r.st.needs(tt, r.z.tagName()) {
		return
	}
	raw := r.bytes(s, e, p, base)
	var tag attrSource
	if tt == nethtml.StartTagToken {
		r.tag.reset(raw, r.z.attrs)
		if r.tag.selfClosing {
			tt = nethtml.SelfClosingTagToken
		}
		tag = &r.tag
	}
	if !r.st.token(tt, raw, tag) {
		return
	}
	if raw == nil || s < r.emitted {
		panic("negotiate: rewriting a token already written")
	}
	for _, in := range r.st.ins {
		r.copyTo(s+int64(in.at), p, base)
		r.batch = append(r.batch, in.b...)
		if r.plan != nil {
			r.plan.add(s+int64(in.at), in.b)
		}
	}
}

// bytes returns the input [s, e), nil when part of it was already written
// (a token the rewrite state never changes: raw text, comments, the body's
// text).
func (r *rewriter) bytes(s, e int64, p []byte, base int64) []byte {
	if s >= base {
		return p[s-base : e-base]
	}
	held := base - int64(len(r.hold))
	if s < held {
		return nil
	}
	if e <= base {
		return r.hold[s-held : e-held]
	}
	r.tok = append(append(r.tok[:0], r.hold[s-held:]...), p[:e-base]...)
	return r.tok
}

// copyTo adds the input [r.emitted, x) to the batch.
func (r *rewriter) copyTo(x int64, p []byte, base int64) {
	if x <= r.emitted {
		return
	}
	if r.emitted < base {
		held := base - int64(len(r.hold))
		to := min(x, base)
		r.batch = append(r.batch, r.hold[r.emitted-held:to-held]...)
		r.emitted = to
	}
	if x > r.emitted {
		r.batch = append(r.batch, p[r.emitted-base:x-base]...)
		r.emitted = x
	}
}

// flushTo writes the batch and the input up to x. When nothing was changed
// or held, the input is written as it came, without a copy.
func (r *rewriter) flushTo(x int64, p []byte, base int64) {
	if len(r.batch) == 0 && r.emitted >= base {
		if x > r.emitted {
			r.write(p[r.emitted-base : x-base])
			r.emitted = x
		}
		return
	}
	r.copyTo(x, p, base)
	r.write(r.batch)
	r.batch = r.batch[:0]
}

// keep holds the input [x, r.n) for the next Write.
func (r *rewriter) keep(x int64, p []byte, base int64) {
	held := base - int64(len(r.hold))
	if x < base {
		r.hold = append(r.hold[:copy(r.hold, r.hold[x-held:])], p...)
	} else {
		r.hold = append(r.hold[:0], p[x-base:]...)
	}
}

// failOpen writes the batch, what is held and the rest of p unchanged,
// and lets everything after through as it comes.
func (r *rewriter) failOpen(p []byte, base int64) {
	r.pass = true
	r.copyTo(base, p, base)
	r.write(r.batch)
	r.write(p[r.emitted-base:])
	r.release()
}

// write writes b to out, recording the first error.
func (r *rewriter) write(b []byte) (int, error) {
	if len(b) == 0 || r.err != nil {
		return len(b), r.err
	}
	if _, err := r.out.Write(b); err != nil {
		r.err = fmt.Errorf("writing html: %w", err)
	}
	return len(b), r.err
}

// tagAttrs reads a start tag's attributes from the spans the tokenizer
// found, as x/net/html's Tokenizer returns them: keys lower-cased, the
// first of each key kept, values with character references decoded.
type tagAttrs struct {
	raw         []byte
	spans       []attrSpan
	selfClosing bool
	done        bool
	list        []attr
	keys        []byte // lower-cased keys
}

type attr struct{ key, val []byte }

func (t *tagAttrs) reset(raw []byte, spans []attrSpan) {
	t.raw, t.spans, t.done = raw, spans, false
	// x/net/html: a tag ending in "/>" is self-closing unless that '/' ends
	// the value of its last attribute (<a href=/>).
	t.selfClosing = len(raw) >= 2 && raw[len(raw)-2] == '/'
	if t.selfClosing {
		if last, ok := t.lastKept(); ok && last.v1-1 == len(raw)-2 {
			t.selfClosing = false
		}
	}
}

// lastKept is the last attribute x/net/html keeps (non-empty key, not a
// repeat).
func (t *tagAttrs) lastKept() (attrSpan, bool) {
	for i := len(t.spans) - 1; i >= 0; i-- {
		if t.kept(i) {
			return t.spans[i], true
		}
	}
	return attrSpan{}, false
}

// kept reports whether x/net/html keeps attribute i: a non-empty key seen
// for the first time.
func (t *tagAttrs) kept(i int) bool {
	a := t.spans[i]
	if a.k0 == a.k1 {
		return false
	}
	for _, b := range t.spans[:i] {
		if b.k0 != b.k1 && asciiFoldEqual(t.raw[a.k0:a.k1], t.raw[b.k0:b.k1]) {
			return false
		}
	}
	return true
}

// asciiFoldEqual reports whether a and b are equal once ASCII upper case
// is lowered, as x/net/html compares attribute keys (bytes.EqualFold would
// also fold Unicode, and read invalid UTF-8 as equal U+FFFDs).
func asciiFoldEqual(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i]|lowerBit(a[i]) != b[i]|lowerBit(b[i]) {
			return false
		}
	}
	return true
}

// attrs returns the attributes, computed on first use.
func (t *tagAttrs) attrs() []attr {
	if t.done {
		return t.list
	}
	t.done = true
	t.list, t.keys = t.list[:0], t.keys[:0]
	for i, a := range t.spans {
		if !t.kept(i) {
			continue
		}
		if k, v := t.raw[a.k0:a.k1], t.raw[a.v0:a.v1]; bytes.IndexByte(k, 0) >= 0 ||
			bytes.IndexByte(v, '&') >= 0 || bytes.IndexByte(v, '\r') >= 0 || bytes.IndexByte(v, 0) >= 0 {
			// Character references, CR and NUL: x/net/html decodes and
			// replaces them; let it, on this tag's bytes alone.
			t.list = libraryAttrs(t.raw, t.list[:0])
			return t.list
		}
		k0 := len(t.keys)
		for _, c := range t.raw[a.k0:a.k1] {
			t.keys = append(t.keys, c|lowerBit(c))
		}
		t.list = append(t.list, attr{key: t.keys[k0:len(t.keys):len(t.keys)], val: t.raw[a.v0:a.v1]})
	}
	return t.list
}

// libraryAttrs tokenizes the complete start tag raw with x/net/html.
func libraryAttrs(raw []byte, dst []attr) []attr {
	z := nethtml.NewTokenizer(bytes.NewReader(raw))
	z.Next()
	for {
		k, v, more := z.TagAttr()
		if k == nil {
			return dst
		}
		dst = append(dst, attr{key: bytes.Clone(k), val: bytes.Clone(v)})
		if !more {
			return dst
		}
	}
}

// decodingWriter undoes a content coding in front of a rewriter. The
// decompressors pull their input, so a goroutine runs the decoder over
// what Write hands it: Write passes its slice and waits until the
// goroutine has consumed it and asks for more, so the goroutine never runs
// at the same time as the caller, and the rewriter's writes keep the order
// and the goroutine of a plain io.Writer call.
type decodingWriter struct {
	next       io.WriteCloser
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
		return 0, errClosed
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
		if r, ok := d.next.(*rewriter); ok {
			r.closed = true
			r.release()
		}
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
