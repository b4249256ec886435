package negotiate

import (
	"errors"
	"hash/maphash"
	"io"
	"sync"

	"github.com/agentready/caddy-agentready/internal/lru"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
)

// A compressed HTML page is annotated in its own content coding: decoded,
// rewritten, and encoded again in the coding the origin chose, then sent
// only if it is not larger than the origin's bytes (issue 23, hole 10: a
// browser never gets more bytes on the wire than the origin sent it). The
// levels are chosen by size against what origins send, with the
// annotations of the demo (a Markdown link and JSON-LD, 250 bytes): gzip
// 9 beats the gzip 6 of most servers (and Caddy's 5) on pages of some
// size; of klauspost's zstd levels only the best beats the default and the
// fastest (which, on repetitive pages, beats the two between); brotli 5
// beats the 4 of CDNs that compress on the fly, while no level short of 11
// (a second a megabyte) beats 5 or more: such a page, like a precompressed
// one, goes out as the origin sent it, unannotated ("rewrite_larger").

// errLarger stops an encoder whose output passed the origin's size.
var errLarger = errors.New("the annotated page encodes larger than the origin's")

// encodeAs appends page encoded in coding (gzip, x-gzip, br, zstd or
// deflate, as singleCoding returns them) to dst. It fails with errLarger,
// and stops encoding, once the output would be more than limit bytes.
func encodeAs(dst []byte, page []byte, coding string, limit int) ([]byte, error) {
	out := &cappedBuffer{b: dst, limit: len(dst) + limit}
	enc := encoderFor(coding)
	defer enc.put()
	enc.w.Reset(out)
	if _, err := enc.w.Write(page); err != nil {
		return dst, err
	}
	if err := enc.w.Close(); err != nil {
		return dst, err
	}
	return out.b, nil
}

// cappedBuffer is a growing buffer that refuses to pass limit bytes.
type cappedBuffer struct {
	b     []byte
	limit int
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if len(c.b)+len(p) > c.limit {
		return 0, errLarger
	}
	c.b = append(c.b, p...)
	return len(p), nil
}

// resetWriter is an encoder that can be pointed at another output.
type resetWriter interface {
	io.WriteCloser
	Reset(io.Writer)
}

// pooledEncoder is an encoder from its coding's pool.
type pooledEncoder struct {
	w    resetWriter
	pool *sync.Pool
}

func (e pooledEncoder) put() {
	e.w.Reset(io.Discard) // drop the reference to the response's buffer
	e.pool.Put(e.w)
}

var (
	gzipPool = sync.Pool{New: func() any {
		w, _ := gzip.NewWriterLevel(nil, gzip.BestCompression) // a valid level: no error
		return w
	}}
	zlibPool = sync.Pool{New: func() any {
		w, _ := zlib.NewWriterLevel(nil, zlib.BestCompression)
		return w
	}}
	brotliPool = sync.Pool{New: func() any { return brotli.NewWriterLevel(nil, 5) }}
	zstdPool   = sync.Pool{New: func() any {
		// One goroutine, and the 8 MiB window RFC 9659 §3 allows the
		// "zstd" content coding (maxZstdWindow).
		w, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression),
			zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(maxZstdWindow))
		return w
	}}
)

// encoderFor returns a pooled encoder of coding.
func encoderFor(coding string) pooledEncoder {
	pool := &gzipPool
	switch coding {
	case "br":
		pool = &brotliPool
	case "zstd":
		pool = &zstdPool
	case "deflate":
		// RFC 9110 §8.4.1.2: "deflate" is the zlib format; the raw
		// deflate some origins send decodes too, and is answered in zlib.
		pool = &zlibPool
	}
	return pooledEncoder{w: pool.Get().(resetWriter), pool: pool}
}

// encodedCache keeps what a compressed page became: the annotated page
// encoded again, or why the origin's bytes went out instead. Decoding,
// rewriting and encoding a page at the levels above costs milliseconds
// (zstd's best level about 12 ms for a 120 KB page); the same origin bytes
// with the same injection give the same result, so it is kept under a
// hash of those bytes (maphash, this process's secret seed: an origin
// cannot choose bytes that collide) and their length, bounded in bytes
// like the rewrite plans. It is safe for concurrent use; nil keeps
// nothing.
type encodedCache struct {
	mu sync.Mutex
	c  *lru.Cache[encodedKey, *encodedPage]
}

type encodedKey struct {
	sum, inj uint64
	n        int
	coding   string
}

// encodedPage is a compressed page annotated in its coding (out), or, when
// out is nil, why it went out as the origin sent it.
type encodedPage struct {
	out    []byte
	reason string
	err    error
}

var encodedSeed = maphash.MakeSeed()

func newEncodedCache(maxBytes int64) *encodedCache {
	return &encodedCache{c: lru.New[encodedKey, *encodedPage](maxBytes)}
}

// key names the origin's bytes page, in coding, with inj; ok is false
// when the result is not to be kept (no cache, or an injection without a
// Key, whose bytes may differ between requests).
func (c *encodedCache) key(page []byte, coding string, inj *Injection) (k encodedKey, ok bool) {
	if c == nil || inj == nil || inj.Key == "" {
		return k, false
	}
	return encodedKey{sum: maphash.Bytes(encodedSeed, page), inj: maphash.String(encodedSeed, inj.Key), n: len(page), coding: coding}, true
}

func (c *encodedCache) get(k encodedKey) *encodedPage {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, _ := c.c.Get(k)
	return p
}

// put keeps p, copying its bytes out of the response's buffer.
func (c *encodedCache) put(k encodedKey, p encodedPage) {
	p.out = append([]byte(nil), p.out...)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.c.Add(k, &p, int64(len(p.out))+96)
}
