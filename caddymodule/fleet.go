package caddymodule

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"go.uber.org/zap/exp/zapslog"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/fleet"
)

// Fleet makes the instances that share Caddy's `storage` act as one site
// (package fleet): one crawl per refresh for all of them, the traffic
// view's counts summed over them, the MCP and /ask rate limits counted
// across them. Off unless set: a single instance gains nothing from it.
type Fleet struct {
	// SyncInterval is how often each instance writes its rate-limit
	// counts to the storage and reads the others': the fleet's limit is
	// approximate by this much. Default: 5s.
	SyncInterval caddy.Duration `json:"sync_interval,omitempty"`
}

// defaultFleetSync is Fleet.SyncInterval's default (caddy-ratelimit's).
const defaultFleetSync = 5 * time.Second

// provisionFleet joins the fleet of the site's instances through ctx's
// storage when the config asks for it; the key names the site and a hash
// of its YAML and of this handler's conversion settings, so instances
// configured apart keep their state apart.
func (ar *AgentReady) provisionFleet(ctx caddy.Context, site string) error {
	if ar.Fleet == nil {
		return nil
	}
	id, err := caddy.InstanceID()
	if err != nil {
		return fmt.Errorf("fleet: this instance's id: %v", err)
	}
	// What decides the pages and documents: not where the YAML lies, nor
	// how each instance counts, scans or syncs.
	c := *ar
	c.Config, c.ConfigSHA256, c.Traffic, c.Fleet, c.SelfScan = "", "", nil, nil, nil
	handler, _ := json.Marshal(&c)
	yaml, _ := json.Marshal(ar.site)
	ar.fleet, err = fleet.New(fleet.Config{Storage: ctx.Storage(), Site: site, ConfigHash: fleet.HashConfig(handler, yaml),
		Instance: id.String(), Logger: slog.New(zapslog.NewHandler(ar.logger.Named("fleet").Core()))})
	return err
}

// fleetLimits is the fleet's shared rate-limit counts, synced from start
// until the config stops; nil without a fleet or a rate limit.
func (ar *AgentReady) fleetLimits(app *App) connect.SharedLimit {
	if ar.fleet == nil || ar.site.Connect.RateLimit < 0 {
		return nil
	}
	l := ar.fleet.Limits()
	every := time.Duration(ar.Fleet.SyncInterval)
	if every <= 0 {
		every = defaultFleetSync
	}
	app.onStart(func(ctx context.Context) { go l.Run(ctx, every) })
	return l
}

// unmarshalFleet parses `fleet on|off|<sync interval>`.
func (ar *AgentReady) unmarshalFleet(d *caddyfile.Dispenser) error {
	v, err := oneArg(d)
	if err != nil {
		return err
	}
	switch v {
	case "off":
		ar.Fleet = nil
	case "on":
		ar.Fleet = new(Fleet)
	default:
		dur, err := caddy.ParseDuration(v)
		if err != nil || dur <= 0 {
			return d.Errf("fleet: expected on, off or a sync interval, got '%s'", v)
		}
		ar.Fleet = &Fleet{SyncInterval: caddy.Duration(dur)}
	}
	return nil
}
