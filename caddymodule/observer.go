package caddymodule

import (
	"net/http"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/negotiate"
)

// observer turns the negotiation events of one handler into metrics and
// log lines. Requests of the self-scan are left out of the metrics.
type observer struct {
	logger *zap.Logger
	// counting reports the tokens of each Markdown response to the
	// traffic counts of its request (see serveTraffic).
	counting bool
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
	if o.counting {
		if tw := requestTraffic(r); tw != nil {
			tw.tokens, tw.htmlBytes = int64(tokens), int64(in)
		}
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
	case reason == "rewrite_larger":
		msg = "compressed html sent as the origin sent it, unannotated: annotated, it encodes larger than the origin's bytes"
	case reason == "rewrite_size":
		msg = "compressed html sent as the origin sent it, unannotated: over 256 KiB compressed, or over max_size decoded"
	case reason == "plan_mismatch":
		msg = "html page changed under the same strong ETag and length: the rest went out unannotated, the length made up with trailing spaces; the plan is dropped"
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

// Interface guards
var _ negotiate.Observer = observer{}
