package negotiate

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/agentready/caddy-agentready/negotiate/convert"
)

// TestStopReasonNamed: a converter error that names its reason
// (convert.ErrNoContent, a page with no text in its HTML) is counted under
// it, wrapped or not; any other error is "convert".
func TestStopReasonNamed(t *testing.T) {
	bg := context.Background()
	for _, tc := range []struct {
		err  error
		want string
	}{
		{convert.ErrNoContent, "no_content"},
		{fmt.Errorf("converting /app: %w", convert.ErrNoContent), "no_content"},
		{convert.ErrTooDeep, "convert"},
		{errors.New("no main content"), "convert"},
	} {
		if got := stopReason(bg, bg, tc.err); got != tc.want {
			t.Errorf("stopReason(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
