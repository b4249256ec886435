package caddymodule

import (
	"context"
	"sync"
	"time"

	"github.com/caddyserver/caddy/v2"
	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/selfscan"
)

// scanRetryMin is the wait before the first retry of a self-scan that met
// a site that did not answer; each further retry waits twice as long.
var scanRetryMin = 2 * time.Second

func init() {
	caddy.RegisterModule(new(App))
}

// App runs the self-scans of the sites that use the agent_ready handler.
// It needs no configuration: the handlers load it and register their site
// in Provision; it starts scanning only when the config actually runs (not
// under `caddy validate`), and stops when the config is unloaded.
type App struct {
	mu      sync.Mutex
	pending []selfscan.Runner
	starts  []func(context.Context)
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	logger  *zap.Logger
}

// CaddyModule returns the Caddy module information.
func (*App) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{
		ID:  "agent_ready",
		New: func() caddy.Module { return new(App) },
	}
}

// Provision sets up the app.
func (a *App) Provision(ctx caddy.Context) error {
	a.logger = ctx.Logger()
	return nil
}

// register adds a site to scan once the config starts.
func (a *App) register(reg selfscan.Runner) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.pending = append(a.pending, reg)
}

// onStart runs f in the background with the app's context once the config
// starts (the content index of the built-in MCP endpoint uses it).
func (a *App) onStart(f func(context.Context)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.starts = append(a.starts, f)
}

// Start points every registered site at this config's scanner and schedules
// its scans: one shortly after start (so after every reload), then one per
// interval.
func (a *App) Start() error {
	ctx, cancel := context.WithCancel(context.Background())
	a.mu.Lock()
	a.cancel = cancel
	regs, starts := a.pending, a.starts
	a.mu.Unlock()
	for _, f := range starts {
		f(ctx)
	}
	for _, reg := range regs {
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			reg.Run(ctx, scanRetryMin)
		}()
	}
	return nil
}

// Stop cancels scheduled and running scans of this config; the sites keep
// their last complete report.
func (a *App) Stop() error {
	a.mu.Lock()
	cancel := a.cancel
	a.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	a.wg.Wait()
	return nil
}

// Interface guards
var (
	_ caddy.App         = (*App)(nil)
	_ caddy.Provisioner = (*App)(nil)
)
