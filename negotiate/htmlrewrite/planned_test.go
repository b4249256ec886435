package htmlrewrite

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// writeChunks writes in to w chunk bytes at a time and closes it.
func writeChunks(w interface {
	Write([]byte) (int, error)
	Close() error
}, in []byte, chunk int) error {
	for len(in) > 0 {
		n := min(chunk, len(in))
		if m, err := w.Write(in[:n]); err != nil || m != n {
			return fmt.Errorf("write = %d, %v; want %d, nil", m, err, n)
		}
		in = in[n:]
	}
	return w.Close()
}

// testID names a page for the tests.
func testID(page []byte) PageID {
	return PageID{Host: "example.com", Path: "/p", ETag: `"1"`, Length: int64(len(page))}
}

// streamPlanned records page's plan streaming it chunk bytes at a time,
// then streams it through that plan, and returns both outputs.
func streamPlanned(t testing.TB, c *PlanCache, page []byte, inj *Injection, chunk int) (recorded, replayed []byte) {
	t.Helper()
	id := testID(page)
	var first, second bytes.Buffer
	if err := writeChunks(NewRecording(&first, inj, c, id), page, chunk); err != nil {
		t.Fatalf("recording: %v", err)
	}
	pl, ok := LookupPlan(c, id, inj)
	if !ok {
		t.Fatalf("no plan filed for %q", page)
	}
	if err := writeChunks(NewPlanWriter(&second, pl), page, chunk); err != nil {
		t.Fatalf("streaming through the plan: %v", err)
	}
	if int64(second.Len()) != pl.Len() {
		t.Fatalf("the plan promised %d bytes and wrote %d", pl.Len(), second.Len())
	}
	return first.Bytes(), second.Bytes()
}

// Every page of the rewrite and tokenizer suites, with every injection and
// in chunks of several sizes: recorded while it streams, then streamed
// through its plan, it comes out as x/net/html's tokens say it must.
func TestPlanWriterReplaysTheRewrite(t *testing.T) {
	for _, page := range planPages(t) {
		for i, inj := range libraryInjections {
			inj := *inj
			inj.Key = "test"
			want := libraryRewrite(page, &inj)
			for _, chunk := range []int{1, 7, 4096} {
				c := NewPlanCache(testPlanCache)
				recorded, replayed := streamPlanned(t, c, page, &inj, chunk)
				if !bytes.Equal(recorded, want) || !bytes.Equal(replayed, want) {
					t.Fatalf("injection %d, chunks of %d: recorded\n%q\nreplayed\n%q\nwant\n%q", i, chunk, recorded, replayed, want)
				}
			}
		}
	}
}

// RewritePageAs files the plan under the page's name, where LookupPlan
// finds it for the next copy, which then streams.
func TestRewritePageAsFilesByName(t *testing.T) {
	c := NewPlanCache(testPlanCache)
	page := []byte("<html><head><title>T</title></head><body><form id=contact><input name=email></form></body></html>")
	inj := &Injection{Lang: "en", Head: []HeadElement{alwaysHead}, Forms: []FormAnnotation{contactForm}, Key: "k"}
	want, fromPlan := RewritePageAs(nil, page, inj, c, testID(page))
	if fromPlan {
		t.Fatal("the first copy came from a plan")
	}
	pl, ok := LookupPlan(c, testID(page), inj)
	if !ok {
		t.Fatal("no plan under the page's name")
	}
	var out bytes.Buffer
	if err := writeChunks(NewPlanWriter(&out, pl), page, 5); err != nil || !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("streamed through the plan: %v\n%q\nwant\n%q", err, out.Bytes(), want)
	}
	if again, fromPlan := RewritePageAs(nil, page, inj, c, testID(page)); !fromPlan || !bytes.Equal(again, want) {
		t.Fatalf("the second copy held whole: from a plan %v\n%q", fromPlan, again)
	}
	other := testID(page)
	other.ETag = `"2"`
	if _, ok := LookupPlan(c, other, inj); ok {
		t.Error("a plan found under another entity tag")
	}
	if _, ok := LookupPlan(c, testID(page), &Injection{Lang: "en", Key: "other"}); ok {
		t.Error("a plan found for another injection")
	}
}

// A page its origin names as before but whose bytes before an insertion
// differ: the page goes out whole and untouched from there, the length
// promised is made up with spaces, Close says why, and the plan is gone.
func TestPlanWriterMismatch(t *testing.T) {
	inj := &Injection{Head: []HeadElement{alwaysHead}, Forms: []FormAnnotation{contactForm}, Key: "k"}
	a := []byte("<html><head><title>A</title></head><body><form id=contact><input name=email></form></body></html>")
	for name, b := range map[string][]byte{
		// The same length; the head's end where it was, the form moved.
		"form moved": []byte("<html><head><title>A</title></head><body><p></p><form id=contact><input name=email></form></body>"),
		// The head's end moved: the first check fails.
		"head moved": []byte("<html><head><title>AAA</title></head><body><form id=contact><input name=email></form></body></hh>"),
	} {
		t.Run(name, func(t *testing.T) {
			if len(a) != len(b) {
				t.Fatalf("pages of %d and %d bytes", len(a), len(b))
			}
			c := NewPlanCache(testPlanCache)
			streamPlanned(t, c, a, inj, 16)
			pl, _ := LookupPlan(c, testID(a), inj)
			var out bytes.Buffer
			err := writeChunks(NewPlanWriter(&out, pl), b, 9)
			if !errors.Is(err, ErrPlanMismatch) {
				t.Fatalf("Close = %v, want ErrPlanMismatch", err)
			}
			got := out.Bytes()
			if int64(len(got)) != pl.Len() {
				t.Fatalf("%d bytes written, %d promised", len(got), pl.Len())
			}
			// What was inserted before the failed check stays; the rest of
			// b is untouched and the spaces are at the end.
			body := bytes.TrimRight(got, " ")
			if !bytes.HasSuffix(body, b[len(b)-40:]) || !isSubsequence(b, body) {
				t.Fatalf("the page did not pass whole:\n%q", got)
			}
			if _, ok := LookupPlan(c, testID(a), inj); ok {
				t.Error("the plan that failed its check is still filed")
			}
		})
	}
}

// A page that ends early (its origin broke off) gets nothing made up: the
// response cannot have the length promised, and Close says so.
func TestPlanWriterShortPage(t *testing.T) {
	inj := &Injection{Head: []HeadElement{alwaysHead}, Key: "k"}
	page := []byte("<html><head><title>A</title></head><body>" + strings.Repeat("text ", 100) + "</body></html>")
	c := NewPlanCache(testPlanCache)
	_, whole := streamPlanned(t, c, page, inj, 64)
	pl, _ := LookupPlan(c, testID(page), inj)
	var out bytes.Buffer
	err := writeChunks(NewPlanWriter(&out, pl), page[:300], 64)
	if !errors.Is(err, ErrPlanMismatch) || !bytes.Equal(out.Bytes(), whole[:out.Len()]) || out.Len() >= len(whole) {
		t.Fatalf("Close = %v, wrote\n%q", err, out.Bytes())
	}
}

// NewRecording files a plan only for a complete page of the length its
// origin named, rewritten to its end.
func TestRecordingFilesOnlyCompletePages(t *testing.T) {
	inj := &Injection{Lang: "en", Head: []HeadElement{alwaysHead}, Key: "k"}
	page := []byte("<html><head></head><body>x</body></html>")
	huge := []byte("<html><head><meta content=\"" + strings.Repeat("x", 2*maxTokenBuf) + "\"></head><body>")
	for name, tc := range map[string]struct {
		page []byte
		id   PageID
		inj  *Injection
		end  func(*Rewriter) error
	}{
		"shorter than named": {page, PageID{Length: int64(len(page) + 1)}, inj, (*Rewriter).Close},
		"longer than named":  {page, PageID{Length: int64(len(page) - 1)}, inj, (*Rewriter).Close},
		"abandoned":          {page, PageID{Length: int64(len(page))}, inj, func(r *Rewriter) error { r.Abandon(); return nil }},
		"given up":           {huge, PageID{Length: int64(len(huge))}, inj, (*Rewriter).Close},
		"no key":             {page, PageID{Length: int64(len(page))}, &Injection{Lang: "en"}, (*Rewriter).Close},
	} {
		t.Run(name, func(t *testing.T) {
			c := NewPlanCache(testPlanCache)
			r := NewRecording(&bytes.Buffer{}, tc.inj, c, tc.id)
			for p := tc.page; len(p) > 0; {
				n := min(len(p), 32<<10)
				r.Write(p[:n])
				p = p[n:]
			}
			if err := tc.end(r); err != nil {
				t.Fatal(err)
			}
			if n := c.Len(); n != 0 {
				t.Errorf("%d plans filed", n)
			}
		})
	}
}

// A write error reaches the caller from Write or Close, and nothing is
// written after it.
func TestPlanWriterWriteError(t *testing.T) {
	inj := &Injection{Head: []HeadElement{alwaysHead}, Key: "k"}
	page := []byte("<html><head></head><body>" + strings.Repeat("y", 100) + "</body></html>")
	c := NewPlanCache(testPlanCache)
	streamPlanned(t, c, page, inj, 64)
	pl, _ := LookupPlan(c, testID(page), inj)
	// Each Write goes out in one write: the first half's succeeds, the
	// second half's fails.
	w := NewPlanWriter(&failWriter{n: 1}, pl)
	if _, err := w.Write(page[:len(page)/2]); err != nil {
		t.Fatal(err)
	}
	_, werr := w.Write(page[len(page)/2:])
	if cerr := w.Close(); werr == nil || cerr == nil {
		t.Fatalf("Write = %v, Close = %v; want both to fail", werr, cerr)
	}
}

// countWriter counts the writes it is given.
type countWriter struct {
	bytes.Buffer
	writes int
}

func (c *countWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.Buffer.Write(p)
}

// A Write of a page with insertions goes out in one write, not one for
// each piece between them; the insertions at the page's end, in one more
// (Close). The bytes are the rewrite's.
func TestPlanWriterOneWriteAWrite(t *testing.T) {
	inj := &Injection{Lang: "en", Head: []HeadElement{alwaysHead}, Key: "k"}
	page := []byte("<html><head></head><body>" + strings.Repeat("y", 100) + "</body></html>")
	c := NewPlanCache(testPlanCache)
	recorded, _ := streamPlanned(t, c, page, inj, 64)
	want := string(recorded)
	pl, ok := LookupPlan(c, testID(page), inj)
	if !ok {
		t.Fatal("no plan")
	}
	for _, chunk := range []int{len(page), 40, 7} {
		var out countWriter
		w := NewPlanWriter(&out, pl)
		writes := 0
		for p := page; len(p) > 0; {
			n := min(len(p), chunk)
			if _, err := w.Write(p[:n]); err != nil {
				t.Fatal(err)
			}
			writes++
			p = p[n:]
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("chunks of %d: %q, want %q", chunk, out.String(), want)
		}
		if out.writes > writes+1 {
			t.Errorf("chunks of %d: %d writes for %d Writes and Close", chunk, out.writes, writes)
		}
	}
}
