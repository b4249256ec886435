package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// Generated pages the origin serves besides the site's files.
const (
	bigPath  = "/big.html"  // an article of -big bytes (2 MB by default)
	hugePath = "/huge.html" // an article of -huge bytes (50 MB by default)
	bombPath = "/bomb.html" // gzip that inflates to -bomb bytes (1 GiB by default)

	// chunkedPrefix in front of any path serves the same page without a
	// Content-Length or validators, in chunkedPiece writes each flushed:
	// the response of a dynamic origin that streams (chunked on HTTP/1.1).
	chunkedPrefix = "/chunked"
	chunkedPiece  = 32 << 10
)

// sizedPages are the pages of the overhead measurement (run.sh overhead):
// articles of a small, a typical and a large page's size.
var sizedPages = []struct {
	path string
	size int
}{
	{"/size/1k.html", 1 << 10},
	{"/size/60k.html", 60 << 10},
	{"/size/250k.html", 250 << 10}, // the page of the starve measurement
	{"/size/1m.html", 1 << 20},
}

// resource is one response body the origin holds in memory.
type resource struct {
	body     []byte
	ctype    string
	encoding string // Content-Encoding, "" for identity
	etag     string
}

// origin is a static origin held in memory: the site's files plus the
// generated pages, each with a strong ETag so a proxy can revalidate.
type origin struct {
	files   map[string]*resource
	modtime time.Time
}

// originConfig is what the origin serves.
type originConfig struct {
	// Site is the directory served at "/"; "" serves only the generated
	// pages. Default: "examples/site".
	Site string
	// Big is the size in bytes of bigPath. Default: 2,000,000.
	Big int
	// Huge is the size in bytes of hugePath. Default: 50,000,000.
	Huge int
	// Bomb is the inflated size in bytes of bombPath. Default: 1 GiB.
	Bomb int64
}

// newOrigin loads cfg.Site and generates the large pages.
func newOrigin(cfg originConfig) (*origin, error) {
	o := &origin{files: map[string]*resource{}, modtime: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	if cfg.Site != "" {
		err := filepath.WalkDir(cfg.Site, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			body, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(cfg.Site, p)
			if err != nil {
				return err
			}
			o.add("/"+filepath.ToSlash(rel), body, "")
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("loading site %s: %w", cfg.Site, err)
		}
	}
	o.add(bigPath, articlePage("big", cfg.Big), "")
	o.add(hugePath, articlePage("huge", cfg.Huge), "")
	for _, p := range sizedPages {
		o.add(p.path, articlePage(strings.TrimSuffix(path.Base(p.path), ".html"), p.size), "")
	}
	bomb, err := gzipBomb(cfg.Bomb)
	if err != nil {
		return nil, err
	}
	o.add(bombPath, bomb, "gzip")
	return o, nil
}

// add stores body under name with a strong ETag over its bytes.
func (o *origin) add(name string, body []byte, encoding string) {
	sum := sha256.Sum256(body)
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	o.files[name] = &resource{body: body, ctype: ctype, encoding: encoding, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
}

// lookup finds the resource for a request path the way Caddy's
// `try_files {path} {path}.html {path}/index.html` does.
func (o *origin) lookup(p string) *resource {
	p = path.Clean("/" + p)
	for _, c := range []string{p, p + ".html", strings.TrimSuffix(p, "/") + "/index.html"} {
		if r, ok := o.files[c]; ok {
			return r
		}
	}
	return nil
}

// ServeHTTP answers GET and HEAD from memory. The query string is ignored,
// so unique queries defeat a proxy's cache without changing the page.
func (o *origin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p, chunked := strings.CutPrefix(r.URL.Path, chunkedPrefix+"/")
	if !chunked {
		p = r.URL.Path
	}
	res := o.lookup(p)
	if res == nil {
		http.NotFound(w, r)
		return
	}
	if chunked {
		serveChunked(w, r, res)
		return
	}
	h := w.Header()
	h.Set("Content-Type", res.ctype)
	h.Set("ETag", res.etag)
	if res.encoding != "" {
		// A hostile or misconfigured origin: the coding is sent whatever
		// the request's Accept-Encoding says (RFC 9110 §12.5.3 allows a
		// server to ignore it), which is what a proxy must survive.
		h.Set("Content-Encoding", res.encoding)
		h.Set("Vary", "Accept-Encoding")
	}
	// ServeContent evaluates If-None-Match against the ETag set above
	// (RFC 9110 §13.1.2, weak comparison) and answers 304, and handles
	// HEAD and Range like a file server.
	http.ServeContent(w, r, "", o.modtime, bytes.NewReader(res.body))
}

// serveChunked sends res the way a dynamic origin does: no Content-Length,
// no validators, the body in flushed pieces (so net/http cannot compute a
// length and sends it chunked).
func serveChunked(w http.ResponseWriter, r *http.Request, res *resource) {
	h := w.Header()
	h.Set("Content-Type", res.ctype)
	if res.encoding != "" {
		h.Set("Content-Encoding", res.encoding)
	}
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	rc := http.NewResponseController(w)
	for b := res.body; len(b) > 0; {
		n := min(len(b), chunkedPiece)
		if _, err := w.Write(b[:n]); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
		b = b[n:]
	}
}

// runOrigin is the origin subcommand: it serves until ctx ends.
func runOrigin(ctx context.Context, args []string) error {
	fl := flag.NewFlagSet("origin", flag.ContinueOnError)
	addr := fl.String("addr", "127.0.0.1:0", "loopback address to listen on")
	var cfg originConfig
	fl.StringVar(&cfg.Site, "site", "examples/site", "directory served at /")
	fl.IntVar(&cfg.Big, "big", 2_000_000, "size of "+bigPath+" in bytes")
	fl.IntVar(&cfg.Huge, "huge", 50_000_000, "size of "+hugePath+" in bytes")
	fl.Int64Var(&cfg.Bomb, "bomb", 1<<30, "inflated size of "+bombPath+" in bytes")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if err := loopbackOnly(*addr); err != nil {
		return err
	}
	o, err := newOrigin(cfg)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("origin: %w", err)
	}
	fmt.Fprintf(os.Stderr, "origin: serving %d resources on http://%s\n", len(o.files), ln.Addr())
	srv := &http.Server{Handler: o, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("origin: %w", err)
	}
	return nil
}

// loopbackOnly refuses any listen or target address that is not loopback:
// the benchmarks never leave the machine.
func loopbackOnly(hostport string) error {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return fmt.Errorf("address %q: %w", hostport, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("address %q is not loopback", hostport)
	}
	return nil
}

// runPorts prints n free loopback TCP ports, one a line.
func runPorts(args []string) error {
	n := 1
	if len(args) > 0 {
		if _, err := fmt.Sscan(args[0], &n); err != nil || n < 1 || n > 64 {
			return fmt.Errorf("ports: bad count %q", args[0])
		}
	}
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("ports: %w", err)
		}
		lns = append(lns, ln)
		fmt.Println(ln.Addr().(*net.TCPAddr).Port)
	}
	return nil
}
