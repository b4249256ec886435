package caddymodule

import (
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"sync/atomic"

	"github.com/caddyserver/caddy/v2"
	"go.uber.org/zap"
	"go.uber.org/zap/exp/zapslog"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/fleet"
	"github.com/agentready/caddy-agentready/internal/telemetry"
	"github.com/agentready/caddy-agentready/pages"
)

// contentStores holds the content index of every site that serves the
// built-in MCP endpoint, by origin. The entries outlive config reloads (a
// usage pool counts the configs that use each, as siteScans does), so a
// reloaded config answers from the last good index at once, refreshes it
// with the validators it holds, and keeps the retry backoff of an outage.
var contentStores = caddy.NewUsagePool()

// contentStore is one site's entry in contentStores.
type contentStore struct {
	site  string
	store *connect.Store
	// warning is the newest config's reach warning (see siteaddr.Reach).
	warning atomic.Pointer[string]
	// fleet is the newest config's fleet, nil when it has none.
	fleet atomic.Pointer[fleet.Fleet]
}

// Destruct implements caddy.Destructor: the last config using the site is
// gone.
func (c *contentStore) Destruct() error { return c.store.Close() }

// provisionConnect builds the built-in MCP endpoint and /ask when the YAML
// enables them, indexing the pages of src. Its index fills in the
// background once the config starts, starting from the index a previous
// config of the site (by origin, its in-process address) left.
func (ar *AgentReady) provisionConnect(app *App, src connect.Source, origin string) error {
	if !ar.site.Connect.Enabled {
		return nil
	}
	opts := pages.ConnectOptions(ar.site, origin)
	opts.ClientIP, opts.SharedLimit = clientIP, ar.fleetLimits(app)
	val, _, err := contentStores.LoadOrNew(origin, func() (caddy.Destructor, error) {
		return &contentStore{site: origin, store: connect.NewStore(ar.site.Info.Language)}, nil
	})
	if err != nil {
		return fmt.Errorf("connect: %v", err)
	}
	cs := val.(*contentStore)
	w := ar.reachWarning
	cs.warning.Store(&w)
	cs.fleet.Store(ar.fleet)
	opts.Store = cs.store
	logger := slog.New(zapslog.NewHandler(ar.logger.Named("connect").Core()))
	server, err := connect.New(opts, src, logger)
	if err != nil {
		_, _ = contentStores.Delete(origin)
		return fmt.Errorf("connect: %v", err)
	}
	ar.connect, ar.connectSite = server, origin
	return nil
}

// cleanupConnect stops this config's MCP endpoint and releases its hold on
// the site's content index, which lives on while a newer config uses it.
func (ar *AgentReady) cleanupConnect() {
	if ar.connect == nil {
		return
	}
	telemetry.M.Indexes.Remove(ar.connectSite, ar.connect)
	if err := ar.connect.Close(); err != nil {
		ar.logger.Warn("closing the content index", zap.Error(err))
	}
	if _, err := contentStores.Delete(ar.connectSite); err != nil {
		ar.logger.Warn("releasing the content index", zap.Error(err))
	}
}

// indexStatus is what the admin endpoint shows about a site's content index.
type indexStatus = pages.IndexStatus

// indexStatuses lists the content index of every site, sorted by site.
func indexStatuses() []indexStatus {
	out := []indexStatus{}
	contentStores.Range(func(_, v any) bool {
		c := v.(*contentStore)
		out = append(out, pages.StatusOf(c.site, c.store.Stats(), c.warning.Load(), c.fleet.Load()))
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Site < out[j].Site })
	return out
}

// clientIP is the client's address for per-client rate limits, read as
// trusted_proxies_strict reads forwarded addresses (see clientAddr); the
// connection's RemoteAddr when there is none.
func clientIP(r *http.Request) string {
	if a := clientAddr(r); a.IsValid() {
		return a.String()
	}
	return r.RemoteAddr
}

// Interface guards
var (
	_ caddy.Destructor = (*contentStore)(nil)
)
