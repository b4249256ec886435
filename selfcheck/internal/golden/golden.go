// Package golden compares what a test produced with a golden file under
// testdata, and rewrites the file when the tests run with -update (review the
// diff before committing it). Only tests import it.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// maxShown bounds the output a failure prints in full; larger files are
// named only, to be compared with git diff after -update.
const maxShown = 8 << 10

// Check compares got with the golden file at path. With -update it first
// writes got to path, creating its folder.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run go test -update): %v", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	if len(got)+len(want) > maxShown {
		t.Errorf("%s differs from the golden file (run go test -update and review the diff)", path)
		return
	}
	t.Errorf("%s differs from the golden file (run go test -update and review the diff):\ngot:\n%s\nwant:\n%s", path, got, want)
}
