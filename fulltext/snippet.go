package fulltext

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SnippetBytes is the length of a snippet, in bytes, before "…" marks.
const SnippetBytes = 240

// snippetWindow is the span, in positions, in which the snippet looks for
// the most query terms.
const snippetWindow = 16

// snippet picks the best match of document d (the window of snippetWindow
// positions holding the query terms of most weight, the first such) and
// returns its section's heading and the text around it. pos are the body
// positions of each query term in d.
func (x *Index) snippet(d int, qt []queryTerm, pos [][]uint32) (string, string) {
	secs := x.docs[d].sections()
	at, ok := bestWindow(qt, pos)
	if !ok {
		for _, s := range secs {
			if strings.TrimSpace(s.Text) != "" {
				return "", excerpt(s.Text, 0, SnippetBytes)
			}
		}
		return "", ""
	}
	// The section holding position at, then the word there: only that
	// section is read again.
	starts := x.starts[d]
	section := sort.Search(len(starts), func(i int) bool { return starts[i] > at }) - 1
	if section < 0 {
		return "", ""
	}
	// Positions count words (compounds take none), so the match is word
	// n of the section: in its heading, or in its text after the heading's.
	if section >= len(secs) {
		return "", ""
	}
	s := &secs[section]
	n := int(at - starts[section])
	offset := 0
	if _, inHeading, ok := nthWord(s.Heading, n); !ok {
		if offset, _, ok = nthWord(s.Text, n-inHeading); !ok {
			return "", ""
		}
	}
	return oneLine(s.Heading), excerpt(s.Text, offset, SnippetBytes)
}

// bestWindow is the first position of the best window of matches: the one
// whose distinct terms weigh most (by idf), the tightest of those, the
// first of those.
func bestWindow(qt []queryTerm, pos [][]uint32) (uint32, bool) {
	type match struct {
		p    uint32
		term int
	}
	var all []match
	for j, ps := range pos {
		for _, p := range ps {
			all = append(all, match{p, j})
		}
	}
	if len(all) == 0 {
		return 0, false
	}
	slices.SortStableFunc(all, func(a, b match) int { return cmp.Compare(a.p, b.p) })
	best, bestAt, bestSpan := -1.0, all[0].p, uint32(0)
	seen := make([]int, len(qt))
	lo := 0
	weight := 0.0
	for hi := range all {
		m := all[hi]
		if seen[m.term] == 0 {
			weight += qt[m.term].idf
		}
		seen[m.term]++
		// Drop matches out of reach, and leading repeats of a term the
		// window holds again: the tightest window of its weight.
		for all[lo].p+snippetWindow <= m.p || seen[all[lo].term] > 1 {
			if seen[all[lo].term]--; seen[all[lo].term] == 0 {
				weight -= qt[all[lo].term].idf
			}
			lo++
		}
		span := m.p - all[lo].p
		if weight > best+1e-9 || weight > best-1e-9 && span < bestSpan {
			best, bestAt, bestSpan = weight, all[lo].p, span
		}
	}
	return bestAt, true
}

// excerpt is about n bytes of text starting a little before offset at, cut
// at white space, on one line, with "…" where text was cut.
func excerpt(text string, at, n int) string {
	from := max(0, at-n/4)
	if from > 0 {
		// Start after the first space at or after from, when one comes before at.
		if i := strings.IndexFunc(text[from:at], unicode.IsSpace); i >= 0 {
			from += i
		} else {
			from = at
		}
	}
	to := min(len(text), from+n)
	if to < len(text) {
		if i := strings.LastIndexFunc(text[from:to], unicode.IsSpace); i > n/2 {
			to = from + i
		}
		for to > from && !utf8.RuneStart(text[to]) {
			to--
		}
	}
	out := oneLine(text[from:to])
	if from > 0 && out != "" {
		out = "…" + out
	}
	if to < len(text) && out != "" {
		out += "…"
	}
	return out
}

// oneLine collapses runs of white space into one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
