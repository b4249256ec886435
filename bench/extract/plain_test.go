package main

import (
	"strings"
	"testing"
)

func TestPlainText(t *testing.T) {
	for _, c := range []struct{ md, want string }{
		{"---\ntitle: x\n---\nim [Thermen- & Vulkanland](https://x.example/?a=1&b=2) belegt", "im Thermen- & Vulkanland belegt"},
		{"a **bold** and *em* and `code`", "a bold and em and code"},
		{"snake\\_case \\*not\\* &amp; &#228;", "snake_case *not* & ä"},
		{"see <https://www.openpetition.de> now", "see https://www.openpetition.de now"},
		{"![alt text](i.png) after", "after"},
		{"one\ntwo\n\n- item", "one two item"},
		{"| a | b |\n|---|---|\n| c | d |", "a b c d"},
		{"```go\nx := 1\n```", "x := 1"},
		{"raw <span>html</span> kept", "raw html kept"},
	} {
		got := strings.Join(strings.Fields(plainText([]byte(c.md))), " ")
		if got != c.want {
			t.Errorf("plainText(%q) = %q, want %q", c.md, got, c.want)
		}
	}
}
