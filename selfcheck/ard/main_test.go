package ard

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when discovery leaves goroutines behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
