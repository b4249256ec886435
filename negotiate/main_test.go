package negotiate

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a goroutine outlives the tests: a rewriter that
// was not closed, or a handler stuck on a hung origin.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
