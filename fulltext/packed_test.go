package fulltext

import (
	"reflect"
	"strings"
	"testing"
)

func TestPackSections(t *testing.T) {
	long := strings.Repeat("The os module provides a portable way of using operating system dependent functionality. ", 100)
	tests := []struct {
		name string
		secs []Section
	}{
		{"none", nil},
		{"one empty", []Section{{}}},
		{"heading only", []Section{{Heading: "NAME"}}},
		{"several", []Section{{Text: "intro"}, {Heading: "Usage", Text: long}, {Heading: "Ünïcode ✓", Text: "é\x00\xff"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := PackSections(tt.secs)
			got := p.Sections()
			if len(tt.secs) == 0 && got != nil || len(tt.secs) > 0 && !reflect.DeepEqual(got, tt.secs) {
				t.Errorf("Sections() = %q, want %q", got, tt.secs)
			}
			n := 0
			for _, s := range tt.secs {
				n += len(s.Heading) + len(s.Text)
			}
			if p.TextBytes() != n {
				t.Errorf("TextBytes() = %d, want %d", p.TextBytes(), n)
			}
		})
	}
	if p := PackSections([]Section{{Heading: "Usage", Text: long}}); cap(p.b) > len(long)/4 {
		t.Errorf("held %d bytes for %d of repetitive text", cap(p.b), len(long))
	}
}

// TestBuildPacked: an index built from packed text answers as one built from
// the sections themselves (ranks, headings, snippets), and Build leaves its
// input as it was.
func TestBuildPacked(t *testing.T) {
	packed := make([]Document, len(corpus))
	for i, d := range corpus {
		d.Packed, d.Sections = PackSections(d.Sections), nil
		packed[i] = d
	}
	plain, fromPacked := Build(corpus, ""), Build(packed, "")
	for _, q := range []string{"stash changes", "rebase interactive", "commit message", "nothing matches this"} {
		if a, b := plain.Search(q, 5), fromPacked.Search(q, 5); !reflect.DeepEqual(a, b) {
			t.Errorf("%q: from sections %+v, from packed %+v", q, a, b)
		}
	}
	for i := range corpus {
		if corpus[i].Sections == nil && len(packed[i].Packed.Sections()) > 0 {
			t.Fatalf("Build changed its input: document %d lost its sections", i)
		}
	}
	if res := plain.Search("stash changes", 1); len(res) == 0 || res[0].Snippet == "" {
		t.Errorf("no snippet from the packed text: %+v", res)
	}
}

// FuzzPackSections: whatever the sections hold, they come back as they
// went in, and the byte count is theirs.
func FuzzPackSections(f *testing.F) {
	f.Add("NAME", "git-stash - Stash the changes", "", "\x00\xff é")
	f.Add("", "", "Usage", strings.Repeat("a", 300))
	f.Fuzz(func(t *testing.T, h1, t1, h2, t2 string) {
		in := []Section{{Heading: h1, Text: t1}, {Heading: h2, Text: t2}}
		p := PackSections(in)
		if got := p.Sections(); !reflect.DeepEqual(got, in) {
			t.Fatalf("Sections() = %q, want %q", got, in)
		}
		if p.TextBytes() != len(h1)+len(t1)+len(h2)+len(t2) {
			t.Fatalf("TextBytes() = %d", p.TextBytes())
		}
	})
}
