// Package telemetry defines agent_ready's Prometheus metrics
// (caddy_agent_ready_*) and counts the events of the proxy into them. The
// collectors are created once per process and registered with each
// config's registry (the glue hands it Caddy's, which serves them at
// /metrics on the admin endpoint), the way reverse_proxy registers its
// own. It imports no Caddy package.
package telemetry

import (
	"errors"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

const ns, sub = "caddy", "agent_ready"

// Set holds the collectors of the conversions, the documents and the
// self-score.
type Set struct {
	Responses   *prometheus.CounterVec
	Conversions prometheus.Counter
	Duration    prometheus.Histogram
	BytesIn     prometheus.Counter
	BytesOut    prometheus.Counter
	TokensOut   prometheus.Counter
	FailOpen    *prometheus.CounterVec
	Cache       *prometheus.CounterVec
	Rewrites    *prometheus.CounterVec
	SelfScore   *prometheus.GaugeVec
	Documents   *prometheus.CounterVec
	// Indexes reports the content indexes of the built-in MCP endpoints.
	Indexes *IndexCollector

	// The children of Responses, Rewrites and Cache that requests count,
	// looked up once: WithLabelValues hashes the label and takes a lock on
	// each call (about 0.1 µs a request, measured in
	// BenchmarkServeHTTPOverhead).
	servedMarkdown, servedHTML, servedPassthrough prometheus.Counter
	rewrotePlan, rewroteRead                      prometheus.Counter
	cacheHit, cacheMiss                           prometheus.Counter
}

// M is the process's collectors.
var M = newSet()

func counter(name, help string) prometheus.Counter {
	return prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: name, Help: help})
}

func counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: name, Help: help}, labels)
}

func newSet() *Set {
	m := &Set{
		Responses:   counterVec("responses_total", "Responses that went through agent_ready, by form (markdown, html, passthrough).", "form"),
		Conversions: counter("conversions_total", "HTML pages converted to Markdown (conversion cache hits included)."),
		Duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: ns, Subsystem: sub, Name: "conversion_duration_seconds",
			Help:    "Time to decode, extract and convert one page.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
		}),
		BytesIn:   counter("html_bytes_total", "Decoded HTML bytes converted to Markdown."),
		BytesOut:  counter("markdown_bytes_total", "Markdown bytes produced."),
		TokensOut: counter("markdown_tokens_total", "o200k tokens of the Markdown produced."),
		FailOpen: counterVec("fail_open_total",
			"Responses sent as the origin sent them instead of converted or annotated (or, for canceled, nothing: the client left), by reason.", "reason"),
		Cache: counterVec("conversion_cache_total", "Conversion cache lookups, by result (hit, miss).", "result"),
		Rewrites: counterVec("html_rewrites_total",
			"Annotated HTML pages, by how: from the rewrite plan of an earlier identical page (plan) or read as HTML (read).", "result"),
		SelfScore: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: ns, Subsystem: sub, Name: "self_score",
			Help: "Score (0-100) of the last complete self-scan, by site.",
		}, []string{"site"}),
		Documents: counterVec("documents_total", "Generated discovery documents served, by path.", "path"),
		Indexes:   newIndexCollector(),
	}
	m.servedMarkdown = m.Responses.WithLabelValues("markdown")
	m.servedHTML = m.Responses.WithLabelValues("html")
	m.servedPassthrough = m.Responses.WithLabelValues("passthrough")
	m.rewrotePlan = m.Rewrites.WithLabelValues("plan")
	m.rewroteRead = m.Rewrites.WithLabelValues("read")
	m.cacheHit = m.Cache.WithLabelValues("hit")
	m.cacheMiss = m.Cache.WithLabelValues("miss")
	return m
}

// Register registers the collectors of M with registry (Caddy's);
// RegisterAgents those of Agents, when a site counts traffic.
func Register(registry prometheus.Registerer) error {
	m := M
	return register(registry, m.Responses, m.Conversions, m.Duration, m.BytesIn, m.BytesOut, m.TokensOut,
		m.FailOpen, m.Cache, m.Rewrites, m.SelfScore, m.Documents, m.Indexes)
}

// RegisterAgents registers agent_requests_total and
// agent_requests_blocked_total with registry.
func RegisterAgents(registry prometheus.Registerer) error {
	return register(registry, Agents.Requests, Agents.Blocked)
}

// register registers cs with registry; one already registered there is no
// error. A nil registry registers nothing.
func register(registry prometheus.Registerer, cs ...prometheus.Collector) error {
	if registry == nil {
		return nil
	}
	for _, c := range cs {
		if err := registry.Register(c); err != nil {
			var are prometheus.AlreadyRegisteredError
			if !errors.As(err, &are) {
				return err
			}
		}
	}
	return nil
}

// Served counts a negotiable response by the form it went out as.
func Served(form string) {
	switch form {
	case "markdown":
		M.servedMarkdown.Inc()
	case "html":
		M.servedHTML.Inc()
	case "passthrough":
		M.servedPassthrough.Inc()
	default:
		M.Responses.WithLabelValues(form).Inc()
	}
}

// Converted counts one conversion: its time, the HTML bytes in, the
// Markdown bytes and tokens out.
func Converted(d time.Duration, in, out, tokens int) {
	M.Conversions.Inc()
	M.Duration.Observe(d.Seconds())
	M.BytesIn.Add(float64(in))
	M.BytesOut.Add(float64(out))
	M.TokensOut.Add(float64(tokens))
}

// Rewrote counts an annotated HTML page, from a plan or read.
func Rewrote(fromPlan bool) { either(fromPlan, M.rewrotePlan, M.rewroteRead).Inc() }

// FailedOpen counts a response sent as the origin sent it, by reason.
func FailedOpen(reason string) { M.FailOpen.WithLabelValues(reason).Inc() }

// FailOpenMessage is the log message of a response that failed open for
// reason.
func FailOpenMessage(reason string) string {
	switch {
	case reason == "rewrite_larger":
		return "compressed html sent as the origin sent it, unannotated: annotated, it encodes larger than the origin's bytes"
	case reason == "rewrite_size":
		return "compressed html sent as the origin sent it, unannotated: over 256 KiB compressed, or over max_size decoded"
	case reason == "plan_mismatch":
		return "html page changed under the same strong ETag and length: the rest went out unannotated, the length made up with trailing spaces; the plan is dropped"
	case strings.HasPrefix(reason, "rewrite"):
		return "html rewrite failed open; serving the origin's page without its annotations"
	}
	return "markdown conversion failed open; serving the original response"
}

// CacheLookup counts a conversion cache lookup.
func CacheLookup(hit bool) { either(hit, M.cacheHit, M.cacheMiss).Inc() }

// either is yes when b, else no.
func either(b bool, yes, no prometheus.Counter) prometheus.Counter {
	if b {
		return yes
	}
	return no
}

// Document counts a generated document served.
func Document(path string) { M.Documents.WithLabelValues(path).Inc() }

// SelfScore sets the score of site's last complete self-scan.
func SelfScore(site string, score float64) { M.SelfScore.WithLabelValues(site).Set(score) }
