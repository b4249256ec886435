package convert

import (
	"strings"
	"testing"
)

func TestDropStandfirst(t *testing.T) {
	story := "<p>" + strings.Repeat("The tide rose twice on Thursday evening. ", 10) + "</p>"
	const deck = "Why the harbour floods twice a year, and what the town plans to do about it."
	desc := `<meta name="description" content="` + deck + `">`
	const article = `<meta property="og:type" content="article">`
	const dated = `<meta property="article:published_time" content="2026-03-01">`
	for _, tc := range []struct {
		name, head, html string
		gone             bool
	}{
		{
			name: "the description under the title, in the title's box, goes",
			head: article + desc,
			html: `<header><a href="/blog">Back to blog</a><h1>Floods</h1><div class="dek">` + deck + `</div></header><article>` + story + `</article>`,
			gone: true,
		},
		{
			name: "on a page with a published date too",
			head: dated + desc,
			html: `<div><h1>Floods</h1><h2>` + deck + `</h2></div>` + story,
			gone: true,
		},
		{
			name: "a description cut short with an ellipsis",
			head: article + `<meta name="description" content="Why the harbour floods twice a year, and what the...">`,
			html: `<div><h1>Floods</h1><p><strong>` + deck + `</strong></p></div>` + story,
			gone: true,
		},
		{
			name: "the article's first paragraph (its lede) stays",
			head: article + desc,
			html: `<h1>Floods</h1><p>` + deck + `</p>` + story,
		},
		{
			name: "a service's tagline stays (no article, no date)",
			head: desc,
			html: `<div><h1>Floods</h1><p>` + deck + `</p></div>` + story,
		},
		{
			name: "other words than the description stay",
			head: article + `<meta name="description" content="A guide to the harbour's tides for visitors and fishermen alike.">`,
			html: `<div><h1>Floods</h1><p>` + deck + `</p></div>` + story,
		},
		{
			name: "a description that is a short page's whole text stays",
			head: article + `<meta name="description" content="` + strings.Repeat(deck+" ", 4) + `">`,
			html: `<div><h1>Floods</h1><p>` + strings.Repeat(deck+" ", 4) + `</p></div>` + story,
		},
		{
			name: "a kept element stays",
			head: article + desc,
			html: `<div><h1>Floods</h1><p class="keep-me">` + deck + `</p></div>` + story,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := convertInMain(t, Settings{Keep: []string{".keep-me"}}, tc.head, tc.html)
			body := md[strings.Index(md, "# Floods"):]
			if gone := !strings.Contains(body, "what the town plans"); gone != tc.gone {
				t.Errorf("standfirst gone = %v, want %v:\n%s", gone, tc.gone, md)
			}
			if !strings.Contains(body, "Thursday evening") {
				t.Errorf("the story went:\n%s", md)
			}
		})
	}
}
