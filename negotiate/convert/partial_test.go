package convert

import (
	"strings"
	"testing"
)

// servicePage is a page without a landmark made of parts under a header
// of links: a list of what the company does, each item a heading over a
// sentence (readability scores no list item), and its questions, n
// paragraphs of prose, which readability keeps as its article.
func servicePage(head, word string, n int) string {
	item := func(title, word string) string {
		return `<li><h3>` + title + `</h3>` + word + ` is what we do for you, told in a short paragraph that a reader takes in at a glance, with a clause or two.</li>`
	}
	var items strings.Builder
	for _, w := range []string{"Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Hotel", "India", "Juliet", "Kilo", "Lima", "Mike", "November", "Oscar"} {
		items.WriteString(item(w+" service", w))
	}
	return `<html><head>` + head + `</head><body><header><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/about">About</a> <a href="/contact">Contact</a></header>` +
		`<div class="hero"><h1>Movers in Springfield</h1><ul class="services">` + items.String() + `</ul></div>` +
		`<div class="faq"><h2>Questions</h2>` + prose(word, n) + `</div>` +
		`<ul class="links"><li><a href="/a">Movers in Shelbyville</a></li><li><a href="/b">Movers in Capital City</a></li><li><a href="/c">Movers in Ogdenville</a></li></ul></body></html>`
}

// TestArticleIsPart: when readability's article is less than half of a
// page's text and the page does not declare an article, the cleaned body
// is the content (a service page's sections all stay, its header and link
// lists go); a declared article, or one that holds most of the text, is
// not taken for a part.
func TestArticleIsPart(t *testing.T) {
	sections := []string{"Alpha is what", "Delta is what", "Kilo is what", "Golf is a sentence"}
	tests := []struct {
		name          string
		html          string
		want, notWant []string
		extract       string
	}{
		{
			name:    "a service page's sections all stay",
			html:    servicePage("", "Golf", 4),
			want:    sections,
			notWant: []string{"Movers in Shelbyville", "[Pricing]"},
			extract: "body+cleaned",
		},
		{
			// readability as an oracle, as before: it dropped the items'
			// headings (structureDropped)
			name:    "a declared article is not taken for a part",
			html:    servicePage(`<meta property="og:type" content="article">`, "Golf", 4),
			want:    []string{"Golf is a sentence"},
			extract: "body+oracle",
		},
		{
			name:    "an article that holds most of the text is readability's",
			html:    servicePage("", "Golf", 12),
			want:    []string{"Golf is a sentence"},
			notWant: []string{"Alpha is what", "Kilo is what"},
			extract: "readability",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := mustNew(t, Options{}).Convert([]byte(tt.html), testURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			md := string(res.Markdown)
			for _, w := range tt.want {
				if !strings.Contains(md, w) {
					t.Errorf("Markdown lacks %q:\n%s", w, md)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(md, w) {
					t.Errorf("Markdown holds %q:\n%s", w, md)
				}
			}
			if res.Extraction != tt.extract {
				t.Errorf("Extraction = %q, want %q", res.Extraction, tt.extract)
			}
		})
	}
}

// mainServicePage is servicePage's parts inside a <main>, with a list of
// links to other cities and a newsletter form: n items of what the
// company does (readability scores no list item) and four paragraphs of
// questions, which readability keeps.
func mainServicePage(head string, n int) string {
	var items strings.Builder
	for i := range n {
		w := string(rune('A'+i%26)) + "service"
		items.WriteString(`<li><strong>` + w + `.</strong> ` + w + ` is what we do for you, told in a short paragraph that a reader takes in at a glance, with a clause or two.</li>`)
	}
	return `<html><head>` + head + `</head><body><header><a href="/">Home</a> <a href="/pricing">Pricing</a></header><main>` +
		`<h1>Movers in Springfield</h1><div class="features"><ul>` + items.String() + `</ul></div>` +
		`<div class="faq"><h2>Questions</h2>` + prose("Golf", 4) + `</div>` +
		`<div class="cities"><a href="/a">Movers in Shelbyville</a> <a href="/b">Movers in Capital City</a> <a href="/c">Movers in Ogdenville</a></div>` +
		`<div class="signup"><p>Get our moving checklist</p><input type="email"><button>Subscribe</button></div>` +
		`</main><footer>© Bellboy</footer></body></html>`
}

// TestKeptIsPart: when readability keeps less than a fifth of a
// landmark's text on a page that does not declare an article, the oracle
// removes only the landmark's chrome (link lists, widget forms), not the
// sections readability left out; otherwise it removes what readability
// kept nothing of.
func TestKeptIsPart(t *testing.T) {
	tests := []struct {
		name          string
		html          string
		want, notWant []string
	}{
		{
			name:    "a service page's sections stay, its chrome goes",
			html:    mainServicePage("", 26),
			want:    []string{"Aservice is what", "Zservice is what", "Golf is a sentence"},
			notWant: []string{"Shelbyville", "Subscribe", "moving checklist"},
		},
		{
			name:    "a declared article is pruned to what readability kept",
			html:    mainServicePage(`<meta property="og:type" content="article">`, 26),
			want:    []string{"Golf is a sentence"},
			notWant: []string{"Aservice is what", "Shelbyville"},
		},
		{
			name:    "a fifth kept or more: pruned to what readability kept",
			html:    mainServicePage("", 12),
			want:    []string{"Golf is a sentence"},
			notWant: []string{"Aservice is what", "Shelbyville"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := mustNew(t, Options{}).Convert([]byte(tt.html), testURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			md := string(res.Markdown)
			for _, w := range tt.want {
				if !strings.Contains(md, w) {
					t.Errorf("Markdown lacks %q:\n%s", w, md)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(md, w) {
					t.Errorf("Markdown holds %q:\n%s", w, md)
				}
			}
			if res.Extraction != "landmark:main+pruned" {
				t.Errorf("Extraction = %q, want landmark:main+pruned", res.Extraction)
			}
		})
	}
}
