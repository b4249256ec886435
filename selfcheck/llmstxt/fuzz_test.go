package llmstxt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzInspect(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "inspect", "*.txt"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("```\n# a\n~~~\n[x](y)"))
	f.Fuzz(func(t *testing.T, b []byte) {
		facts := Inspect(b)
		if facts.Size > len(b) || len(facts.Links) > maxLinks || len(facts.Instructions) > maxInstructionLines {
			t.Fatalf("facts out of bounds: %+v", facts)
		}
		if facts.HasInstructions != (len(facts.Instructions) > 0) {
			t.Fatalf("HasInstructions disagrees with Instructions: %+v", facts)
		}
		if utf8.Valid(b) && len(facts.ContactLine) > maxLineRecord+len("…") {
			t.Fatalf("contact line not clipped: %d bytes", len(facts.ContactLine))
		}
		Audit(200, b)
	})
}

func BenchmarkInspect(b *testing.B) {
	one, err := os.ReadFile(filepath.Join("testdata", "inspect", "complete.txt"))
	if err != nil {
		b.Fatal(err)
	}
	big := []byte(strings.Repeat(string(one), 100000/len(one)+1)) // ~100 kB, what agents read
	b.SetBytes(int64(len(big)))
	b.ReportAllocs()
	for b.Loop() {
		Inspect(big)
	}
}
