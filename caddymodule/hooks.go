package caddymodule

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
)

// The hooks the negotiate handler calls around a conversion: Admit before
// it buffers a page, Cached before it converts one, Convert to convert it.

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

// cacheKey is the conversion cache's key for page; ok is false when there
// is no cache or the page must not be cached (see convert.Cache.Key).
func (ar *AgentReady) cacheKey(page negotiate.Page) (key string, ok bool) {
	if ar.cache == nil {
		return "", false
	}
	return ar.cache.Key(page.URL.String(), page.Request, page.Header, ar.optsHash)
}

// convertPage is the negotiate.ConvertFunc: the converter built in
// Provision, within the page's budget (its context's deadline and
// max_markdown_size), its result kept in the conversion cache.
func (ar *AgentReady) convertPage(html []byte, page negotiate.Page) (*negotiate.Converted, error) {
	ctx := page.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if isBackground(ctx) {
		// convert_timeout keeps a waiting client's latency bounded; the
		// content index and llms-full.txt wait for no one, and a large page
		// converted on a busy machine must not drop out of them for it.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), backgroundConvertTimeout)
		defer cancel()
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
