package connect

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestPacked(t *testing.T) {
	random := make([]byte, 4096)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	doc := []byte(strings.Repeat("## Usage\n\nThe `open()` function returns a file object; see [os](/library/os.html).\n\n", 200))
	tests := []struct {
		name    string
		md      []byte
		raw     bool
		smaller bool // held in fewer bytes than the Markdown
	}{
		{"empty", nil, true, false},
		{"one line", []byte("# Hi\n"), true, false},
		{"incompressible", random, true, false},
		{"documentation", doc, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pack(tt.md)
			if p.raw != tt.raw || p.n != len(tt.md) {
				t.Errorf("raw %v, n %d; want %v, %d", p.raw, p.n, tt.raw, len(tt.md))
			}
			if tt.smaller && cap(p.b) > len(tt.md)/3 {
				t.Errorf("held %d bytes (capacity) of %d", cap(p.b), len(tt.md))
			}
			if got := p.bytes(); !bytes.Equal(got, tt.md) {
				t.Errorf("bytes() = %d bytes, want the %d packed", len(got), len(tt.md))
			}
		})
	}
	// pack copies: the Source's buffer may be reused.
	buf := []byte("# Title\n\nbody\n")
	p := pack(buf)
	buf[2] = 'X'
	if string(p.bytes()) != "# Title\n\nbody\n" {
		t.Errorf("pack kept the caller's slice: %q", p.bytes())
	}
}
