package connect

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run when a test leaves goroutines behind. bleve's
// package-level analysis workers live for the whole process and are ignored.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("github.com/blevesearch/bleve_index_api.AnalysisWorker"),
	)
}
