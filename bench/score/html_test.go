package score

import (
	"strings"
	"testing"
)

func TestHTMLText(t *testing.T) {
	tests := []struct {
		name, in string
		want     Bag
	}{
		{"blocks separate words", "<p>one</p><p>two</p><li>three</li>", Bag{"one": 1, "two": 1, "three": 1}},
		{"inline joins words", "<p>foo<b>bar</b> <a href=\"/x\">baz</a></p>", Bag{"foobar": 1, "baz": 1}},
		{"line break separates", "a<br>b", Bag{"a": 1, "b": 1}},
		{"scripts and styles skipped", "<script>var x</script><style>p{}</style><noscript>js off</noscript>kept", Bag{"kept": 1}},
		{"alt text is not text content", "<p>see <img alt=\"chart of sales\" src=\"a.png\"></p>", Bag{"see": 1}},
		{"entities decoded", "<p>Kettle &amp; Crumb</p>", Bag{"kettle": 1, "crumb": 1}},
		{"table cells separate", "<table><tr><td>a</td><td>b</td></tr></table>", Bag{"a": 1, "b": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, err := HTMLText(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := Words(text); !equalBags(got, tt.want) {
				t.Errorf("words of %q = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestHTMLTextDeepNesting(t *testing.T) {
	nest := func(depth int) string {
		return strings.Repeat("<div>", depth) + "deep" + strings.Repeat("</div>", depth)
	}
	text, err := HTMLText(strings.NewReader(nest(500)))
	if err != nil {
		t.Fatalf("500 levels: %v", err)
	}
	if got := Words(text); !equalBags(got, Bag{"deep": 1}) {
		t.Errorf("words = %v, want deep", got)
	}
	// Past the parser's own limit the document is refused, not walked.
	if _, err := HTMLText(strings.NewReader(nest(100000))); err == nil {
		t.Error("100000 levels: want an error from the parser")
	}
}

func equalBags(a, b Bag) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func FuzzHTMLText(f *testing.F) {
	f.Add("<p>a<b>b</b></p><script>x</script>")
	f.Add("<table><td>unclosed")
	f.Fuzz(func(t *testing.T, s string) {
		text, err := HTMLText(strings.NewReader(s))
		if err != nil {
			t.Skip()
		}
		if len(text) > 3*len(s)+16 {
			t.Fatalf("%d bytes of text from %d bytes of html", len(text), len(s))
		}
	})
}
