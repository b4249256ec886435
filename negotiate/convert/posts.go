package convert

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A thread's posts are blocks of alike weight, and readability keeps the
// one that scores best (lobste.rs: the longest comment of twelve; an
// Invision topic: one reply of eleven). Its own rule for siblings (a
// sibling with the top candidate's class joins it) finds none when the
// post's text sits deeper than the post (a comment's body beside its
// byline) or the posts are nested. postRun finds the posts instead.

// minPosts is the fewest posts a run must hold for readability's article,
// when it is one of them, to stand for them all.
const minPosts = 3

// postRun returns the posts readability's article (the kept text) is one
// of: going down from root through the element that holds nine tenths of
// the kept text or more, the outermost one with minPosts or more like
// siblings (likeSiblings), those siblings in document order. nil when there
// is none.
func postRun(root *html.Node, kept map[string]bool) []*html.Node {
	total, _ := textKept(root, kept)
	if total == 0 {
		return nil
	}
	for n := root; ; {
		var next *html.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if k, _ := textKept(c, kept); 10*k >= 9*total {
				next = c
				break
			}
		}
		if next == nil {
			return nil
		}
		if run := likeSiblings(next); len(run) >= minPosts && slices.Contains(run, next) {
			return run
		}
		n = next
	}
}

// likeSiblings returns the posts among the element siblings of n, n
// included: those with n's tag, its classes (n must have one) and the same
// child elements (tags and classes, in order: the posts of a thread share
// their template), that hold a <time> (a post is dated; a page builder's
// sections of one class are not) and are not mostly links; nil when more
// than a fifth of their text is link text.
func likeSiblings(n *html.Node) []*html.Node {
	class := classOf(n)
	if class == "" {
		return nil
	}
	shape := shapeOf(n)
	var run []*html.Node
	var st stats
	for c := n.Parent.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.Data != n.Data || classOf(c) != class || shapeOf(c) != shape || findFirst(c, atom.Time) == nil {
			continue
		}
		s := measure(c)
		if s.text == 0 || s.linkHeavy() {
			continue
		}
		st.text, st.link = st.text+s.text, st.link+s.link
		run = append(run, c)
	}
	if !st.clean() {
		return nil
	}
	return run
}

// classOf returns n's class attribute, its spaces collapsed.
func classOf(n *html.Node) string { return strings.Join(strings.Fields(attr(n, "class")), " ") }

// shapeOf returns the tags and classes of n's child elements, in order.
func shapeOf(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			b.WriteString(c.Data + "." + classOf(c) + "|")
		}
	}
	return b.String()
}
