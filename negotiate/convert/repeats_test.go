package convert

import (
	"strings"
	"testing"
)

func TestDropRepeats(t *testing.T) {
	story := `<p>Home remodeling in California is a significant investment, with costs varying by region.</p>` +
		`<h2>What it costs</h2><p>Cosmetic updates range between one and three hundred dollars a square foot.</p>`
	want := "Home remodeling in California is a significant investment, with costs varying by region.\n\n" +
		"## What it costs\n\nCosmetic updates range between one and three hundred dollars a square foot.\n"
	terms := `<p>Not valid with other offers or coupons, some restrictions may apply.</p>`
	for _, tc := range []struct {
		name, html, want string
	}{
		{
			name: "a site builder's three screen-size variants are read once",
			html: `<div class="ssr-variant hidden-a">` + story + `</div><div class="ssr-variant hidden-b">` + story +
				`</div><div class="ssr-variant hidden-c">` + story + `</div>`,
			want: want,
		},
		{
			name: "a product's description in a tab and again in an accordion",
			html: `<div class="tabs"><p>Details</p>` + story + `</div><details><summary>Details</summary>` + story + `</details>`,
			want: "Details\n\n" + want,
		},
		{
			name: "the terms under each offer stay: each offer's own text sits between them",
			html: `<h3>Ten percent off boots</h3><p>Save on every pair of winter boots in the store this week.</p>` + terms +
				`<h3>Free shipping</h3><p>Orders over fifty dollars ship free to any address in the country.</p>` + terms,
			want: "### Ten percent off boots\n\nSave on every pair of winter boots in the store this week.\n\n" +
				"Not valid with other offers or coupons, some restrictions may apply.\n\n" +
				"### Free shipping\n\nOrders over fifty dollars ship free to any address in the country.\n\n" +
				"Not valid with other offers or coupons, some restrictions may apply.\n",
		},
		{
			name: "a reply's quote of the post above it stays",
			html: `<div class="post"><p>Is the display of the new tablet an OLED panel or an LCD one?</p></div>` +
				`<div class="post"><blockquote><p>Is the display of the new tablet an OLED panel or an LCD one?</p></blockquote><p>OLED.</p></div>`,
			want: "Is the display of the new tablet an OLED panel or an LCD one?\n\n" +
				"> Is the display of the new tablet an OLED panel or an LCD one?\n\nOLED.\n",
		},
		{
			name: "a command shown twice stays",
			html: `<pre>go install example.com/tool/cmd/tool@latest and then run it once</pre>` +
				`<pre>go install example.com/tool/cmd/tool@latest and then run it once</pre>`,
			want: strings.TrimSuffix(strings.Repeat("```\ngo install example.com/tool/cmd/tool@latest and then run it once\n```\n\n", 2), "\n"),
		},
		{
			name: "a paragraph repeated on its own stays",
			html: strings.Repeat(`<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>`, 2),
			want: "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.\n\n" +
				"Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.\n",
		},
		{
			name: "short repeats stay",
			html: `<p>Add to cart now</p><p>Add to cart now</p>`,
			want: "Add to cart now\n\nAdd to cart now\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mainBody(t, tc.html); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// mainBody converts html inside a <main>, with front matter, and returns
// the Markdown after it.
func mainBody(t *testing.T, html string) string {
	t.Helper()
	res, err := mustNew(t, Options{FrontMatter: true}).Convert([]byte("<main>"+html+"</main>"), testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return afterFrontMatter(string(res.Markdown))
}
