package fleet

import (
	"fmt"
	"time"

	"github.com/agentready/caddy-agentready/internal/setting"
)

// Settings makes the instances that share Caddy's `storage` act as one
// site: one crawl per refresh for all of them, the traffic view's counts
// summed over them, the MCP and /ask rate limits counted across them. It
// is the agent_ready handler's fleet setting, off unless set: a single
// instance gains nothing from it.
type Settings struct {
	// SyncInterval is how often each instance writes its rate-limit
	// counts to the storage and reads the others': the fleet's limit is
	// approximate by this much. Default: 5s.
	SyncInterval setting.Duration `json:"sync_interval,omitempty"`
}

// DefaultSyncInterval is Settings.SyncInterval's default
// (caddy-ratelimit's).
const DefaultSyncInterval = 5 * time.Second

// Every is how often the rate-limit counts are synced.
func (s Settings) Every() time.Duration {
	if s.SyncInterval <= 0 {
		return DefaultSyncInterval
	}
	return time.Duration(s.SyncInterval)
}

// ParseSetting reads the Caddyfile's `fleet on|off|<sync interval>`: nil
// for off.
func ParseSetting(v string) (*Settings, error) {
	switch v {
	case "off":
		return nil, nil
	case "on":
		return new(Settings), nil
	}
	d, err := setting.Positive(v)
	if err != nil {
		return nil, fmt.Errorf("expected on, off or a sync interval, got '%s'", v)
	}
	return &Settings{SyncInterval: d}, nil
}
