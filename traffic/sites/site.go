// Package sites keeps the traffic state of each site (its counts and its
// verifier) for as long as a config counts it: loaded from the storage
// when counting starts, saved periodically and when the last config lets
// go, summed over a fleet's instances on read. It also carries one
// config's use of that state through a request (Use: classify, verify,
// refuse with 403, record) and the response writer that measures what went
// out (Writer). It imports no Caddy package: the glue hands it the data
// directory's file, the DNS resolver, the fleet and the requests.
package sites

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/fleet"
	"github.com/agentready/caddy-agentready/traffic"
)

// Config configures a Site. Zero fields take their defaults.
type Config struct {
	// Storage keeps the counts across restarts. Default: nil (not kept).
	Storage Storage
	// Resolver does the verifier's reverse-DNS lookups. Default:
	// net.DefaultResolver.
	Resolver traffic.Resolver
	// NoReverseDNS turns forward-confirmed reverse DNS off: agents
	// verified by host name stay unverified.
	NoReverseDNS bool
	// Logger receives the loads and failed saves. Default: zap.NewNop().
	Logger *zap.Logger
	// Now is the clock of the counts. Default: time.Now.
	Now func() time.Time
	// After is the clock of the periodic saves. Default: time.After.
	After func(time.Duration) <-chan time.Time
}

// Site is the traffic state of one site.
type Site struct {
	key      string
	storage  Storage
	store    *traffic.Store
	verifier *traffic.Verifier
	logger   *zap.Logger
	after    func(time.Duration) <-chan time.Time

	interval atomic.Int64                // save interval (ns) of the newest config; <= 0: at stop only
	fleet    atomic.Pointer[fleet.Fleet] // the newest config's, nil for none
	saveMu   sync.Mutex
	stop     chan struct{}
	done     chan struct{}
}

// New makes the state of the site named key, with the counts saved by an
// earlier run, and starts saving them periodically (see SetSaveInterval)
// until Destruct.
func New(key string, cfg Config) *Site {
	vc := traffic.VerifierConfig{Resolver: cfg.Resolver, Now: cfg.Now}
	if cfg.NoReverseDNS {
		vc.Resolver = noResolver{}
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if cfg.After == nil {
		cfg.After = time.After
	}
	s := &Site{key: key, storage: cfg.Storage, store: traffic.NewStore(traffic.StoreConfig{Now: cfg.Now}),
		verifier: traffic.NewVerifier(vc), logger: cfg.Logger, after: cfg.After,
		stop: make(chan struct{}), done: make(chan struct{})}
	if s.storage != nil {
		s.load()
	}
	go s.saveLoop()
	return s
}

// Key names the site.
func (s *Site) Key() string { return s.key }

// Store holds this instance's counts.
func (s *Site) Store() *traffic.Store { return s.store }

// Verifier checks the claims of the site's clients.
func (s *Site) Verifier() *traffic.Verifier { return s.verifier }

// SetSaveInterval sets how often the counts are saved (the newest
// config's); d <= 0 saves only at Destruct.
func (s *Site) SetSaveInterval(d time.Duration) { s.interval.Store(int64(d)) }

// SetFleet makes f (nil for none) the fleet the counts are published to
// and summed over.
func (s *Site) SetFleet(f *fleet.Fleet) { s.fleet.Store(f) }

// LoadRanges verifies the agents of each range list URL against the
// copy in its file (the traffic block's ranges); a URL no known agent is
// verified against is logged to warn.
func (s *Site) LoadRanges(files map[string]string, warn *zap.Logger) error {
	for url, file := range files {
		if !slices.Contains(traffic.RangeURLs(), url) {
			warn.Warn("traffic ranges: no known agent is verified against this list", zap.String("url", url))
		}
		set, err := traffic.LoadRangesFile(file)
		if err != nil {
			return fmt.Errorf("traffic ranges %s: %v", url, err)
		}
		s.verifier.SetRanges(url, set)
	}
	return nil
}

// RefreshRanges fetches the operators' range lists now and every d, in
// the background until ctx ends; a failure is logged to logger.
func (s *Site) RefreshRanges(ctx context.Context, d time.Duration, logger *zap.Logger) {
	client := &http.Client{Timeout: 30 * time.Second}
	go func() {
		for {
			if err := s.verifier.RefreshRanges(ctx, client, nil); err != nil {
				logger.Warn("refreshing agent IP ranges", zap.Error(err))
			}
			select {
			case <-ctx.Done():
				return
			case <-s.after(d):
			}
		}
	}()
}

// load reads the counts saved by an earlier run, if any.
func (s *Site) load() {
	data, err := s.storage.Load()
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err == nil {
		err = s.store.Load(bytes.NewReader(data))
	}
	if err != nil {
		s.logger.Warn("reading saved traffic counts; starting from zero", zap.String("file", s.storage.String()), zap.Error(err))
		return
	}
	s.logger.Info("traffic counts restored", zap.String("site", s.key), zap.String("file", s.storage.String()))
}

// Save writes the counts to the storage (and publishes them to the
// fleet).
func (s *Site) Save() error {
	if s.storage == nil {
		return nil
	}
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	var buf bytes.Buffer
	if err := s.store.Save(&buf); err != nil {
		return err
	}
	if f := s.fleet.Load(); f != nil {
		_ = f.PublishTraffic(buf.Bytes()) // a failure is logged once, and shown, as the fleet's state
	}
	return s.storage.Save(buf.Bytes())
}

// saveLoop saves the counts every interval until Destruct.
func (s *Site) saveLoop() {
	defer close(s.done)
	for {
		wait := time.Duration(s.interval.Load())
		if wait <= 0 {
			wait = time.Minute // look again later: a reload may set one
		}
		select {
		case <-s.stop:
			return
		case <-s.after(wait):
		}
		if s.interval.Load() <= 0 {
			continue
		}
		if err := s.Save(); err != nil {
			s.logger.Warn("saving traffic counts", zap.Error(err))
		}
	}
}

// Destruct stops the site: the last config that counted it has stopped;
// the counts are saved and the verifier stopped (caddy.Destructor).
func (s *Site) Destruct() error {
	close(s.stop)
	<-s.done
	s.verifier.Close()
	return s.Save()
}

// Snapshot is the site's counts: the fleet's, summed, when the instances
// share them (read from the storage now: the admin endpoint, never the
// request path), else this instance's.
func (s *Site) Snapshot(ctx context.Context) traffic.Snapshot {
	if f := s.fleet.Load(); f != nil {
		return f.Traffic(ctx, s.store)
	}
	return s.store.Snapshot()
}

// View is Snapshot with the verifier's counters, as the traffic view
// shows it.
func (s *Site) View(ctx context.Context) traffic.Snapshot {
	snap := s.Snapshot(ctx)
	st := s.verifier.Stats()
	snap.Verifier = &st
	return snap
}

// noResolver answers no reverse-DNS lookup (reverse_dns off): agents
// verified by host name stay unverified.
type noResolver struct{}

func (noResolver) LookupAddr(context.Context, string) ([]string, error) {
	return nil, errors.New("reverse DNS verification is off")
}

func (noResolver) LookupIPAddr(context.Context, string) ([]net.IPAddr, error) {
	return nil, errors.New("reverse DNS verification is off")
}
