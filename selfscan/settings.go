package selfscan

import (
	"context"
	"time"

	"github.com/agentready/caddy-agentready/internal/setting"
	"github.com/agentready/caddy-agentready/selfcheck"
)

// Settings configures the self-score of a site: the agent_ready
// handler's self_scan setting.
type Settings struct {
	// Disabled turns the self-scan off. Default: false.
	Disabled bool `json:"disabled,omitempty"`

	// Target is the URL the scan starts from; its host selects the site in
	// Caddy's routing. Default: the YAML's `site.origin`, else the first
	// host of the site block that holds agent_ready (a wildcard
	// `*.example.com` as www.example.com) on the server's scheme and port,
	// else `http://localhost:<port>` of the server's first listener. The
	// report says which address it scanned and why.
	Target string `json:"target,omitempty"`

	// Delay is how long after start (or reload) the first scan waits.
	// Default: 2s.
	Delay setting.Duration `json:"delay,omitempty"`

	// Interval is the time between scheduled scans; a negative value scans
	// only at start, reload and on demand. Default: 6h.
	Interval setting.Duration `json:"interval,omitempty"`

	// Timeout bounds one scan. Default: 60s.
	Timeout setting.Duration `json:"timeout,omitempty"`

	// Pages is how many pages are scanned besides the home page, picked
	// from the sitemap to represent the site's sections and page kinds (a
	// page with a form first). Default: 5.
	Pages int `json:"pages,omitempty"`
}

// Defaults of Settings.
const (
	DefaultDelay    = 2 * time.Second
	DefaultInterval = 6 * time.Hour
	DefaultTimeout  = 60 * time.Second
)

// Subdirectives is the syntax of the Caddyfile's self_scan block.
var Subdirectives = setting.Block[Settings]{
	"target":   setting.Word(func(s *Settings) *string { return &s.Target }, setting.Text),
	"delay":    setting.Word(func(s *Settings) *setting.Duration { return &s.Delay }, setting.Positive),
	"interval": setting.Word(func(s *Settings) *setting.Duration { return &s.Interval }, setting.PositiveOr(-1)),
	"timeout":  setting.Word(func(s *Settings) *setting.Duration { return &s.Timeout }, setting.Positive),
	"pages":    setting.Word(func(s *Settings) *int { return &s.Pages }, setting.AtLeast(0)),
}

// FirstDelay is how long after start the first scan waits: Delay, or its
// default.
func (s *Settings) FirstDelay() time.Duration {
	if s == nil {
		return DefaultDelay
	}
	return s.Delay.Or(DefaultDelay)
}

// Runner is one config's schedule of a site's self-scans.
type Runner struct {
	// Site is the site whose report the scans fill.
	Site *Site
	// Scanner runs one scan (its Timeout, Fresh and Options from Settings).
	Scanner *Scanner
	// Delay is the wait before the first scan after the config loads.
	Delay time.Duration
	// Interval is the time between the starts of two scans.
	Interval time.Duration
}

// Runner is the schedule of site's scans under s by sc, whose Timeout,
// Fresh and Options it fills in from s.
func (s Settings) Runner(site *Site, sc Scanner) Runner {
	interval := s.Interval.Or(DefaultInterval)
	sc.Timeout = s.Timeout.Or(DefaultTimeout)
	sc.Fresh = interval * 9 / 10
	sc.Options = selfcheck.Options{Pages: s.Pages, Timeout: sc.Timeout, SameOriginOnly: true}
	return Runner{Site: site, Scanner: &sc, Delay: s.FirstDelay(), Interval: interval}
}

// Run points the site at the runner's scanner and scans on its schedule
// until ctx ends; retryMin is the first wait after a site that did not
// answer.
func (r Runner) Run(ctx context.Context, retryMin time.Duration) {
	r.Site.SetScanner(r.Scanner)
	r.Site.Schedule(ctx, r.Delay, r.Interval, retryMin)
}
