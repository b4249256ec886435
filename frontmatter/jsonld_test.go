package frontmatter

import "testing"

// TestDeclaresType: a type is found at a block's top level, in a list and
// in a @graph, with or without schema.org's URL prefix; a type named only
// inside another object's property is not the page's.
func TestDeclaresType(t *testing.T) {
	types := map[string]bool{"DiscussionForumPosting": true}
	for _, tc := range []struct {
		block string
		want  bool
	}{
		{`{"@type":"DiscussionForumPosting"}`, true},
		{`{"@type":"https://schema.org/DiscussionForumPosting"}`, true},
		{`[{"@type":"WebSite"},{"@type":["Thing","DiscussionForumPosting"]}]`, true},
		{`{"@graph":[{"@type":"WebPage"},{"@type":"http://schema.org/DiscussionForumPosting"}]}`, true},
		{`{"@type":"Article","comment":{"@type":"DiscussionForumPosting"}}`, false},
		{`{"@type":"QAPage"}`, false},
		{`not json`, false},
	} {
		if got := DeclaresType([][]byte{[]byte(tc.block)}, types); got != tc.want {
			t.Errorf("DeclaresType(%s) = %v, want %v", tc.block, got, tc.want)
		}
	}
}
