package convert

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// nested returns reps copies of open nested depth times, each closed. The
// copies are numbered (the number follows open's text), so that none
// repeats the one before it, which dropRepeats would remove.
func nested(open, close string, depth, reps int) string {
	var b strings.Builder
	for r := range reps {
		b.WriteString(strings.Repeat(open+strconv.Itoa(r), depth) + strings.Repeat(close, depth))
	}
	return b.String()
}

// nestingOf returns the most quote markers and the widest indentation any
// line of md starts with.
func nestingOf(md string) (quotes, indent int) {
	for line := range strings.SplitSeq(md, "\n") {
		q := 0
		rest := line
		for strings.HasPrefix(rest, ">") {
			q++
			rest = strings.TrimPrefix(strings.TrimPrefix(rest, ">"), " ")
		}
		quotes = max(quotes, q)
		indent = max(indent, len(rest)-len(strings.TrimLeft(rest, " ")))
	}
	return quotes, indent
}

// nestings are the structures whose Markdown prefixes every line inside
// them, and the structures around them that must not change that.
var nestings = []struct{ name, open, close string }{
	{"blockquote", "<blockquote>a", "</blockquote>"},
	{"blockquote paragraphs", "<blockquote><p>a</p><p>b</p>", "</blockquote>"},
	{"ul", "<ul><li>a", "</li></ul>"},
	{"ol", "<ol start=99999999999><li>a", "</li></ol>"},
	{"dl", "<dl><dt>a<dd>", "</dd></dl>"},
	{"blockquote in div", "<blockquote><div>a", "</div></blockquote>"},
	{"blockquote in li", "<ul><li><blockquote>a", "</blockquote></li></ul>"},
	{"table in table", "<table><tr><td>a", "</td></tr></table>"},
	{"div", "<div>a", "</div>"},
	{"em in blockquote", "<blockquote><em>a", "</em></blockquote>"},
}

// Quotes and lists nested deeper than maxNesting are written at that
// depth: the Markdown's prefixes, and so its size, stay bounded whatever
// the page's depth.
func TestNestingBounded(t *testing.T) {
	c := mustNew(t, Options{})
	for _, n := range nestings {
		for _, depth := range []int{maxNesting, 60, 120} {
			t.Run(fmt.Sprintf("%s/%d", n.name, depth), func(t *testing.T) {
				in := "<main>" + nested(n.open, n.close, depth, 3) + "</main>"
				res, err := c.Convert([]byte(in), testURL, nil)
				if err != nil {
					t.Fatal(err)
				}
				md := string(res.Markdown)
				quotes, indent := nestingOf(md)
				// A list level indents by its marker's width: at most
				// "99999999999. " here.
				if quotes > maxNesting || indent > maxNesting*13 {
					t.Errorf("%d quote levels, indentation %d; want at most %d levels", quotes, indent, maxNesting)
				}
				if len(md) > 4*len(in)+256 {
					t.Errorf("%d bytes of HTML made %d bytes of Markdown", len(in), len(md))
				}
				if got := strings.Count(md, "a"); got < 3*depth {
					t.Errorf("%d of the %d texts kept", got, 3*depth)
				}
			})
		}
	}
	// Within the bound, nesting is kept.
	res, err := c.Convert([]byte("<main>"+nested("<blockquote>a", "</blockquote>", maxNesting, 1)+"</main>"), testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if q, _ := nestingOf(string(res.Markdown)); q != maxNesting {
		t.Errorf("%d quote levels, want %d kept", q, maxNesting)
	}
}

// allocated returns the bytes a conversion of page allocates.
func allocated(t *testing.T, c *Converter, page string) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := c.Convert([]byte(page), testURL, nil); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// The work of a conversion does not grow with the depth of its quotes and
// lists: the same number of levels, as forty nests 100 deep or ten nests
// 400 deep, costs about the same (before the bound, html-to-markdown
// copied each level's text once per enclosing level: 16 times as much).
func TestNestingWorkLinear(t *testing.T) {
	c := mustNew(t, Options{})
	CountTokens([]byte("warm up"))
	for _, n := range nestings[:4] {
		t.Run(n.name, func(t *testing.T) {
			depth := 400
			if n.name != "blockquote" {
				depth = 160 // each level is more than one element: the parser's bound is 512
			}
			shallow := allocated(t, c, nested(n.open, n.close, depth/4, 40))
			deep := allocated(t, c, nested(n.open, n.close, depth, 10))
			if deep > 2*shallow {
				t.Errorf("nests %d deep allocate %d bytes, %.1f times as much as the same levels %d deep (%d bytes)",
					depth, deep, float64(deep)/float64(shallow), depth/4, shallow)
			}
		})
	}
}

// Tables whose Markdown would be far larger than their HTML: spans past
// the table, or wider than HTML allows; ragged rows; a big cell repeated
// in every row it spans.
func TestTablesBounded(t *testing.T) {
	text := strings.Repeat("word ", 2000) // 10 KB
	tests := []struct {
		name, in string
		want     string // in the Markdown
	}{
		{"rowspan past the table", "<table><tr><td rowspan=65534>" + text + "</td><td>b</td></tr><tr><td>x</td></tr></table>", "| b |"},
		{"rowspan beyond int32", "<table><tr><td rowspan=99999999999>a</td><td>b</td></tr><tr><td>x</td></tr></table>", "| a | b |"},
		{"colspan beyond 1000", "<table><tr><td colspan=2147483647 rowspan=2147483647>a</td></tr><tr><td>x</td></tr></table>", "a"},
		{"ragged rows", "<table><tr>" + strings.Repeat("<td>c", 1000) + "</tr>" + strings.Repeat("<tr><td>r", 1000) + "</table>", "r"},
		{"wide span over many rows", "<table><tr><td colspan=1000>a</td></tr>" + strings.Repeat("<tr><td>r", 1000) + "</table>", "r"},
		{"big cell spanning many rows", "<table><tr><td rowspan=1000>" + text + "</td><td>b</td></tr>" + strings.Repeat("<tr><td>r", 999) + "</table>", "| r |"},
	}
	c := mustNew(t, Options{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := c.Convert([]byte("<main>"+tc.in+"</main>"), testURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			md := string(res.Markdown)
			if len(md) > 8*len(tc.in)+4096 {
				t.Errorf("%d bytes of HTML made %d bytes of Markdown", len(tc.in), len(md))
			}
			if !strings.Contains(md, tc.want) {
				t.Errorf("Markdown %.300q lacks %q", md, tc.want)
			}
		})
	}
	// Small spanned cells are still repeated, so every row reads on its own.
	res, err := c.Convert([]byte(`<main><table><tr><th>Group</th><th>Item</th></tr><tr><td rowspan=2>Fruit</td><td>apple</td></tr><tr><td>pear</td></tr></table></main>`), testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "| Fruit | pear |"; !strings.Contains(string(res.Markdown), want) {
		t.Errorf("Markdown %q lacks %q", res.Markdown, want)
	}
}

// Readability's work is the page's size times its depth: a deep page is
// converted whole instead, a shallow one of the same size still goes
// through readability.
func TestReadabilityWorkBound(t *testing.T) {
	prose := "<p>" + strings.Repeat("This is a sentence of real prose, long enough for readability. ", 20) + "</p>"
	c := mustNew(t, Options{})
	for _, tc := range []struct {
		depth, levels int
		want          string
	}{{10, 2000, "readability"}, {500, 10000, "body"}} {
		// the search box makes the page one with chrome: a page with none
		// is converted whole without asking readability
		page := `<input name="q">` + prose + prose + nested("<div>word ", "</div>", tc.depth, tc.levels/tc.depth)
		res, err := c.Convert([]byte(page), testURL, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Extraction != tc.want {
			t.Errorf("depth %d: extraction %q, want %q", tc.depth, res.Extraction, tc.want)
		}
	}
}

// countdownCtx is a context whose Err is nil for its first n calls and
// context.Canceled after: a client that leaves at a known point of the
// conversion.
type countdownCtx struct {
	context.Context
	mu    sync.Mutex
	n     int
	calls int
}

func (c *countdownCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	if c.calls > c.n {
		return context.Canceled
	}
	return nil
}

func (c *countdownCtx) called() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

// A conversion looks at its context between its stages and while it
// writes the Markdown and counts its tokens, and stops at the first look
// after the context is done.
func TestConvertContextStops(t *testing.T) {
	c := mustNew(t, Options{FrontMatter: true})
	page := []byte("<main>" + numbered("<p>Some text %d, <em>with</em> <a href=/x>links</a>.</p>", 5000) + "</main>")
	full := &countdownCtx{Context: context.Background(), n: 1 << 30}
	if _, err := c.ConvertContext(full, page, testURL, nil); err != nil {
		t.Fatal(err)
	}
	if full.called() < 50 {
		t.Fatalf("a whole conversion looked at its context %d times; the test needs more", full.called())
	}
	for _, n := range []int{0, 1, 2, 3, 10, full.called() / 2, full.called() - 1} {
		ctx := &countdownCtx{Context: context.Background(), n: n}
		_, err := c.ConvertContext(ctx, page, testURL, nil)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("canceled after %d looks: error %v, want context.Canceled", n, err)
		}
		if ctx.called() != n+1 {
			t.Errorf("canceled after %d looks: looked %d times, want it to stop at the next", n, ctx.called())
		}
	}
	dead, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	if _, err := c.ConvertContext(dead, page, testURL, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("past the deadline: error %v, want context.DeadlineExceeded", err)
	}
}

// A conversion stops once its Markdown is larger than MaxMarkdownSize,
// while it writes it.
func TestOutputBudget(t *testing.T) {
	page := []byte("<main>" + numbered("<p>Some text %d.</p>", 5000) + "</main>") // 85 KB of Markdown
	for _, tc := range []struct {
		max     int64
		wantErr bool
	}{{1 << 10, true}, {50 << 10, true}, {1 << 20, false}, {-1, false}} {
		c := mustNew(t, Options{MaxMarkdownSize: tc.max})
		ctx := &countdownCtx{Context: context.Background(), n: 1 << 30}
		res, err := c.ConvertContext(ctx, page, testURL, nil)
		if tc.wantErr != errors.Is(err, ErrTooLarge) {
			t.Errorf("max %d: error %v", tc.max, err)
		}
		if err == nil && tc.max > 0 && int64(len(res.Markdown)) > tc.max {
			t.Errorf("max %d: %d bytes", tc.max, len(res.Markdown))
		}
	}
	// It stops while writing: a budget of 1 KiB renders about 1 KiB, not
	// the whole page.
	c := mustNew(t, Options{MaxMarkdownSize: 1 << 10})
	b := &budget{ctx: context.Background(), maxOut: 1 << 10}
	doc, err := parse(page)
	if err != nil {
		t.Fatal(err)
	}
	body, err := c.md.ConvertNode(doc, withBudget(b))
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(b.err, ErrTooLarge) || len(body) > 4<<10 || b.steps > 1000 {
		t.Errorf("stopped with %v after %d elements and %d bytes", b.err, b.steps, len(body))
	}
	if c.Options().Hash() != mustNew(t, Options{}).Options().Hash() {
		t.Error("the output budget changes the options' hash")
	}
}

// FuzzNesting builds pages of nested quotes, lists, tables and spans from
// a depth, a repetition count and a shape: the Markdown stays within a
// bound linear in the page, and quotes nest at most maxNesting deep.
func FuzzNesting(f *testing.F) {
	f.Add(uint16(500), uint8(10), uint8(0), uint32(1))
	f.Add(uint16(200), uint8(3), uint8(1), uint32(1))
	f.Add(uint16(100), uint8(2), uint8(4), uint32(65534))
	f.Add(uint16(50), uint8(20), uint8(5), uint32(1000))
	shapes := []struct{ open, close string }{
		{"<blockquote>a", "</blockquote>"},
		{"<ul><li>a", "</li></ul>"},
		{"<ol start=%d><li>a", "</li></ol>"},
		{"<dl><dt>a<dd>", "</dd></dl>"},
		{"<table><tr><td rowspan=%d>a</td><td>b", "</td></tr><tr><td>c</td></tr></table>"},
		{"<table><tr><td colspan=%d>a</td></tr><tr><td>b", "</td></tr></table>"},
		{"<blockquote><ul><li><p>a</p><p>b", "</p></li></ul></blockquote>"},
		{"<div><blockquote>a", "</blockquote></div>"},
	}
	c := mustNew(f, Options{})
	f.Fuzz(func(t *testing.T, depth uint16, reps uint8, shape uint8, span uint32) {
		s := shapes[int(shape)%len(shapes)]
		open := s.open
		if strings.Contains(open, "%d") {
			open = fmt.Sprintf(open, span)
		}
		d, r := int(depth)%600, 1+int(reps)%40
		if d*r*len(open) > 400<<10 {
			return
		}
		in := "<main>" + nested(open, s.close, d, r) + "</main>"
		res, err := c.Convert([]byte(in), testURL, nil)
		if err != nil {
			if errors.Is(err, ErrTooDeep) || errors.Is(err, ErrNoContent) {
				return
			}
			t.Fatal(err)
		}
		md := string(res.Markdown)
		if len(md) > 8*len(in)+4096 {
			t.Fatalf("%d bytes of HTML (%q, %d deep, %d times) made %d bytes of Markdown", len(in), open, d, r, len(md))
		}
		if q, _ := nestingOf(md); q > maxNesting {
			t.Fatalf("%d quote levels", q)
		}
	})
}

// numbered writes format n times, each copy with its number: the copies
// differ, so that dropTickers does not take them for a marquee.
func numbered(format string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}
