package admission

import (
	"errors"
	"runtime"
	"sync"
	"time"

	"github.com/agentready/caddy-agentready/internal/setting"
)

// Queue is the agent_ready handler's settings of the conversion queue;
// the handler embeds it, so its fields are the handler's JSON fields.
type Queue struct {
	// QueueTimeout is the longest a Markdown request waits for its turn
	// to be converted, all waits together: behind its own client's
	// earlier conversions (ConversionsPerClient), for memory (the bytes
	// of HTML being converted at once: as many max_size pages as cores),
	// and, once the page has been read, for a CPU slot (conversions run
	// at once on one core fewer than the machine has, at least one, so a
	// browser's HTML always finds a core). Past it the page is sent as
	// HTML (logged, and counted with reason `busy`). Browsers' HTML never
	// waits here. It takes Caddy's duration syntax. Default: 2s.
	QueueTimeout setting.Duration `json:"queue_timeout,omitempty"`

	// ConversionsPerClient is how many Markdown conversions of one client
	// (Caddy's `client_ip`: the connection's address, or the forwarded
	// one behind `trusted_proxies`) are admitted at once, waiting for a
	// CPU slot or converting; the client's further ones wait behind them
	// (within QueueTimeout), so a client that sends many at once delays
	// another client's conversion by at most this many of its own.
	// Default: 2.
	ConversionsPerClient int `json:"conversions_per_client,omitempty"`
}

// Defaults of Queue.
const (
	DefaultQueueTimeout         = 2 * time.Second
	DefaultConversionsPerClient = 2
)

// Provision checks q and fills in ConversionsPerClient's default.
func (q *Queue) Provision() error {
	if q.QueueTimeout < 0 {
		return errors.New("queue_timeout must not be negative")
	}
	if q.ConversionsPerClient < 0 {
		return errors.New("conversions_per_client must not be negative")
	}
	if q.ConversionsPerClient == 0 {
		q.ConversionsPerClient = DefaultConversionsPerClient
	}
	return nil
}

// Timeout is QueueTimeout, or its default when unset.
func (q Queue) Timeout() time.Duration { return q.QueueTimeout.Or(DefaultQueueTimeout) }

// processSlots is the CPU gate of the process: every handler's
// conversions share the machine's cores.
var processSlots = sync.OnceValue(func() *Slots { return NewSlots(DefaultSlots()) })

// Gate is a handler's admission: q's conversions per client, as many
// maxSize pages in memory as there are cores to convert them (on 2
// cores, 4 MiB of HTML, about 120 MB of live heap at the worst), and the
// process's CPU slots.
func (q Queue) Gate(maxSize int64) *Gate {
	return New(Limits{PerClient: q.ConversionsPerClient, Bytes: int64(max(2, runtime.GOMAXPROCS(0))) * maxSize}, processSlots())
}
