package fulltext

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// corpus is a small site: each document stresses one field or feature.
var corpus = []Document{
	{Title: "CSV File Reading and Writing", Path: "/library/csv.html", Sections: []Section{
		{Heading: "csv — CSV File Reading and Writing", Text: "The csv module implements classes to read and write tabular data in CSV format."},
		{Heading: "Dialects", Text: "A dialect describes the quoting rules of a file."},
	}},
	{Title: "Logging HOWTO", Path: "/howto/logging.html", Sections: []Section{
		{Heading: "Logging HOWTO", Text: "Logging is a means of tracking events that happen when some software runs. " +
			strings.Repeat("Write messages to a file. ", 20)},
	}},
	{Title: "git-stash(1)", Path: "/git-stash.html", Sections: []Section{
		{Heading: "NAME", Text: "git-stash - Stash the changes in a dirty working directory away"},
		{Heading: "DESCRIPTION", Text: "Use git stash when you want to record the current state of the working directory."},
	}},
	{Title: "What's New In Python 3.11", Path: "/whatsnew/3.11.html", Sections: []Section{
		{Heading: "Summary", Text: "Python 3.11 is up to 60% faster than Python 3.10."},
	}},
	{Title: "What's New In Python 3.10", Path: "/whatsnew/3.10.html", Sections: []Section{
		{Heading: "Summary", Text: "Python 3.10 brings structural pattern matching; 3.11 follows. 11 new modules."},
	}},
	{Title: "Index", Path: "/genindex.html", Sections: []Section{
		{Text: "stash file csv logging working directory dirty changes record state write read index python new"},
	}},
	{Title: "Sockets", Path: "/library/socket.html", Sections: []Section{
		{Heading: "Overview", Text: "A socket connects to a server. Low-level networking interface."},
		{Heading: "Timeouts", Text: "Set the timeout with settimeout; the server may be slow to connect."},
	}},
}

func TestSearch(t *testing.T) {
	x := Build(corpus, "")
	for _, c := range []struct {
		q, top, heading, snippet string
	}{
		// The title outweighs the body, and stemming joins reading/read.
		{"reading csv files", "/library/csv.html", "csv — CSV File Reading and Writing", "The csv module"},
		// A compound term finds its page over pages with only its parts.
		{"what is new in Python 3.11", "/whatsnew/3.11.html", "Summary", "Python 3.11 is up to 60% faster"},
		// The path's words count: git-stash.
		{"git stash", "/git-stash.html", "NAME", "git-stash - Stash"},
		// A manual page's NAME line counts as its description.
		{"dirty changes", "/git-stash.html", "NAME", "git-stash - Stash"},
		// The heading and snippet follow the best match, not the first section.
		{"server timeout", "/library/socket.html", "Timeouts", "Set the timeout"},
		// A word repeated in a long body does not beat the title.
		{"logging", "/howto/logging.html", "Logging HOWTO", "Logging is a means"},
	} {
		hits := x.Search(c.q, 3)
		if len(hits) == 0 {
			t.Errorf("%q: no hits", c.q)
			continue
		}
		h := hits[0]
		if got := corpus[h.Doc].Path; got != c.top {
			t.Errorf("%q: top %s, want %s (hits %v)", c.q, got, c.top, hits)
		}
		if h.Heading != c.heading || !strings.Contains(h.Snippet, c.snippet) {
			t.Errorf("%q: heading %q snippet %q, want %q and %q", c.q, h.Heading, h.Snippet, c.heading, c.snippet)
		}
		for i := 1; i < len(hits); i++ {
			if hits[i].Score > hits[i-1].Score {
				t.Errorf("%q: hits out of order: %v", c.q, hits)
			}
		}
	}
}

func TestSearchEdges(t *testing.T) {
	x := Build(corpus, "")
	for _, q := range []string{"", "   ", "zzzunknown", "!!!"} {
		if hits := x.Search(q, 5); len(hits) != 0 {
			t.Errorf("Search(%q) = %v, want nothing", q, hits)
		}
	}
	if hits := x.Search("csv", 0); hits != nil {
		t.Errorf("limit 0: %v", hits)
	}
	if hits := x.Search("python", 1); len(hits) != 1 {
		t.Errorf("limit 1: %d hits", len(hits))
	}
	var empty *Index
	if empty.Search("csv", 5) != nil || Build(nil, "").Search("csv", 5) != nil || (&Index{}).Search("csv", 5) != nil {
		t.Error("an empty index found something")
	}
	// A title-only match has no body position: the snippet is the page's start.
	only := Build([]Document{{Title: "Kiln", Sections: []Section{{Text: "Firing schedules."}}}}, "")
	if h := only.Search("kiln", 1); len(h) != 1 || h[0].Heading != "" || h[0].Snippet != "Firing schedules." {
		t.Errorf("title-only match: %+v", h)
	}
}

// TestSnippetWindow: the snippet shows where the query's words stand
// together, not their first occurrence.
func TestSnippetWindow(t *testing.T) {
	filler := strings.Repeat("lorem ipsum dolor ", 30)
	docs := []Document{{Path: "/p", Sections: []Section{
		{Heading: "Intro", Text: "binary " + filler + " search " + filler},
		{Heading: "Algorithms", Text: filler + " binary search " + filler},
	}}}
	hits := Build(docs, "").Search("binary search", 1)
	if len(hits) != 1 || hits[0].Heading != "Algorithms" || !strings.Contains(hits[0].Snippet, "binary search") {
		t.Fatalf("hits %+v", hits)
	}
}

func TestExcerpt(t *testing.T) {
	long := strings.Repeat("word ", 100)
	for _, c := range []struct {
		text          string
		at, n         int
		prefix, whole string
	}{
		{"short text", 0, 240, "", "short text"},
		{long + "target here " + long, len(long), 60, "…", ""},
		{"line one\n\nline   two", 0, 240, "", "line one line two"},
		{strings.Repeat("é", 200), 100, 50, "…", ""},
	} {
		got := excerpt(c.text, c.at, c.n)
		if c.whole != "" && got != c.whole {
			t.Errorf("excerpt = %q, want %q", got, c.whole)
		}
		if !strings.HasPrefix(got, c.prefix) || !utf8.ValidString(got) || len(got) > c.n+2*len("…") {
			t.Errorf("excerpt(%.20q…, %d, %d) = %q", c.text, c.at, c.n, got)
		}
	}
	if got := excerpt(long+"target here "+long, len(long), 60); !strings.Contains(got, "target") {
		t.Errorf("excerpt misses its offset: %q", got)
	}
}

func TestSize(t *testing.T) {
	x := Build(corpus, "")
	if x.Len() != len(corpus) || x.Doc(2).Path != "/git-stash.html" || x.Size() <= 0 {
		t.Fatalf("Len %d Size %d", x.Len(), x.Size())
	}
}

// BenchmarkBuild indexes 1,000 synthetic pages of about 2,000 words each.
func BenchmarkBuild(b *testing.B) {
	docs := syntheticDocs(1000)
	b.ReportAllocs()
	for b.Loop() {
		Build(docs, "")
	}
}

// BenchmarkSearch runs a three-word query over 1,000 synthetic pages.
func BenchmarkSearch(b *testing.B) {
	x := Build(syntheticDocs(1000), "")
	b.ReportAllocs()
	for b.Loop() {
		x.Search("configure network interfaces", 10)
	}
}

// syntheticDocs are n pages of words drawn from a vocabulary with a
// Zipf-like spread, deterministic.
func syntheticDocs(n int) []Document {
	vocab := strings.Fields("network interface configure package install file system user group service " +
		"daemon kernel module boot loader disk partition mount backup restore mail server client proxy " +
		"firewall rule address route table query index search result page title heading section text")
	docs := make([]Document, n)
	seed := uint32(1)
	next := func() int {
		seed = seed*1664525 + 1013904223
		r := int(seed>>8) % (len(vocab) * len(vocab))
		i := 0
		for r >= len(vocab)-i && i < len(vocab)-1 {
			r -= len(vocab) - i
			i++
		}
		return i
	}
	for i := range docs {
		var secs []Section
		for s := range 10 {
			var sb strings.Builder
			for range 200 {
				sb.WriteString(vocab[next()])
				sb.WriteByte(' ')
			}
			secs = append(secs, Section{Heading: fmt.Sprintf("%s %d", vocab[next()], s), Text: sb.String()})
		}
		docs[i] = Document{Title: vocab[next()] + " " + vocab[next()], Path: fmt.Sprintf("/p/%d.html", i), Sections: secs}
	}
	return docs
}

// TestTermsAreCopied: the index's terms are copies, not slices of the
// documents' strings; a slice of a page's text would keep the whole text
// alive as long as the index (the text Build unpacks for a packed page
// too, which would otherwise be garbage once the page is indexed).
func TestTermsAreCopied(t *testing.T) {
	docs := append([]Document(nil), corpus...)
	docs = append(docs, Document{Title: "Compounds", Path: "/c.html", Sections: []Section{
		{Heading: "os.path", Text: "Call os.path.join and git-commit; python pythons"},
	}})
	type span struct{ start, end uintptr }
	var spans []span
	add := func(s string) {
		if s != "" {
			p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
			spans = append(spans, span{p, p + uintptr(len(s))})
		}
	}
	for _, d := range docs {
		add(d.Title)
		add(d.Description)
		add(d.Path)
		for _, s := range d.Sections {
			add(s.Heading)
			add(s.Text)
		}
	}
	x := Build(docs, "en")
	if len(x.terms) < 50 {
		t.Fatalf("only %d terms", len(x.terms))
	}
	for _, term := range x.terms {
		p := uintptr(unsafe.Pointer(unsafe.StringData(term)))
		for _, s := range spans {
			if s.start <= p && p < s.end {
				t.Fatalf("term %q is a slice of a document's string", term)
			}
		}
	}
}
