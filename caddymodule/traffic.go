package caddymodule

import (
	"fmt"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/internal/telemetry"
	"github.com/agentready/caddy-agentready/traffic"
	"github.com/agentready/caddy-agentready/traffic/sites"
)

// Traffic configures the traffic view of a site (issue #17): who reads it
// (AI crawlers, fetchers and agents, generic clients, browsers), what they
// read, in which form, and whether the clients that claim to be a known
// agent are. The counts live across config reloads and are saved in
// Caddy's data directory. The YAML's policy.enforce uses the same
// classification and verification.
type Traffic struct {
	// Disabled turns counting off (enforcement, when the YAML asks for it,
	// still applies). Default: false.
	Disabled bool `json:"disabled,omitempty"`

	// SaveInterval is how often the counts are written to the data
	// directory (`<caddy data dir>/agent_ready/traffic-<site>.json`), in
	// Caddy's duration syntax; they are also written when the last config
	// that counts the site stops, and read back when counting starts. A
	// negative value saves only at stop. Default: 5m.
	SaveInterval caddy.Duration `json:"save_interval,omitempty"`

	// Ranges maps the URL of an operator's published IP-range list, as the
	// data file of known agents names it (https://openai.com/gptbot.json,
	// …), to a local file holding a copy: the agents of that operator are
	// verified against it. Default: none.
	Ranges map[string]string `json:"ranges,omitempty"`

	// RefreshRanges, when positive, fetches every range list the data file
	// names from the operators at start and then at this interval (a list
	// that fails to load keeps the copy it had). Default: 0 (off: only
	// the files of Ranges are used).
	RefreshRanges caddy.Duration `json:"refresh_ranges,omitempty"`

	// ReverseDNS verifies agents whose operator publishes host names
	// (Googlebot, Applebot…) by forward-confirmed reverse DNS, in the
	// background, with a bounded queue and cache. Default: true.
	ReverseDNS *bool `json:"reverse_dns,omitempty"`
}

// trafficSites holds the traffic state of every site: its counts and its
// verifier outlive config reloads (the registry counts the configs that
// use each); when the last config lets go, the counts are saved.
var trafficSites sites.Registry

// trafficResolver, when set (tests), is the DNS the verifiers use.
var trafficResolver traffic.Resolver

// siteTraffic is one config's use of a site's traffic state: what it
// classifies with and what it enforces.
type siteTraffic = sites.Use

// provisionTraffic sets up counting and enforcement: the site's state from
// the registry (its counts loaded from the data directory when it is
// new), the classifier with the YAML's extra_agents, and the policy.
func (ar *AgentReady) provisionTraffic(ctx caddy.Context) error {
	cfg := ar.Traffic
	if cfg == nil {
		cfg = new(Traffic)
	}
	if cfg.Disabled && sites.Policy(ar.site.Policy).Enforce == traffic.EnforceOff {
		return nil
	}
	if err := telemetry.RegisterAgents(ctx.GetMetricsRegistry()); err != nil {
		return fmt.Errorf("registering traffic metrics: %v", err)
	}
	key := ar.trafficKey(ctx)
	site := trafficSites.Use(key, func() *sites.Site {
		sc := sites.Config{Resolver: trafficResolver, NoReverseDNS: cfg.ReverseDNS != nil && !*cfg.ReverseDNS,
			Logger: ar.logger.Named("traffic")}
		if dir := caddy.AppDataDir(); dir != "" {
			sc.Storage = sites.FileIn(dir, key)
		}
		return sites.New(key, sc)
	})
	interval := time.Duration(cfg.SaveInterval)
	if interval == 0 {
		interval = 5 * time.Minute
	}
	site.SetSaveInterval(interval)
	site.SetFleet(ar.fleet)
	if err := site.LoadRanges(cfg.Ranges, ar.logger); err != nil {
		_ = trafficSites.Release(key)
		return err
	}
	askPath := ar.site.Connect.AskPath
	if askPath == "" {
		askPath = connect.DefaultAskPath
	}
	ar.traffic = sites.NewUse(site, sites.UseConfig{Site: ar.site, ContentSignal: ar.neg.Options.ContentSignal,
		AskPath: askPath, Counting: !cfg.Disabled})
	ar.trafficSiteKey = key
	if d := time.Duration(cfg.RefreshRanges); d > 0 {
		site.RefreshRanges(ctx, d, ar.logger)
	}
	ar.neg.Observer = observer{logger: ar.logger, counting: ar.traffic.Counting}
	return nil
}

// trafficKey names a site's traffic state: the YAML's site.origin, else the
// origin the module determines for the self-scan, else "default".
func (ar *AgentReady) trafficKey(ctx caddy.Context) string {
	if o := ar.site.Info.Origin; o != "" {
		return o
	}
	if srv, _ := ctx.Value(caddyhttp.ServerCtxKey).(*caddyhttp.Server); srv != nil {
		if o, _, err := ar.ownOrigin(srv); err == nil && o != "" {
			return o
		}
	}
	return "default"
}

// cleanupTraffic lets go of the site's traffic state; the last config to
// let go saves the counts.
func (ar *AgentReady) cleanupTraffic() error {
	if ar.traffic == nil {
		return nil
	}
	return trafficSites.Release(ar.trafficSiteKey)
}

// unmarshalTraffic parses `traffic off` or a traffic block:
//
//	traffic off
//	traffic {
//	    save_interval  <duration>|off
//	    ranges         <list url> <file>
//	    refresh_ranges <duration>|off
//	    reverse_dns    on|off
//	}
func (ar *AgentReady) unmarshalTraffic(d *caddyfile.Dispenser) error {
	t := new(Traffic)
	ar.Traffic = t
	if d.NextArg() {
		if d.Val() != "off" || d.NextArg() {
			return d.Errf("traffic: expected 'off' or a block")
		}
		t.Disabled = true
		return nil
	}
	for nesting := d.Nesting(); d.NextBlock(nesting); {
		sub := d.Val()
		switch sub {
		case "save_interval", "refresh_ranges":
			v, err := oneArg(d)
			if err != nil {
				return err
			}
			var dur caddy.Duration
			if v == "off" {
				dur = -1
				if sub == "refresh_ranges" {
					dur = 0
				}
			} else {
				parsed, err := caddy.ParseDuration(v)
				if err != nil || parsed <= 0 {
					return d.Errf("traffic %s: invalid duration '%s'", sub, v)
				}
				dur = caddy.Duration(parsed)
			}
			if sub == "save_interval" {
				t.SaveInterval = dur
			} else {
				t.RefreshRanges = dur
			}
		case "ranges":
			args := d.RemainingArgs()
			if len(args) != 2 {
				return d.ArgErr()
			}
			if t.Ranges == nil {
				t.Ranges = map[string]string{}
			}
			t.Ranges[args[0]] = args[1]
		case "reverse_dns":
			b, err := onOff(d)
			if err != nil {
				return err
			}
			t.ReverseDNS = &b
		default:
			return d.Errf("unrecognized traffic subdirective '%s'", sub)
		}
	}
	return nil
}
