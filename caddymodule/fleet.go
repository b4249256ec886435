package caddymodule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"go.uber.org/zap/exp/zapslog"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/fleet"
	"github.com/agentready/caddy-agentready/selfcheck"
	"github.com/agentready/caddy-agentready/traffic"
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

// snapshot is the site's counts: the fleet's, summed, when the instances
// share them (read from the storage now: the admin endpoint, never the
// request path), else this instance's.
func (s *trafficSite) snapshot(ctx context.Context) traffic.Snapshot {
	if f := s.fleet.Load(); f != nil {
		return f.Traffic(ctx, s.store)
	}
	return s.store.Snapshot()
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

// scanNowKey marks the context of a scan asked for on the admin endpoint:
// it runs in this instance even when the fleet has a fresh report.
type scanNowKey struct{}

// renderedBy is the key of a scan's rendered forms that names the fleet's
// instance that ran it (never served as a form).
const renderedBy = "instance"

// errNotShared keeps a scan whose site did not answer out of the fleet.
var errNotShared = errors.New("not shared")

// fleetScan is the self-scan once per interval for the fleet: the report
// of another instance's scan within the interval, else a scan here,
// stored for the others.
func (sc *scanner) fleetScan(ctx context.Context) (rep *selfcheck.Report, rendered map[string][]byte, missed, err error) {
	fresh := sc.fresh
	if now, _ := ctx.Value(scanNowKey{}).(bool); now {
		fresh = 0
	}
	ran := false
	var here error
	res, err := sc.fleet.Once(ctx, "selfscan", fresh, func(ctx context.Context) ([]byte, error) {
		ran = true
		rep, rendered, missed, here = sc.scanHere(ctx)
		if here != nil || missed != nil {
			return nil, errNotShared
		}
		rendered[renderedBy] = []byte(sc.fleet.Instance())
		return json.Marshal(rendered)
	})
	if ran {
		return rep, rendered, missed, here
	}
	if err != nil {
		return nil, nil, nil, err
	}
	if err := json.Unmarshal(res.Data, &rendered); err != nil {
		return nil, nil, nil, fmt.Errorf("the fleet's self-scan report: %v", err)
	}
	rep = new(selfcheck.Report)
	if err := json.Unmarshal(rendered["json"], rep); err != nil {
		return nil, nil, nil, fmt.Errorf("the fleet's self-scan report: %v", err)
	}
	return rep, rendered, nil, nil
}
