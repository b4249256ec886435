package caddymodule

import (
	"fmt"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/internal/telemetry"
	"github.com/agentready/caddy-agentready/traffic"
	"github.com/agentready/caddy-agentready/traffic/sites"
)

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
		sc := sites.Config{Resolver: trafficResolver, NoReverseDNS: cfg.NoReverseDNS(), Logger: ar.logger.Named("traffic")}
		if dir := caddy.AppDataDir(); dir != "" {
			sc.Storage = sites.FileIn(dir, key)
		}
		return sites.New(key, sc)
	})
	site.SetSaveInterval(cfg.SaveEvery())
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
