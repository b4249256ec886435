// Package fleet makes several instances of the module that share one
// storage act as one site (issue #27): one crawl of the site per refresh
// for the whole fleet, under a storage lock, whose result the others load
// (Crawl); each instance's traffic counts published under its own id and
// merged on read (Traffic); and the MCP and /ask rate limits counted
// across the fleet, approximately, in the way of caddy-ratelimit's
// distributed mode (Limits).
//
// The storage is Caddy's (caddy.Context.Storage(), a certmagic.Storage,
// which satisfies Storage), but nothing here imports Caddy: the tests use
// Memory. No function of this package that the request path calls touches
// the storage; the storage is read and written by background work only.
//
// When the storage fails, each instance works alone: the Fleet logs a
// WARN once and reports the state "degraded" until the storage answers
// again.
package fleet

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"log/slog"
	"path"
	"sync"
	"time"
)

// Storage is what the fleet needs of a shared storage. certmagic.Storage
// (Caddy's `storage`: the file system, Redis, Consul, S3…) satisfies it.
// Load of a key that does not exist returns an error that wraps
// fs.ErrNotExist, as certmagic's contract says.
type Storage interface {
	// Lock acquires the named lock, waiting while another holds it (a
	// holder that died loses it once the lock goes stale, which each
	// storage decides: certmagic's file storage after 10 s without the
	// holder refreshing it), or until ctx ends.
	Lock(ctx context.Context, name string) error
	// Unlock releases a lock Lock acquired.
	Unlock(ctx context.Context, name string) error
	// Store writes value at key, whole.
	Store(ctx context.Context, key string, value []byte) error
	// Load reads the value at key.
	Load(ctx context.Context, key string) ([]byte, error)
	// List lists the keys under prefix.
	List(ctx context.Context, prefix string, recursive bool) ([]string, error)
}

// Config configures a Fleet. Storage, Site and Instance are required.
type Config struct {
	// Storage is the storage the instances share.
	Storage Storage
	// Site names the site (its origin); with ConfigHash it makes the keys,
	// so two sites, or two configs of one site, never share state.
	Site string
	// ConfigHash is a digest of the configuration that decides what the
	// shared state holds (the site's YAML as parsed, the crawl limits):
	// instances whose configs differ keep their state apart. Default: "".
	ConfigHash string
	// Instance is this instance's id, stable across restarts (Caddy's
	// instance id), under which it writes its own state.
	Instance string
	// Now is the clock. Default: time.Now.
	Now func() time.Time
	// Logger receives the WARN of a storage failure and the INFO of its
	// recovery. Default: slog.Default().
	Logger *slog.Logger
}

// Status is what the admin endpoint shows of a Fleet.
type Status struct {
	// State is "ok", or "degraded" while the storage fails and this
	// instance works alone.
	State string `json:"state"`
	// Instance is this instance's id.
	Instance string `json:"instance"`
	// Key is the storage prefix of the site's shared state.
	Key string `json:"key"`
	// LastError is the storage's last error, while degraded.
	LastError string `json:"last_error,omitempty"`
	// Crawl says who crawled the site last and when.
	Crawl *CrawlStatus `json:"crawl,omitempty"`
}

// Fleet is one site's shared state in one instance. It is safe for
// concurrent use.
type Fleet struct {
	cfg    Config
	prefix string

	mu      sync.Mutex
	lastErr error
	crawl   *CrawlStatus
}

// New returns the Fleet of cfg's site in cfg's instance.
func New(cfg Config) (*Fleet, error) {
	if cfg.Storage == nil || cfg.Site == "" || cfg.Instance == "" {
		return nil, errors.New("fleet: storage, site and instance id are required")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	sum := sha256.Sum256([]byte(cfg.Site))
	h := cfg.ConfigHash
	if h == "" {
		h = "default"
	}
	return &Fleet{cfg: cfg, prefix: path.Join("agent_ready", "fleet", hex.EncodeToString(sum[:8]), h)}, nil
}

// HashConfig is a short digest of parts, for Config.ConfigHash.
func HashConfig(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// key is the storage key of name under the site's prefix.
func (f *Fleet) key(name ...string) string {
	return path.Join(append([]string{f.prefix}, name...)...)
}

// result records the outcome of a storage operation: an error (other
// than a missing key or the caller's own ctx ending) turns the fleet
// degraded with one WARN; the next success turns it ok with one INFO.
func (f *Fleet) result(ctx context.Context, op string, err error) error {
	if err != nil && (errors.Is(err, fs.ErrNotExist) || ctx.Err() != nil) {
		return err
	}
	f.mu.Lock()
	was := f.lastErr
	f.lastErr = err
	f.mu.Unlock()
	switch {
	case err != nil && was == nil:
		f.cfg.Logger.Warn("fleet: the shared storage failed; this instance works alone until it answers",
			"site", f.cfg.Site, "op", op, "error", err)
	case err == nil && was != nil:
		f.cfg.Logger.Info("fleet: the shared storage answers again", "site", f.cfg.Site)
	}
	return err
}

// Status is the fleet's state as this instance sees it.
func (f *Fleet) Status() Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := Status{State: "ok", Instance: f.cfg.Instance, Key: f.prefix}
	if f.lastErr != nil {
		st.State, st.LastError = "degraded", f.lastErr.Error()
	}
	if f.crawl != nil {
		c := *f.crawl
		st.Crawl = &c
	}
	return st
}

// Degraded reports whether the storage failed last time it was used.
func (f *Fleet) Degraded() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lastErr != nil
}

// Instance is this instance's id.
func (f *Fleet) Instance() string { return f.cfg.Instance }
