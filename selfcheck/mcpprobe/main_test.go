package mcpprobe

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a probe leaves goroutines behind (a body
// not closed, a stream not abandoned).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
