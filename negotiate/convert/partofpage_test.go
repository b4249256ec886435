package convert

import (
	"strings"
	"testing"
)

// servicePageIn is a service page, its menu and sections in a <wrap>
// element (a <div>, or a <main>: the landmark): a section readability
// takes for the article (four long paragraphs), and more sections of the
// page beside it, each a heading over a short list, as a page builder
// lays them out.
func servicePageIn(head, wrap string) string {
	para := func(s string) string {
		return "<p>" + s + " We move homes and offices across the city, with trained crews, padded trucks and a fixed price agreed before the day. " +
			"The crew arrives on time, wraps the furniture, loads the truck and sets everything down in the rooms you name at the other end, and the price does not change.</p>"
	}
	var b strings.Builder
	b.WriteString(`<html><head>` + head + `</head><body><` + wrap + `><div class="menu"><a href="/">Home</a> <a href="/movers">Movers</a> <a href="/prices">Prices</a> <a href="/contact">Contact</a></div>`)
	b.WriteString(`<div class="row"><div class="col"><div class="intro">` + para("Local movers you can trust.") + para("Every mover is background checked.") + para("Rated five stars by our customers.") + para("Booked online in minutes.") + `</div></div></div>`)
	for _, s := range []string{"Straightforward pricing", "Adjustable booking", "Long distance moves", "Packing help", "Storage", "Office moves", "Piano moving", "Junk removal", "Student moves", "Senior moves", "Same-day moves", "Insurance", "Apartment moves", "Art moving", "Gun safes", "Weekend moves"} {
		b.WriteString(`<div class="row"><div class="col"><section class="card"><h3>` + s + `</h3><ul><li>` + s + ` is part of every plan we sell to customers in the city.</li>` +
			`<li>Ask the crew about ` + strings.ToLower(s) + ` when you book, and it is on the quote.</li></ul></section></div></div>`)
	}
	b.WriteString(`<div class="links"><a href="/a">About</a> <a href="/b">Careers</a> <a href="/c">Press</a></div></` + wrap + `></body></html>`)
	return b.String()
}

// TestPartOfPage checks that readability's article on a page that is not
// an article, when the page holds much more text than it, gives way to
// the cleaned body, or inside a landmark leaves the landmark whole, and
// that a page declared an article keeps it.
func TestPartOfPage(t *testing.T) {
	for _, tc := range []struct {
		name, head, wrap, extract string
		want, notWant             []string
	}{
		{
			name:    "a service page's sections are the page",
			extract: "body+cleaned",
			want:    []string{"Local movers", "### Straightforward pricing", "Junk removal is part of every plan"},
			notWant: []string{"Careers"},
		},
		{
			name:    "a landmark holding a service page's sections stays whole",
			wrap:    "main",
			extract: "landmark:main",
			want:    []string{"Local movers", "### Straightforward pricing", "Junk removal is part of every plan"},
		},
		{
			name:    "a landmark on a page declared an article is narrowed",
			head:    `<meta property="og:type" content="article">`,
			wrap:    "main",
			extract: "landmark:main+pruned",
			want:    []string{"Local movers"},
			notWant: []string{"Junk removal is part of every plan"},
		},
		{
			name:    "a page declared an article is readability's",
			head:    `<meta property="og:type" content="article">`,
			extract: "readability",
			want:    []string{"Local movers"},
			notWant: []string{"Junk removal is part of every plan"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wrap := tc.wrap
			if wrap == "" {
				wrap = "div"
			}
			res, err := mustNew(t, Options{}).Convert([]byte(servicePageIn(tc.head, wrap)), testURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := string(res.Markdown)
			if res.Extraction != tc.extract {
				t.Errorf("Extraction = %q, want %q", res.Extraction, tc.extract)
			}
			checkHolds(t, got, tc.want, tc.notWant)
		})
	}
}
