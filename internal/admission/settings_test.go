package admission

import (
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/internal/setting"
)

func TestQueueProvision(t *testing.T) {
	for _, tc := range []struct {
		q       Queue
		timeout time.Duration
		per     int
		err     string
	}{
		{Queue{}, DefaultQueueTimeout, DefaultConversionsPerClient, ""},
		{Queue{QueueTimeout: setting.Duration(time.Second), ConversionsPerClient: 5}, time.Second, 5, ""},
		{Queue{QueueTimeout: -1}, 0, 0, "queue_timeout must not be negative"},
		{Queue{ConversionsPerClient: -1}, 0, 0, "conversions_per_client must not be negative"},
	} {
		q := tc.q
		err := q.Provision()
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%+v: error %v, want %q", tc.q, err, tc.err)
			}
			continue
		}
		if err != nil || q.Timeout() != tc.timeout || q.ConversionsPerClient != tc.per || q.QueueTimeout != tc.q.QueueTimeout {
			t.Errorf("%+v: got %+v (timeout %v), %v", tc.q, q, q.Timeout(), err)
		}
	}
}
