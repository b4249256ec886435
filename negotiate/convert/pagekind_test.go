package convert

import "testing"

// TestDeclaredDiscussion checks what declares a page a forum thread: a
// DiscussionForumPosting at the top of its JSON-LD (alone, in an array or
// in a @graph) or as a microdata item; not a comment nested in another
// type, nor an article.
func TestDeclaredDiscussion(t *testing.T) {
	tests := []struct {
		name   string
		html   string
		jsonld []string
		want   bool
	}{
		{"JSON-LD object", ``, []string{`{"@context":"https://schema.org","@type":"DiscussionForumPosting"}`}, true},
		{"JSON-LD type URL in an array", ``, []string{`[{"@type":"BreadcrumbList"},{"@type":["https://schema.org/DiscussionForumPosting"]}]`}, true},
		{"JSON-LD @graph", ``, []string{`{"@graph":[{"@type":"WebPage"},{"@type":"DiscussionForumPosting"}]}`}, true},
		{"microdata item", `<div itemscope itemtype="https://schema.org/DiscussionForumPosting"><p>Post</p></div>`, nil, true},
		{"an article with comments", `<div itemscope itemtype="https://schema.org/Comment"></div>`, []string{`{"@type":"BlogPosting","comment":[{"@type":"DiscussionForumPosting"}]}`}, false},
		{"itemtype without itemscope", `<div itemtype="https://schema.org/DiscussionForumPosting"></div>`, nil, false},
		{"a question page", ``, []string{`{"@type":"QAPage"}`}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := parse([]byte(tt.html))
			if err != nil {
				t.Fatal(err)
			}
			var blocks [][]byte
			for _, b := range tt.jsonld {
				blocks = append(blocks, []byte(b))
			}
			if got := declaredDiscussion(doc, blocks); got != tt.want {
				t.Errorf("declaredDiscussion = %v, want %v", got, tt.want)
			}
		})
	}
}
