package admission

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a test leaves a goroutine behind: a
// waiter that never left its queue.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
