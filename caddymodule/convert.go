package caddymodule

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
)

// admit is the negotiate handler's Admit hook. A page being converted
// holds its body, a decoded copy, its DOM and the Markdown: about 15 times
// its size. The bytes of HTML buffered for conversion at once are bounded;
// requests beyond the bound wait before their body is read (the
// conversions are CPU-bound: waiting costs no throughput), or give up with
// their client.
func (ar *AgentReady) admit(ctx context.Context, n int64) (func(), error) {
	weight := min(n, ar.inflightMax)
	if err := ar.inflight.Acquire(ctx, weight); err != nil {
		return nil, fmt.Errorf("waiting for a conversion slot: %w", err)
	}
	return func() { ar.inflight.Release(weight) }, nil
}

// cachedPage is the negotiate handler's Cached hook: a conversion of the
// same page, validators and settings made earlier, if the cache has one.
func (ar *AgentReady) cachedPage(page negotiate.Page) *negotiate.Converted {
	key, ok := ar.cacheKey(page)
	if !ok {
		return nil
	}
	res, hit := ar.cache.Get(key)
	cacheLookup(hit)
	if !hit {
		return nil
	}
	return &negotiate.Converted{Markdown: res.Markdown, Tokens: res.Tokens}
}

// cacheKey is the conversion cache's key for page; ok is false when the
// page must not be cached (no validators, private, or not shareable).
func (ar *AgentReady) cacheKey(page negotiate.Page) (key string, ok bool) {
	if ar.cache == nil || !shareable(page.Request, page.Header) {
		return "", false
	}
	return ar.cache.Key(page.URL.String(), page.Header, ar.optsHash)
}

// convertPage is the negotiate.ConvertFunc: the converter built in
// Provision, within the page's budget (its context's deadline and
// max_markdown_size), its result kept in the conversion cache.
func (ar *AgentReady) convertPage(html []byte, page negotiate.Page) (*negotiate.Converted, error) {
	ctx := page.Context
	if ctx == nil {
		ctx = context.Background()
	}
	res, err := ar.conv.ConvertContext(ctx, html, page.URL, page.Header)
	if errors.Is(err, convert.ErrTooLarge) {
		return nil, fmt.Errorf("%w: %v", negotiate.ErrMarkdownTooLarge, err)
	}
	if err != nil {
		return nil, err
	}
	if key, ok := ar.cacheKey(page); ok {
		ar.cache.Put(key, res)
	}
	return &negotiate.Converted{Markdown: res.Markdown, Tokens: res.Tokens}, nil
}

// shareable reports whether a conversion may be reused for other clients.
// The conversion cache is shared, so it follows RFC 9111 §3.5: a response to
// a request with Authorization is reused only when the origin marked it
// public, s-maxage or must-revalidate. A request with cookies is treated
// the same way: the origin may have personalised the page without saying so.
func shareable(req, resp http.Header) bool {
	if req.Get("Authorization") == "" && req.Get("Cookie") == "" {
		return true
	}
	for _, cc := range resp.Values("Cache-Control") {
		for _, d := range strings.Split(cc, ",") {
			name, _, _ := strings.Cut(strings.TrimSpace(d), "=")
			switch strings.ToLower(name) {
			case "public", "s-maxage", "must-revalidate":
				return true
			}
		}
	}
	return false
}

// injection is the per-request set of HTML annotations of the site.
func (ar *AgentReady) injection(r *http.Request) *negotiate.Injection {
	b := ar.docs.bundleFor(r)
	if b.err != nil || b.Bundle == nil {
		return nil
	}
	return b.injection(r)
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

// observer turns the negotiation events of one handler into metrics and
// log lines. Requests of the self-scan are left out of the metrics.
type observer struct {
	logger *zap.Logger
}

func (o observer) Served(r *http.Request, form string) {
	if !isInternal(r) {
		served(form)
	}
}

func (o observer) Converted(r *http.Request, d time.Duration, in, out, tokens int) {
	// Check first: the fields of a call to Debug are allocated even when
	// the level is off (one allocation, 320 B, a warm Markdown request).
	if ce := o.logger.Check(zap.DebugLevel, "converted to markdown"); ce != nil {
		ce.Write(zap.String("uri", r.RequestURI),
			zap.Duration("duration", d),
			zap.Int("html_bytes", in),
			zap.Int("markdown_bytes", out),
			zap.Int("tokens", tokens))
	}
	if isInternal(r) {
		return
	}
	metrics.conversions.Inc()
	metrics.duration.Observe(d.Seconds())
	metrics.bytesIn.Add(float64(in))
	metrics.bytesOut.Add(float64(out))
	metrics.tokensOut.Add(float64(tokens))
}

func (o observer) Rewrote(r *http.Request, fromPlan bool) {
	if isInternal(r) {
		return
	}
	if fromPlan {
		metrics.rewrotePlan.Inc()
	} else {
		metrics.rewroteRead.Inc()
	}
}

func (o observer) FailOpen(r *http.Request, reason string, err error) {
	msg := "markdown conversion failed open; serving the original response"
	switch {
	case reason == "rewrite_abort":
		msg = "html rewrite aborted: the page stopped decoding after part of it was sent"
	case strings.HasPrefix(reason, "rewrite"):
		msg = "html rewrite failed open; serving the origin's page without its annotations"
	}
	o.logger.Warn(msg,
		zap.String("uri", r.RequestURI),
		zap.String("reason", reason),
		zap.Error(err))
	if !isInternal(r) {
		metrics.failOpen.WithLabelValues(reason).Inc()
	}
}
