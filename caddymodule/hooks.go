package caddymodule

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/internal/telemetry"
	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
)

// The hooks the negotiate handler calls around a conversion: Admit before
// it buffers a page, Cached before it converts one, Convert to convert it.

// admit is the negotiate handler's Admit hook: the client's gate and the
// memory gate (see admission). A page being converted holds its body, a
// decoded copy, its DOM and the Markdown: about 15 times its size. The
// bytes of HTML buffered for conversion at once are bounded; requests
// beyond the bound wait before their body is read, or give up with their
// client or at queue_timeout. The deadline is kept for runConversion,
// under the request's context until the admission is released: one
// deadline for all the waiting. Not in the request's Caddy variables: the
// reverse proxy's dials for the request read those in goroutines of
// their own while the response is written (a concurrent map write, which
// go test -race caught in TestFaultReloadUnderLoad).
func (ar *AgentReady) admit(ctx context.Context, n int64) (func(), error) {
	key, wait := clientKey(ctx), ar.queueTimeout
	if isBackground(ctx) {
		// The module's own reads (content index, llms-full.txt) are one
		// client, and wait as long as their conversion may take.
		key, wait = "agent_ready background", backgroundConvertTimeout
	}
	deadline := time.Now().Add(wait)
	release, err := ar.gate.Admit(ctx, key, n, deadline)
	if err != nil {
		return nil, err
	}
	queueDeadlines.Store(ctx, deadline)
	return func() {
		queueDeadlines.Delete(ctx)
		release()
	}, nil
}

// runConversion is the negotiate handler's Run hook: a CPU slot, shared by
// every agent_ready handler of the process, by the deadline admit set.
func (ar *AgentReady) runConversion(ctx context.Context) (func(), error) {
	d, _ := queueDeadlines.Load(ctx)
	deadline, ok := d.(time.Time)
	if !ok {
		deadline = time.Now().Add(ar.queueTimeout)
	}
	return ar.gate.Run(ctx, deadline)
}

// queueDeadlines carries a conversion's queue deadline from admit to
// runConversion, keyed by the request's context (negotiate passes the
// same one to both), from admission to its release.
var queueDeadlines sync.Map

// clientKey is the client a request's conversions are counted for: the
// address clientAddr reads from the request as it came in (behind
// trusted_proxies, the forwarded address read right to left, as the rate
// limit reads it: Caddy's client_ip is the leftmost entry, which the
// client writes, unless trusted_proxies_strict is on).
func clientKey(ctx context.Context) string {
	if r, ok := ctx.Value(caddyhttp.OriginalRequestCtxKey).(http.Request); ok {
		return clientAddr(r.WithContext(ctx)).String()
	}
	ip, _ := caddyhttp.GetVar(ctx, caddyhttp.ClientIPVarKey).(string)
	return ip
}

// cachedPage is the negotiate handler's Cached hook: a conversion of the
// same page, validators and settings made earlier, if the cache has one.
func (ar *AgentReady) cachedPage(page negotiate.Page) *negotiate.Converted {
	key, ok := ar.cacheKey(page)
	if !ok {
		return nil
	}
	res, hit := ar.cache.Get(key)
	telemetry.CacheLookup(hit)
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
	return ar.cache.KeyURL(page.URL, page.Request, page.Header, ar.optsHash)
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
	// The content index asks for the Markdown and searches the HTML's
	// text: it gets the text of the page it holds here, so it need not
	// fetch the page a second time as HTML.
	connect.PageTextFrom(ctx).Keep(html)
	return &negotiate.Converted{Markdown: res.Markdown, Tokens: res.Tokens}, nil
}
