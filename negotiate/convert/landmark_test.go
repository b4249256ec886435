package convert

import (
	"strings"
	"testing"
)

// prose returns n paragraphs of article text, each starting with word.
func prose(word string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("<p>" + word + " is a sentence of the story, long enough to count as prose, with commas, clauses and more words, so that readability scores it as the article it is and keeps it whole.</p>")
	}
	return b.String()
}

// TestLandmarkSecondOpinion checks the landmarks that do not stand for the
// page: a <main> inside the page's <header> (not a hierarchically correct
// main element), a role="main" that wraps only the breadcrumbs (readability
// finds the article elsewhere), and a comment thread that is a forum topic
// (its posts are the page) beside one that is a blog's appendix.
func TestLandmarkSecondOpinion(t *testing.T) {
	menu := `<ul><li><a href="/a">Home</a></li><li><a href="/b">News</a></li><li><a href="/c">Contact</a></li></ul>`
	tests := []struct {
		name          string
		html          string
		want, notWant []string
		extract       string
	}{
		{
			name:    "main in the header is not the landmark",
			html:    `<header><main><a href="/">Logo</a></main></header><article><h1>Story</h1>` + prose("Alpha", 4) + `</article>`,
			want:    []string{"# Story", "Alpha is a sentence"},
			extract: "landmark:article",
		},
		{
			name:    "a role=main around the breadcrumbs gives way to readability",
			html:    `<body><div role="main"><ol><li><a href="/">Home</a></li><li>Tutoring</li></ol></div><div class="content"><h1>What to expect</h1>` + prose("Bravo", 6) + `</div>` + menu + `</body>`,
			want:    []string{"Bravo is a sentence"},
			extract: "readability",
		},
		{
			name:    "a landmark that holds the article stays",
			html:    `<body><main><h1>Story</h1>` + prose("Charlie", 6) + `</main><div class="other">` + prose("Delta", 2) + `</div></body>`,
			want:    []string{"Charlie is a sentence"},
			notWant: []string{"Delta"},
			extract: "landmark:main",
		},
		{
			name:    "a forum topic's #comments is the page",
			html:    `<main><h1>If the forum ends</h1><div id="comments"><article><p>First post: ` + strings.Repeat("thank you all ", 40) + `</p></article><article><p>A reply: ` + strings.Repeat("same here ", 30) + `</p></article></div></main>`,
			want:    []string{"First post: thank you", "A reply: same here"},
			extract: "landmark:main",
		},
		{
			// forum.squarespace.com (modern-web 0546, Invision): two short
			// posts in #comments, a longer signature panel and footer
			// outside it; the JSON-LD says the page is the thread.
			name: "a declared forum thread's #comments is the page, however short",
			html: `<head><script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Roadmap"}</script></head>` +
				`<body><main><h1>Roadmap</h1><div id="comments"><article><p>First post: where is the roadmap?</p></article><article><p>A reply: join the circle.</p></article></div></main>` +
				`<div class="about">` + prose("Kilo", 3) + `</div></body>`,
			want: []string{"First post: where", "A reply: join"},
		},
		{
			name:    "a shell's notices do not hide its noscript content",
			html:    `<body><div id="app"><main><p>Loading...</p><p>Something went wrong while trying to load the full version of this site.</p><noscript id="content"><article><h1>Types of threads</h1>` + prose("Foxtrot", 3) + `</article></noscript></main></div><script>app()</script></body>`,
			want:    []string{"# Types of threads", "Foxtrot is a sentence"},
			extract: "landmark:main",
		},
		{
			name:    "noscript beside real content stays out",
			html:    `<body><main><h1>Story</h1>` + prose("Golf", 3) + `<noscript><p>` + strings.Repeat("Enable JavaScript to see the comments. ", 8) + `</p></noscript></main></body>`,
			want:    []string{"Golf is a sentence"},
			notWant: []string{"Enable JavaScript"},
		},
		{
			name: "segments React streamed late take their placeholders' place",
			html: `<body><main><h1>Post</h1><!--$?--><template id="B:1"></template><p>Loading...</p><!--/$--></main><footer>f</footer>` +
				`<div hidden id="S:1"><div class="postContent"><template id="P:2"></template></div></div>` +
				`<div hidden id="S:2">` + prose("Hotel", 3) + `</div><script>$RC("B:1","S:1")</script></body>`,
			want:    []string{"# Post", "Hotel is a sentence"},
			notWant: []string{"Loading"},
			extract: "landmark:main",
		},
		{
			name:    "a hidden div that no placeholder names stays hidden",
			html:    `<body><main><h1>Post</h1>` + prose("India", 3) + `</main><div hidden id="S:9"><p>Juliet secret</p></div></body>`,
			notWant: []string{"Juliet"},
		},
		{
			name:    "a blog's #comments is pruned",
			html:    `<main><article><h1>Post</h1>` + prose("Echo", 6) + `</article><div id="comments"><p>Nice post!</p></div></main>`,
			want:    []string{"Echo is a sentence"},
			notWant: []string{"Nice post"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := mustNew(t, Options{}).Convert([]byte(tt.html), testURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			md := string(res.Markdown)
			checkHolds(t, md, tt.want, tt.notWant)
			if tt.extract != "" && res.Extraction != tt.extract {
				t.Errorf("Extraction = %q, want %q", res.Extraction, tt.extract)
			}
		})
	}
}

// TestStructureDroppedShellPrompt: a code block counts as left out by
// readability when less than half its text was kept, though a text of it
// (a shell prompt, "#") is kept in another block.
func TestStructureDroppedShellPrompt(t *testing.T) {
	doc, err := parse([]byte(`<div><pre><code># </code><code>apt install x</code></pre>` +
		`<div class="sidebar"><pre><code># </code><code>apt full-upgrade</code></pre></div></div>`))
	if err != nil {
		t.Fatal(err)
	}
	kept := map[string]bool{"#": true, "apt install x": true}
	if d := structureDropped(doc, kept, &cleaner{}); d.blocks != 1 {
		t.Errorf("blocks left out = %d, want 1 (the sidebar's session)", d.blocks)
	}
}
