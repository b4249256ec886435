package convert

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestDropHeadingIDs: on readability's copy, an id that is its heading's
// text made a slug goes (readability would read "comments" as chrome); an
// id that names something else stays.
func TestDropHeadingIDs(t *testing.T) {
	for _, tc := range []struct {
		name, html string
		kept       bool
	}{
		{"a Sphinx section named by its numbered heading", `<section id="comments"><span id="id4"></span><h3>2.1.3. Comments<a class="headerlink" href="#comments">¶</a></h3><p>A comment starts with a hash.</p></section>`, false},
		{"an mdBook heading", `<h2 id="comments"><a class="header" href="#comments">Comments</a></h2>`, false},
		{"a heading of two words", `<h2 id="share-buttons">Share buttons</h2>`, false},
		{"a blog's comment thread", `<div id="comments"><h2>3 thoughts on “Tides”</h2><ol class="comment-list"></ol></div>`, true},
		{"a thread with no heading", `<div id="comments"><p>Nice post!</p></div>`, true},
		{"an id that is part of a word", `<section id="ments"><h2>Comments</h2></section>`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := html.Parse(strings.NewReader("<body>" + tc.html + "</body>"))
			if err != nil {
				t.Fatal(err)
			}
			first := findFirst(doc, atom.Body).FirstChild
			dropHeadingIDs(doc)
			if got := attr(first, "id") != ""; got != tc.kept {
				t.Errorf("id kept = %v, want %v", got, tc.kept)
			}
		})
	}
}

func TestSlugOf(t *testing.T) {
	for in, want := range map[string]string{
		"2.1.3. Comments¶":  "2-1-3-comments",
		"  Share  buttons ": "share-buttons",
		"NULL “Constraint”": "null-constraint",
		"":                  "",
	} {
		if got := slugOf(in); got != want {
			t.Errorf("slugOf(%q) = %q, want %q", in, got, want)
		}
	}
}
