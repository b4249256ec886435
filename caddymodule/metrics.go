package caddymodule

import (
	"errors"
	"net/http"
	"sync"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/traffic"
	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the agent_ready collectors, created once per process and
// registered with each config's registry (Caddy serves them at /metrics on
// the admin endpoint), the way reverse_proxy registers its own.
var metrics = struct {
	once         sync.Once
	responses    *prometheus.CounterVec
	conversions  prometheus.Counter
	duration     prometheus.Histogram
	bytesIn      prometheus.Counter
	bytesOut     prometheus.Counter
	tokensOut    prometheus.Counter
	failOpen     *prometheus.CounterVec
	cache        *prometheus.CounterVec
	rewrites     *prometheus.CounterVec
	selfScore    *prometheus.GaugeVec
	documents    *prometheus.CounterVec
	index        *indexCollector
	allCollected []prometheus.Collector

	// The children of responses, rewrites and cache that requests count,
	// looked up once: WithLabelValues hashes the label and takes a lock on
	// each call (about 0.1 µs a request, measured in
	// BenchmarkServeHTTPOverhead).
	servedMarkdown, servedHTML, servedPassthrough prometheus.Counter
	rewrotePlan, rewroteRead                      prometheus.Counter
	cacheHit, cacheMiss                           prometheus.Counter
}{}

func initMetrics(registry *prometheus.Registry) error {
	const ns, sub = "caddy", "agent_ready"
	metrics.once.Do(func() {
		metrics.responses = prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "responses_total",
			Help: "Responses that went through agent_ready, by form (markdown, html, passthrough).",
		}, []string{"form"})
		metrics.conversions = prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "conversions_total",
			Help: "HTML pages converted to Markdown (conversion cache hits included).",
		})
		metrics.duration = prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: ns, Subsystem: sub, Name: "conversion_duration_seconds",
			Help:    "Time to decode, extract and convert one page.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
		})
		metrics.bytesIn = prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "html_bytes_total",
			Help: "Decoded HTML bytes converted to Markdown.",
		})
		metrics.bytesOut = prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "markdown_bytes_total",
			Help: "Markdown bytes produced.",
		})
		metrics.tokensOut = prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "markdown_tokens_total",
			Help: "o200k tokens of the Markdown produced.",
		})
		metrics.failOpen = prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "fail_open_total",
			Help: "Responses sent as the origin sent them instead of converted or annotated (or, for canceled, nothing: the client left), by reason.",
		}, []string{"reason"})
		metrics.cache = prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "conversion_cache_total",
			Help: "Conversion cache lookups, by result (hit, miss).",
		}, []string{"result"})
		metrics.rewrites = prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "html_rewrites_total",
			Help: "Annotated HTML pages, by how: from the rewrite plan of an earlier identical page (plan) or read as HTML (read).",
		}, []string{"result"})
		metrics.selfScore = prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: ns, Subsystem: sub, Name: "self_score",
			Help: "Score (0-100) of the last complete self-scan, by site.",
		}, []string{"site"})
		metrics.documents = prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "documents_total",
			Help: "Generated discovery documents served, by path.",
		}, []string{"path"})
		metrics.servedMarkdown = metrics.responses.WithLabelValues("markdown")
		metrics.servedHTML = metrics.responses.WithLabelValues("html")
		metrics.servedPassthrough = metrics.responses.WithLabelValues("passthrough")
		metrics.rewrotePlan = metrics.rewrites.WithLabelValues("plan")
		metrics.rewroteRead = metrics.rewrites.WithLabelValues("read")
		metrics.cacheHit = metrics.cache.WithLabelValues("hit")
		metrics.cacheMiss = metrics.cache.WithLabelValues("miss")
		metrics.index = newIndexCollector(ns, sub)
		metrics.allCollected = []prometheus.Collector{
			metrics.responses, metrics.conversions, metrics.duration, metrics.bytesIn,
			metrics.bytesOut, metrics.tokensOut, metrics.failOpen, metrics.cache, metrics.rewrites,
			metrics.selfScore, metrics.documents, metrics.index,
		}
	})
	if registry == nil {
		return nil
	}
	for _, c := range metrics.allCollected {
		if err := registry.Register(c); err != nil {
			var are prometheus.AlreadyRegisteredError
			if !errors.As(err, &are) {
				return err
			}
		}
	}
	return nil
}

func selfScoreGauge(site string, score float64) {
	if metrics.selfScore != nil {
		metrics.selfScore.WithLabelValues(site).Set(score)
	}
}

// countDocument counts a generated document served, leaving the
// self-scan's own requests out.
func countDocument(r *http.Request, path string) {
	if metrics.documents != nil && !isInternal(r) {
		metrics.documents.WithLabelValues(path).Inc()
		if tw := requestTraffic(r); tw != nil {
			tw.form = traffic.FormDiscovery
		}
	}
}

// served counts a negotiable response by the form it went out as.
func served(form string) {
	switch form {
	case "markdown":
		metrics.servedMarkdown.Inc()
	case "html":
		metrics.servedHTML.Inc()
	case "passthrough":
		metrics.servedPassthrough.Inc()
	default:
		metrics.responses.WithLabelValues(form).Inc()
	}
}

func cacheLookup(hit bool) {
	if hit {
		metrics.cacheHit.Inc()
	} else {
		metrics.cacheMiss.Inc()
	}
}

// indexCollector reports the size and progress of the content indexes of
// the built-in MCP endpoints, read from each index's Stats when scraped.
type indexCollector struct {
	pages, bytes, listed, failed, refreshes *prometheus.Desc

	mu      sync.Mutex
	servers map[string]*connect.Server // by site origin
}

func newIndexCollector(ns, sub string) *indexCollector {
	desc := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc(prometheus.BuildFQName(ns, sub, name), help, []string{"site"}, nil)
	}
	return &indexCollector{
		pages:     desc("index_pages", "Pages in the content index of the built-in MCP endpoint."),
		bytes:     desc("index_bytes", "Markdown bytes held by the content index."),
		listed:    desc("index_listed_pages", "Pages the site listed in the current or last index refresh."),
		failed:    desc("index_failed_pages", "Pages whose fetch failed in the current or last index refresh."),
		refreshes: desc("index_refreshes_total", "Completed refreshes of the content index."),
		servers:   make(map[string]*connect.Server),
	}
}

func (c *indexCollector) add(site string, s *connect.Server) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.servers[site] = s
}

// remove forgets the server of a site, unless a newer config has replaced it.
func (c *indexCollector) remove(site string, s *connect.Server) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.servers[site] == s {
		delete(c.servers, site)
	}
}

// Describe implements prometheus.Collector.
func (c *indexCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.pages, c.bytes, c.listed, c.failed, c.refreshes} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *indexCollector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for site, s := range c.servers {
		st := s.Stats()
		ch <- prometheus.MustNewConstMetric(c.pages, prometheus.GaugeValue, float64(st.Pages), site)
		ch <- prometheus.MustNewConstMetric(c.bytes, prometheus.GaugeValue, float64(st.Bytes), site)
		ch <- prometheus.MustNewConstMetric(c.listed, prometheus.GaugeValue, float64(st.Listed), site)
		ch <- prometheus.MustNewConstMetric(c.failed, prometheus.GaugeValue, float64(st.Failed), site)
		ch <- prometheus.MustNewConstMetric(c.refreshes, prometheus.CounterValue, float64(st.Refreshes), site)
	}
}
