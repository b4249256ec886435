package caddymodule

import (
	"context"
	"net/http"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/internal/inproc"
	"github.com/agentready/caddy-agentready/internal/outsider"
	"github.com/agentready/caddy-agentready/pages"
)

// inProcessTransport carries the module's own requests into handler, the
// site's own server, in process (inproc.Transport), each arriving as an
// anonymous outside visitor's of site. Every request it carries is marked
// internal (see isInternal), and keeps the caller's marks of discovery
// (originOnly) and background work (isBackground) and the content index's
// page text (connect.PageText).
type inProcessTransport struct {
	handler http.Handler
	site    outsider.Site
}

// RoundTrip implements http.RoundTripper.
func (t inProcessTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return inproc.Transport{Handler: t.handler, Site: t.site, Carry: ownMarks}.RoundTrip(req)
}

// ownMarks is what an in-process request's handler sees of its caller's
// context: the marks of the module's own requests.
func ownMarks(caller, ctx context.Context) context.Context {
	ctx = context.WithValue(ctx, internalKey{}, true)
	if inproc.Marked[originOnlyKey](caller) {
		ctx = context.WithValue(ctx, originOnlyKey{}, true)
	}
	if isBackground(caller) {
		ctx = context.WithValue(ctx, backgroundKey{}, true)
	}
	if pt := connect.PageTextFrom(caller); pt != nil {
		ctx = connect.WithPageText(ctx, pt) // the index's Markdown request: see convertPage
	}
	return ctx
}

// originOnlyKey marks a request of the site's discovery (pages.OriginOnly):
// agent_ready hands it to the next handler without answering it from its
// generated documents, so discovery reads the origin's own robots.txt and
// sitemaps.
type originOnlyKey = pages.OriginOnly

// originOnly reports whether r is a request of the site's discovery.
func originOnly(r *http.Request) bool { return inproc.Marked[originOnlyKey](r.Context()) }

// originOnlyTransport marks each request it carries as discovery's.
type originOnlyTransport struct{ http.RoundTripper }

// RoundTrip implements http.RoundTripper.
func (t originOnlyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return inproc.Mark[originOnlyKey](t).RoundTrip(r)
}

// backgroundKey marks a request of background work that no client waits
// for (pages.Background): its conversion gets backgroundConvertTimeout
// instead of convert_timeout (see convertPage).
type backgroundKey = pages.Background

// backgroundConvertTimeout bounds the conversion of a page fetched by
// background work: the fetch's own timeout (connect's FetchTimeout).
const backgroundConvertTimeout = pages.FetchTimeout

// isBackground reports whether ctx is a background request's.
func isBackground(ctx context.Context) bool { return inproc.Marked[backgroundKey](ctx) }

// backgroundTransport marks each request it carries as background work.
type backgroundTransport struct{ http.RoundTripper }

// RoundTrip implements http.RoundTripper.
func (t backgroundTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return inproc.Mark[backgroundKey](t).RoundTrip(r)
}
