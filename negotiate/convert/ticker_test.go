package convert

import (
	"strings"
	"testing"
)

// TestDropTickers: a marquee's phrase, written in five or more copies of
// the same markup in a row, is written once; copies that differ in an
// image or a link, fewer copies, table cells and long texts stay.
func TestDropTickers(t *testing.T) {
	tests := []struct {
		name  string
		html  string
		count map[string]int // substring: times it must appear in the Markdown
	}{
		{
			name:  "a marquee of spans",
			html:  `<main><h1>Packaging</h1>` + prose("Kilo", 2) + `<div class="marquee">` + strings.Repeat(`<span>Book Now <span class="star">*</span></span>`, 40) + `</div></main>`,
			count: map[string]int{"Book Now": 1, "Kilo is a sentence": 2},
		},
		{
			name:  "a marquee of list items",
			html:  `<main><h1>Course</h1>` + prose("Lima", 2) + `<ul>` + strings.Repeat(`<li class="tick"><p>SECURE YOUR SPOT - ENROL NOW</p></li>`, 12) + `</ul></main>`,
			count: map[string]int{"SECURE YOUR SPOT": 1},
		},
		{
			name:  "four copies stay",
			html:  `<main><h1>Course</h1>` + prose("Lima", 2) + `<div>` + strings.Repeat(`<p>Enrol now</p>`, 4) + `</div></main>`,
			count: map[string]int{"Enrol now": 4},
		},
		{
			name: "cards that differ in their image stay",
			html: `<main><h1>Coupons</h1>` + prose("Mike", 2) + `<div>` +
				`<div><img src="/a.svg" alt="Bed bugs"><p>Expires 01/01/26</p></div><div><img src="/b.svg" alt="Rodents"><p>Expires 01/01/26</p></div>` +
				`<div><img src="/c.svg" alt="Mosquitoes"><p>Expires 01/01/26</p></div><div><img src="/d.svg" alt="Ants"><p>Expires 01/01/26</p></div>` +
				`<div><img src="/e.svg" alt="Termites"><p>Expires 01/01/26</p></div></div></main>`,
			count: map[string]int{"Expires 01/01/26": 5},
		},
		{
			name:  "a table row of alike cells stays",
			html:  `<main><h1>Plans</h1>` + prose("Oscar", 2) + `<table><tr><th>Feature</th><th>A</th><th>B</th><th>C</th><th>D</th><th>E</th></tr><tr><td>Support</td>` + strings.Repeat(`<td>Yes</td>`, 5) + `</tr></table></main>`,
			count: map[string]int{"Yes": 5},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := mustNew(t, Options{}).Convert([]byte(tt.html), testURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			md := string(res.Markdown)
			for s, n := range tt.count {
				if got := strings.Count(md, s); got != n {
					t.Errorf("%q appears %d times, want %d:\n%s", s, got, n, md)
				}
			}
		})
	}
}
