package caddymodule

import (
	"net/http"
	"time"

	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/internal/telemetry"
	"github.com/agentready/caddy-agentready/negotiate"
)

// observer turns the negotiation events of one handler into metrics
// (package telemetry) and log lines. Requests of the self-scan are left
// out of the metrics.
type observer struct {
	logger *zap.Logger
	// counting reports the tokens of each Markdown response to the
	// traffic counts of its request (see serveTraffic).
	counting bool
}

func (o observer) Served(r *http.Request, form string) {
	if !isInternal(r) {
		telemetry.Served(form)
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
	if o.counting {
		if tw := requestTraffic(r); tw != nil {
			tw.Tokens, tw.HTMLBytes = int64(tokens), int64(in)
		}
	}
	if !isInternal(r) {
		telemetry.Converted(d, in, out, tokens)
	}
}

func (o observer) Rewrote(r *http.Request, fromPlan bool) {
	if !isInternal(r) {
		telemetry.Rewrote(fromPlan)
	}
}

func (o observer) FailOpen(r *http.Request, reason string, err error) {
	o.logger.Warn(telemetry.FailOpenMessage(reason),
		zap.String("uri", r.RequestURI),
		zap.String("reason", reason),
		zap.Error(err))
	if !isInternal(r) {
		telemetry.FailedOpen(reason)
	}
}

// Interface guards
var _ negotiate.Observer = observer{}
