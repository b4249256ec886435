package main

import "testing"

func TestDropTitle(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"---\ntitle: A\n---\n# A\n\nBody words.\n", "---\ntitle: A\n---\n\n\nBody words.\n"},
		{"---\ntitle: A\n---\n\n# A\nBody\n", "---\ntitle: A\n---\n\n\nBody\n"},
		{"# A\n\nBody\n", "\n\nBody\n"},
		{"---\ntitle: A\n---\n## Not the title\n\n# Later\n", "---\ntitle: A\n---\n## Not the title\n\n# Later\n"},
		{"---\ntitle: A\n---\nBody\n# Later\n", "---\ntitle: A\n---\nBody\n# Later\n"},
		{"# Only", ""},
	} {
		if got := string(dropTitle([]byte(c.in))); got != c.want {
			t.Errorf("dropTitle(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
