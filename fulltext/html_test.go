package fulltext

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

func TestFromHTML(t *testing.T) {
	for name, c := range map[string]struct {
		html, title string
		want        []Section
	}{
		"empty": {"", "", nil},
		"title and lead": {"<title> A  page </title><p>Lead text.</p>", "A page",
			[]Section{{Text: "Lead text."}}},
		"sections at headings": {"<nav>Home › Docs</nav><h1>Guide<a class=headerlink>¶</a></h1><p>One.</p><h2>Usage</h2><p>Two.</p>", "",
			[]Section{{Text: "Home › Docs"}, {Heading: "Guide", Text: "One."}, {Heading: "Usage", Text: "Two."}}},
		"definition list, table, code": {"<h2>Options</h2><dl><dt>-v</dt><dd>verbose</dd></dl><table><tr><td>a</td><td>b</td></tr></table><pre>x = 1</pre>", "",
			[]Section{{Heading: "Options", Text: "-v\nverbose\na\tb\nx = 1"}}},
		"left out": {"<script>var x = '<h1>no</h1>'</script><style>p{}</style><svg><text>no</text></svg><template><p>no</p></template><p>yes</p>", "",
			[]Section{{Text: "yes"}}},
		"entities and heading blocks": {"<h3>A<br>B &amp; C</h3><p>&lt;tag&gt;</p>", "",
			[]Section{{Heading: "A B & C", Text: "<tag>"}}},
	} {
		t.Run(name, func(t *testing.T) {
			title, got, err := FromHTML(strings.NewReader(c.html))
			if err != nil || title != c.title || !reflect.DeepEqual(got, c.want) {
				t.Errorf("FromHTML = %q, %q, %v; want %q, %q", title, got, err, c.title, c.want)
			}
		})
	}
	boom := errors.New("boom")
	if _, _, err := FromHTML(iotest.ErrReader(boom)); !errors.Is(err, boom) {
		t.Errorf("a failing reader: %v", err)
	}
}

// FuzzFromHTML: any bytes give sections without panicking, and their text
// indexes and searches.
func FuzzFromHTML(f *testing.F) {
	f.Add("<h1>a</h1><p>b c</p>")
	f.Add("<svg><h1>x</svg></h1><script>")
	f.Fuzz(func(t *testing.T, s string) {
		title, secs, err := FromHTML(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		x := Build([]Document{{Title: title, Sections: secs}}, "")
		x.Search(s, 3)
	})
}
