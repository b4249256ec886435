package sites

import (
	"time"

	"github.com/agentready/caddy-agentready/internal/setting"
)

// Settings configures the traffic view of a site (issue #17): who reads
// it (AI crawlers, fetchers and agents, generic clients, browsers), what
// they read, in which form, and whether the clients that claim to be a
// known agent are. The counts live across config reloads and are saved in
// Caddy's data directory. The YAML's policy.enforce uses the same
// classification and verification. It is the agent_ready handler's
// traffic setting.
type Settings struct {
	// Disabled turns counting off (enforcement, when the YAML asks for it,
	// still applies). Default: false.
	Disabled bool `json:"disabled,omitempty"`

	// SaveInterval is how often the counts are written to the data
	// directory (`<caddy data dir>/agent_ready/traffic-<site>.json`), in
	// Caddy's duration syntax; they are also written when the last config
	// that counts the site stops, and read back when counting starts. A
	// negative value saves only at stop. Default: 5m.
	SaveInterval setting.Duration `json:"save_interval,omitempty"`

	// Ranges maps the URL of an operator's published IP-range list, as the
	// data file of known agents names it (https://openai.com/gptbot.json,
	// …), to a local file holding a copy: the agents of that operator are
	// verified against it. Default: none.
	Ranges map[string]string `json:"ranges,omitempty"`

	// RefreshRanges is, when positive, the interval at which every range
	// list the data file names is fetched from the operators, the first
	// time at start (a list that fails to load keeps the copy it had).
	// Default: 0 (off: only the files of Ranges are used).
	RefreshRanges setting.Duration `json:"refresh_ranges,omitempty"`

	// ReverseDNS verifies agents whose operator publishes host names
	// (Googlebot, Applebot…) by forward-confirmed reverse DNS, in the
	// background, with a bounded queue and cache. Default: true.
	ReverseDNS *bool `json:"reverse_dns,omitempty"`
}

// DefaultSaveInterval is Settings.SaveInterval's default.
const DefaultSaveInterval = 5 * time.Minute

// Subdirectives is the syntax of the Caddyfile's traffic block.
var Subdirectives = setting.Block[Settings]{
	"save_interval":  setting.Word(func(s *Settings) *setting.Duration { return &s.SaveInterval }, setting.PositiveOr(-1)),
	"refresh_ranges": setting.Word(func(s *Settings) *setting.Duration { return &s.RefreshRanges }, setting.PositiveOr(0)),
	"reverse_dns":    setting.Word(func(s *Settings) **bool { return &s.ReverseDNS }, setting.Switch),
	"ranges": func(s *Settings, args []string) error {
		if len(args) != 2 {
			return setting.ErrArgs
		}
		if s.Ranges == nil {
			s.Ranges = map[string]string{}
		}
		s.Ranges[args[0]] = args[1]
		return nil
	},
}

// SaveEvery is SaveInterval, or its default when unset.
func (s Settings) SaveEvery() time.Duration { return s.SaveInterval.Or(DefaultSaveInterval) }

// NoReverseDNS reports whether ReverseDNS is turned off.
func (s Settings) NoReverseDNS() bool { return s.ReverseDNS != nil && !*s.ReverseDNS }
