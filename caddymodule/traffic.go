package caddymodule

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/fleet"
	"github.com/agentready/caddy-agentready/internal/telemetry"
	"github.com/agentready/caddy-agentready/manifest"
	"github.com/agentready/caddy-agentready/traffic"
	"github.com/agentready/caddy-agentready/traffic/agents"
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
// verifier outlive config reloads (a usage pool counts the configs that use
// each); when the last config lets go, the counts are saved.
var trafficSites = caddy.NewUsagePool()

// trafficResolver, when set (tests), is the DNS the verifiers use.
var trafficResolver traffic.Resolver

// trafficSite is the traffic state of one site.
type trafficSite struct {
	key      string
	file     string // where the counts are saved; "" for none
	store    *traffic.Store
	verifier *traffic.Verifier
	logger   *zap.Logger

	interval atomic.Int64                // save interval (ns) of the newest config; <= 0: at stop only
	fleet    atomic.Pointer[fleet.Fleet] // the newest config's, nil for none
	saveMu   sync.Mutex
	stop     chan struct{}
	done     chan struct{}
}

// siteTraffic is one config's use of a site's traffic state: what it
// classifies with and what it enforces.
type siteTraffic struct {
	site       *trafficSite
	classifier *traffic.Classifier
	policy     traffic.Policy
	counting   bool
	askPath    string
	signal     string // Content-Signal of a 403, "" for none
	contact    string
	policyURL  string // the robots.txt of site.origin, "" to use the request's host
}

// provisionTraffic sets up counting and enforcement: the site's state from
// the usage pool (its counts loaded from the data directory when it is
// new), the classifier with the YAML's extra_agents, and the policy.
func (ar *AgentReady) provisionTraffic(ctx caddy.Context) error {
	cfg := ar.Traffic
	if cfg == nil {
		cfg = new(Traffic)
	}
	pol := trafficPolicy(ar.site.Policy)
	if cfg.Disabled && pol.Enforce == traffic.EnforceOff {
		return nil
	}
	if err := telemetry.RegisterAgents(ctx.GetMetricsRegistry()); err != nil {
		return fmt.Errorf("registering traffic metrics: %v", err)
	}
	key := ar.trafficKey(ctx)
	val, _, err := trafficSites.LoadOrNew(key, func() (caddy.Destructor, error) {
		return newTrafficSite(key, cfg, ar.logger.Named("traffic")), nil
	})
	if err != nil {
		return err
	}
	site := val.(*trafficSite)
	interval := time.Duration(cfg.SaveInterval)
	if interval == 0 {
		interval = 5 * time.Minute
	}
	site.interval.Store(int64(interval))
	site.fleet.Store(ar.fleet)
	for url, file := range cfg.Ranges {
		if !slices.Contains(traffic.RangeURLs(), url) {
			ar.logger.Warn("traffic ranges: no known agent is verified against this list", zap.String("url", url))
		}
		set, err := traffic.LoadRangesFile(file)
		if err != nil {
			_, _ = trafficSites.Delete(key)
			return fmt.Errorf("traffic ranges %s: %v", url, err)
		}
		site.verifier.SetRanges(url, set)
	}
	p := ar.site.Policy.ExtraAgents
	extra := append(append(agents.FromTokens(agents.Training, p.Training...),
		agents.FromTokens(agents.Search, p.Search...)...), agents.FromTokens(agents.User, p.User...)...)
	t := &siteTraffic{site: site, classifier: traffic.NewClassifier(extra...), policy: pol, counting: !cfg.Disabled,
		askPath: ar.site.Connect.AskPath, contact: ar.site.Contacts.Email,
		signal: ar.neg.Options.ContentSignal}
	if t.askPath == "" {
		t.askPath = connect.DefaultAskPath
	}
	if t.signal == "-" {
		t.signal = ""
	}
	if t.contact != "" {
		t.contact = "mailto:" + t.contact
	} else if ar.site.Contacts.Page != "" {
		t.contact = ar.site.Contacts.Page
	}
	if o := ar.site.Info.Origin; o != "" {
		t.policyURL = o + "/robots.txt"
	}
	ar.traffic, ar.trafficSiteKey = t, key
	if d := time.Duration(cfg.RefreshRanges); d > 0 {
		ar.refreshRanges(ctx, site, d)
	}
	ar.neg.Observer = observer{logger: ar.logger, counting: t.counting}
	return nil
}

// refreshRanges fetches the operators' range lists now and every d, until
// the config stops.
func (ar *AgentReady) refreshRanges(ctx caddy.Context, site *trafficSite, d time.Duration) {
	client := &http.Client{Timeout: 30 * time.Second}
	go func() {
		for {
			if err := site.verifier.RefreshRanges(ctx, client, nil); err != nil {
				ar.logger.Warn("refreshing agent IP ranges", zap.Error(err))
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(d):
			}
		}
	}()
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
	_, err := trafficSites.Delete(ar.trafficSiteKey)
	return err
}

// trafficPolicy is what traffic.Decide needs of the YAML's crawler policy.
func trafficPolicy(p manifest.Policy) traffic.Policy {
	e, _ := traffic.ParseEnforce(string(p.Enforce)) // validated by manifest
	var named []string
	named = append(named, p.ExtraAgents.Training...)
	named = append(named, p.ExtraAgents.Search...)
	named = append(named, p.ExtraAgents.User...)
	return traffic.Policy{Enforce: e, Training: p.Training == manifest.Disallow, Search: p.Search == manifest.Disallow,
		User: p.User == manifest.Disallow, Named: named}
}

// newTrafficSite makes the state of a site, with the counts saved by an
// earlier run, and starts saving them periodically.
func newTrafficSite(key string, cfg *Traffic, logger *zap.Logger) *trafficSite {
	vc := traffic.VerifierConfig{Resolver: trafficResolver}
	if cfg.ReverseDNS != nil && !*cfg.ReverseDNS {
		vc.Resolver = noResolver{}
	}
	s := &trafficSite{key: key, store: traffic.NewStore(traffic.StoreConfig{}), verifier: traffic.NewVerifier(vc),
		logger: logger, stop: make(chan struct{}), done: make(chan struct{})}
	if dir := caddy.AppDataDir(); dir != "" {
		sum := sha256.Sum256([]byte(key))
		s.file = filepath.Join(dir, "agent_ready", "traffic-"+hex.EncodeToString(sum[:8])+".json")
		s.load()
	}
	go s.saveLoop()
	return s
}

// load reads the counts saved by an earlier run, if any.
func (s *trafficSite) load() {
	f, err := os.Open(s.file)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	if err == nil {
		err = s.store.Load(f)
		f.Close()
	}
	if err != nil {
		s.logger.Warn("reading saved traffic counts; starting from zero", zap.String("file", s.file), zap.Error(err))
		return
	}
	s.logger.Info("traffic counts restored", zap.String("site", s.key), zap.String("file", s.file))
}

// save writes the counts, whole or not at all (a temporary file renamed).
func (s *trafficSite) save() error {
	if s.file == "" {
		return nil
	}
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	if err := os.MkdirAll(filepath.Dir(s.file), 0o700); err != nil {
		return fmt.Errorf("saving traffic counts: %v", err)
	}
	var buf bytes.Buffer
	if err := s.store.Save(&buf); err != nil {
		return err
	}
	if f := s.fleet.Load(); f != nil {
		_ = f.PublishTraffic(buf.Bytes()) // a failure is logged once, and shown, as the fleet's state
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.file), ".traffic-*.tmp")
	if err != nil {
		return fmt.Errorf("saving traffic counts: %v", err)
	}
	_, err = tmp.Write(buf.Bytes())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.file)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving traffic counts to %s: %v", s.file, err)
	}
	return nil
}

// saveLoop saves the counts every interval until Destruct.
func (s *trafficSite) saveLoop() {
	defer close(s.done)
	for {
		wait := time.Duration(s.interval.Load())
		if wait <= 0 {
			wait = time.Minute // look again later: a reload may set one
		}
		select {
		case <-s.stop:
			return
		case <-time.After(wait):
		}
		if s.interval.Load() <= 0 {
			continue
		}
		if err := s.save(); err != nil {
			s.logger.Warn("saving traffic counts", zap.Error(err))
		}
	}
}

// Destruct implements caddy.Destructor: the last config that counted the
// site has stopped; the counts are saved and the verifier stopped.
func (s *trafficSite) Destruct() error {
	close(s.stop)
	<-s.done
	s.verifier.Close()
	return s.save()
}

// trafficSitesSnapshot lists the sites' traffic states by key.
func trafficSitesSnapshot() []*trafficSite {
	var out []*trafficSite
	trafficSites.Range(func(_, v any) bool {
		out = append(out, v.(*trafficSite))
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
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

// Interface guards
var _ caddy.Destructor = (*trafficSite)(nil)
