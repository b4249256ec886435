package telemetry

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/agentready/caddy-agentready/connect"
)

// Indexed is what IndexCollector reads of a content index when scraped
// (connect.Server).
type Indexed interface{ Stats() connect.Stats }

// IndexCollector reports the size and progress of the content indexes of
// the built-in MCP endpoints, read from each index's Stats when scraped.
type IndexCollector struct {
	pages, bytes, listed, failed, refreshes *prometheus.Desc

	mu      sync.Mutex
	servers map[string]Indexed // by site origin
}

func newIndexCollector() *IndexCollector {
	desc := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc(prometheus.BuildFQName(ns, sub, name), help, []string{"site"}, nil)
	}
	return &IndexCollector{
		pages:     desc("index_pages", "Pages in the content index of the built-in MCP endpoint."),
		bytes:     desc("index_bytes", "Markdown bytes held by the content index."),
		listed:    desc("index_listed_pages", "Pages the site listed in the current or last index refresh."),
		failed:    desc("index_failed_pages", "Pages whose fetch failed in the current or last index refresh."),
		refreshes: desc("index_refreshes_total", "Completed refreshes of the content index."),
		servers:   make(map[string]Indexed),
	}
}

// Add reports s as the content index of site.
func (c *IndexCollector) Add(site string, s Indexed) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.servers[site] = s
}

// Remove forgets the index of a site, unless a newer config has replaced it.
func (c *IndexCollector) Remove(site string, s Indexed) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.servers[site] == s {
		delete(c.servers, site)
	}
}

// Describe implements prometheus.Collector.
func (c *IndexCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.pages, c.bytes, c.listed, c.failed, c.refreshes} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *IndexCollector) Collect(ch chan<- prometheus.Metric) {
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
