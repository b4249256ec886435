package convert

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// comment returns a lobste.rs comment (the markup of modern-web page 0575,
// Apache 2.0, its text replaced) whose body is n sentences starting with
// word, with its replies nested in its <ol>.
func comment(word string, n int, replies ...string) string {
	return `<li class="comments_subtree"><input class="comment_folder_button" type="checkbox">` +
		`<div class="comment"><div class="voters"><a class="upvoter" href="/login">3</a></div>` +
		`<div class="details"><div class="byline"><a href="/~` + strings.ToLower(word) + `">` + strings.ToLower(word) + `</a> ` +
		`<a href="/c/x"><time datetime="2024-08-12 11:00:23">1 year ago</time></a></div>` +
		`<div role="heading" aria-level="3" class="comment_text">` +
		strings.Repeat("<p>"+word+" writes a sentence of the thread, with a clause or two, so that it reads as prose; and then another one, which goes on for a while about clones and traits.</p>", n) +
		`</div></div></div><ol class="comments">` + strings.Join(replies, "") + `</ol></li>`
}

// thread returns a lobste.rs thread (nested comments) in a body with a
// menu and a footer.
func thread() string {
	return `<body><nav><ul><li><a href="/">Home</a></li><li><a href="/recent">Recent</a></li></ul></nav>` +
		`<div id="inside"><h1>Project goals</h1><ol class="comments comments1"><li class="comments_subtree" id="story_comments"><ol class="comments">` +
		comment("Alpha", 2) + comment("Bravo", 3, comment("Charlie", 12, comment("Delta", 2))) + comment("Echo", 4) +
		`</ol></li></ol></div><footer><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer></body>`
}

// TestPostRun checks which posts readability's article (its kept text)
// stands for: the thread's top-level comments when it is one comment of a
// nested thread; none when the like siblings are not dated (a page
// builder's sections of one class), are fewer than minPosts once a
// sibling that is mostly links is left out, or when no element holds nine
// tenths of the kept text.
func TestPostRun(t *testing.T) {
	section := func(body string) string {
		return `<section class="section"><div class="section-content">` + body + `</div></section>`
	}
	dated := func(body string) string {
		return `<div class="post"><p><time>May 1</time></p><div class="body">` + body + `</div></div>`
	}
	links := `<p><a href="/a">One link to another page</a> <a href="/b">and one more link to another page</a></p>`
	tests := []struct {
		name  string
		html  string
		kept  []string // texts readability kept, by a word they hold
		posts []string // a word of each post, in order
	}{
		{"one comment of a nested thread", thread(), []string{"Charlie"}, []string{"Alpha", "Bravo", "Echo"}},
		{"a page builder's sections", `<body><div id="page">` + section(prose("Kilo", 4)) + section(prose("Lima", 1)) + section(prose("Mike", 1)) + `</div></body>`, []string{"Kilo"}, nil},
		{"dated posts", `<body><div id="page">` + dated(prose("Kilo", 4)) + dated(prose("Lima", 1)) + dated(prose("Mike", 1)) + `</div></body>`, []string{"Kilo"}, []string{"Kilo", "Lima", "Mike"}},
		{"a post of links is no post", `<body><div id="page">` + dated(prose("Kilo", 4)) + dated(links) + dated(prose("Mike", 1)) + `</div></body>`, []string{"Kilo"}, nil},
		{"the kept text spread over two posts", `<body><div id="page">` + dated(prose("Kilo", 2)) + dated(prose("Lima", 2)) + dated(prose("Mike", 1)) + `</div></body>`, []string{"Kilo", "Lima"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := parse([]byte(tt.html))
			if err != nil {
				t.Fatal(err)
			}
			kept := map[string]bool{}
			for n := range doc.Descendants() {
				if n.Type == html.TextNode {
					for _, w := range tt.kept {
						if strings.Contains(n.Data, w) {
							kept[strings.TrimSpace(n.Data)] = true
						}
					}
				}
			}
			var got []string
			for _, p := range postRun(findFirst(doc, atom.Body), kept) {
				for _, w := range []string{"Alpha", "Bravo", "Echo", "Kilo", "Lima", "Mike"} {
					if strings.Contains(textOf(p), w+" ") {
						got = append(got, w)
						break
					}
				}
			}
			if !slices.Equal(got, tt.posts) {
				t.Errorf("posts = %q, want %q", got, tt.posts)
			}
		})
	}
}

// TestReadabilityBodyPosts checks that readability's article, when it is
// one comment of a thread, gives way to the thread's posts.
func TestReadabilityBodyPosts(t *testing.T) {
	doc, err := parse([]byte(thread()))
	if err != nil {
		t.Fatal(err)
	}
	var art *html.Node
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && classOf(n) == "comment_text" && strings.Contains(textOf(n), "Charlie") {
			art = cloneTree(n)
			break
		}
	}
	picked, ok := readabilityBody(art, findFirst(doc, atom.Body), &cleaner{})
	if !ok || picked.how != "readability+posts" || len(picked.roots) != 3 {
		t.Fatalf("readabilityBody = %d roots, %q, %v; want the 3 top-level comments, readability+posts", len(picked.roots), picked.how, ok)
	}
	var text strings.Builder
	for _, r := range picked.roots {
		text.WriteString(textOf(r))
	}
	for _, w := range []string{"Alpha writes", "Charlie writes", "Delta writes", "Echo writes"} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("the posts lack %q", w)
		}
	}
	if strings.Contains(text.String(), "Privacy") {
		t.Error("the posts hold the footer")
	}
}
