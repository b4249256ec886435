package discover

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"
)

// pacer spaces the starts of requests by a fixed gap, across goroutines.
type pacer struct {
	mu   sync.Mutex
	gap  time.Duration
	next time.Time
}

// wait blocks until the caller's turn, or ctx ends.
func (p *pacer) wait(ctx context.Context) error {
	if p.gap <= 0 {
		return ctx.Err()
	}
	p.mu.Lock()
	now := time.Now()
	at := p.next
	if at.Before(now) {
		at = now
	}
	p.next = at.Add(p.gap)
	p.mu.Unlock()
	if d := time.Until(at); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return ctx.Err()
}

// get sends one GET for key with the given Accept and extra headers, after
// its turn under the politeness delay. Redirects are not followed. The
// caller closes the body.
func (c *crawler) get(ctx context.Context, key, accept string, hdr http.Header) (*http.Response, error) {
	if err := c.pace.wait(ctx); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.s.fetchURL(key), nil)
	if err != nil {
		return nil, err
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", c.o.UserAgent)
	c.requests.Add(1)
	resp, err := c.o.Client.Do(req)
	if err == nil && resp.Request == nil {
		resp.Request = req // a RoundTripper need not set it; links resolve against it
	}
	return resp, err
}

// countingReader counts the bytes read through it and stops at a limit.
type countingReader struct {
	r      io.Reader
	left   int64
	n      int64
	hitCap bool
}

func (cr *countingReader) Read(p []byte) (int, error) {
	if cr.left <= 0 {
		cr.hitCap = true
		return 0, io.EOF
	}
	if int64(len(p)) > cr.left {
		p = p[:cr.left]
	}
	n, err := cr.r.Read(p)
	cr.left -= int64(n)
	cr.n += int64(n)
	return n, err
}

// isHTML says whether a Content-Type names an HTML document.
func isHTML(ctype string) bool {
	mt, _, err := mime.ParseMediaType(ctype)
	return err == nil && (mt == "text/html" || mt == "application/xhtml+xml")
}

// decodeBody undoes a gzip Content-Encoding (the only coding an origin may
// send unasked in practice: no Accept-Encoding is sent); other codings are
// an error.
func decodeBody(resp *http.Response, r io.Reader) (io.Reader, func(), error) {
	switch ce := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))); ce {
	case "", "identity":
		return r, func() {}, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, nil, fmt.Errorf("gzip body: %v", err)
		}
		return zr, func() { zr.Close() }, nil
	default:
		return nil, nil, fmt.Errorf("unsupported content coding %q", ce)
	}
}

// xRobotsTag reads the X-Robots-Tag header lines that apply to agent: lines
// without a user-agent prefix, and lines prefixed "agent:". It reports
// noindex and nofollow ("none" is both).
func xRobotsTag(h http.Header, agent string) (noindex, nofollow bool) {
	for _, line := range h.Values("X-Robots-Tag") {
		if name, rest, ok := strings.Cut(line, ":"); ok {
			n := strings.ToLower(strings.TrimSpace(name))
			if n != "" && !strings.ContainsAny(n, " ,") && !xRobotsDirectives[n] {
				if n != agent {
					continue
				}
				line = rest
			}
		}
		f := &pageFacts{}
		f.applyRobots(line)
		noindex = noindex || f.noindex
		nofollow = nofollow || f.nofollow
	}
	return noindex, nofollow
}

// xRobotsDirectives are the X-Robots-Tag directives that take a value after
// a colon, so that "unavailable_after: …" is not read as a user agent.
var xRobotsDirectives = map[string]bool{
	"unavailable_after": true, "max-snippet": true, "max-image-preview": true, "max-video-preview": true,
}
