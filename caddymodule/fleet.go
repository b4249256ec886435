package caddymodule

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/caddyserver/caddy/v2"
	"go.uber.org/zap/exp/zapslog"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/fleet"
)

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
	l, every := ar.fleet.Limits(), ar.Fleet.Every()
	app.onStart(func(ctx context.Context) { go l.Run(ctx, every) })
	return l
}
