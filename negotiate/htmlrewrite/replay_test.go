package htmlrewrite

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// sameLength returns b cut or padded with spaces to n bytes.
func sameLength(b []byte, n int) []byte {
	if len(b) >= n {
		return b[:n]
	}
	return append(b[:len(b):len(b)], bytes.Repeat([]byte(" "), n-len(b))...)
}

// scriptVariant returns a page a and a page b of the same length whose
// "</title></head>" is at the same offset, the 8 bytes before </head> the
// same, but in b inside a JavaScript string: what an origin that reuses a
// strong ETag for a per-cookie variant may send.
func scriptVariant(t *testing.T) (a, b []byte) {
	t.Helper()
	const pa = "<html><head><title>"
	const pb = "<html><head><script>var s=\"<title>"
	pad := strings.Repeat("x", len(pb)-len(pa))
	a = []byte(pa + pad + "</title></head><body>hello</body></html>\";</script></head>")
	b = []byte(pb + "</title></head><body>hello</body></html>\";</script></head>")
	if len(a) != len(b) {
		t.Fatalf("pages of %d and %d bytes", len(a), len(b))
	}
	off := bytes.Index(a, []byte("</head>"))
	if off != bytes.Index(b, []byte("</head>")) || !bytes.Equal(a[off-8:off], b[off-8:off]) {
		t.Fatal("the pages must agree on the 8 bytes before </head>")
	}
	return a, b
}

// A plan recorded on page a, replayed on page b its origin names the same
// (strong ETag, length) but where a's insertion point is inside a script:
// nothing is inserted into the script. Held whole, b is rewritten anew;
// streamed, b passes untouched (the length promised made up with spaces).
func TestPlanNeverInsertsIntoScript(t *testing.T) {
	a, b := scriptVariant(t)
	inj := &Injection{Head: []HeadElement{mdLinkHead, jsonLDHead}, Key: "k"}
	want, _ := RewritePage(nil, b, inj, nil)
	if !bytes.HasSuffix(want, []byte(`";</script>`+mdLinkHead.HTML+jsonLDHead.HTML+"</head>")) {
		t.Fatalf("the rewrite of b does not insert at its real head's end:\n%q", want)
	}
	id := testID(a)

	c := NewPlanCache(testPlanCache)
	RewritePageAs(nil, a, inj, c, id)
	if got, fromPlan := RewritePageAs(nil, b, inj, c, id); fromPlan || !bytes.Equal(got, want) {
		t.Errorf("held whole, from a plan %v:\n%q\nwant\n%q", fromPlan, got, want)
	}

	c = NewPlanCache(testPlanCache)
	RewritePageAs(nil, a, inj, c, id)
	pl, ok := LookupPlan(c, id, inj)
	if !ok {
		t.Fatal("no plan filed")
	}
	var out bytes.Buffer
	err := writeChunks(NewPlanWriter(&out, pl), b, 7)
	if !errors.Is(err, ErrPlanMismatch) {
		t.Errorf("Close = %v, want ErrPlanMismatch", err)
	}
	if got := bytes.TrimRight(out.Bytes(), " "); !bytes.Equal(got, b) || int64(out.Len()) != pl.Len() {
		t.Errorf("streamed through a's plan:\n%q\nwant b untouched, padded to %d bytes", out.Bytes(), pl.Len())
	}
	if _, ok := LookupPlan(c, id, inj); ok {
		t.Error("the plan that failed its check is still filed")
	}
}

// recordEdits returns the edits the rewriter makes into page with inj.
func recordEdits(page []byte, inj *Injection) []edit {
	c := NewPlanCache(testPlanCache)
	RewritePage(nil, page, inj, c)
	for _, p := range c.plans.All() {
		return p.edits
	}
	return nil
}

// withEdits returns page with the insertions of edits.
func withEdits(page []byte, edits []edit) []byte {
	var out []byte
	at := 0
	for _, e := range edits {
		out = append(append(out, page[at:e.off]...), e.ins...)
		at = e.off
	}
	return append(out, page[at:]...)
}

// FuzzPlanReplay records a plan on page a and replays it on a page b of
// the same length that its origin names the same. Held whole, b comes out
// exactly as the rewrite makes it. Streamed, b comes out as the rewrite
// makes it or, when a check fails, with the rewrite's first insertions
// only (those decided on bytes b shares with a; none when the first check
// fails), padded with spaces to the length promised: never with an
// insertion the rewrite of b would not make where it makes it.
func FuzzPlanReplay(f *testing.F) {
	f.Add([]byte("<html><head><title>A</title></head><body><form id=contact><input name=email></form>"),
		[]byte("<html><head><title>B</title></head><body><form id=search><input name=email></form>"), uint8(5))
	f.Add([]byte("<html><head><title>xxxxxxxxxxxxxxxx</title></head><body>hello</body></html>\";</script></head>"),
		[]byte("<html><head><script>var s=\"<title></title></head><body>hello</body></html>\";</script></head>"), uint8(3))
	f.Add([]byte("<html lang=fr><head></head>"), []byte("<html dir=ltr><head></head>"), uint8(64))
	f.Add([]byte("<html><head></head><body><form id=contact><input name=email></form>"),
		[]byte("<html><head></head><body><form id=contact><input name=phone></form>"), uint8(9))
	inj := &Injection{Lang: "en", Head: []HeadElement{mdLinkHead, canonicalHead, jsonLDHead, alwaysHead},
		Forms: []FormAnnotation{contactForm, searchForm}, Key: "fuzz"}
	f.Fuzz(func(t *testing.T, a, b []byte, chunk uint8) {
		b = sameLength(b, len(a))
		size := int(chunk%64) + 1
		id := testID(a)
		want, _ := RewritePage(nil, b, inj, nil)

		c := NewPlanCache(testPlanCache)
		RewritePageAs(nil, a, inj, c, id)
		if got, _ := RewritePageAs(nil, b, inj, c, id); !bytes.Equal(got, want) {
			t.Fatalf("held whole:\n%q\nwant the rewrite of b\n%q", got, want)
		}

		c = NewPlanCache(testPlanCache)
		if err := writeChunks(NewRecording(&bytes.Buffer{}, inj, c, id), a, size); err != nil {
			t.Fatal(err)
		}
		pl, ok := LookupPlan(c, id, inj)
		if !ok {
			return // a rewrite that gave up records nothing
		}
		var out bytes.Buffer
		err := writeChunks(NewPlanWriter(&out, pl), b, size)
		got := out.Bytes()
		if err == nil {
			if !bytes.Equal(got, want) {
				t.Fatalf("streamed with no mismatch:\n%q\nwant the rewrite of b\n%q", got, want)
			}
			return
		}
		if !errors.Is(err, ErrPlanMismatch) {
			t.Fatal(err)
		}
		if int64(len(got)) != pl.Len() {
			t.Fatalf("%d bytes written, %d promised", len(got), pl.Len())
		}
		edits := recordEdits(b, inj)
		for k := 0; k <= len(edits); k++ {
			part := withEdits(b, edits[:k])
			if len(part) <= len(got) && bytes.Equal(got[:len(part)], part) && len(bytes.Trim(got[len(part):], " ")) == 0 {
				return
			}
		}
		t.Fatalf("streamed with a mismatch:\n%q\nis not b with the rewrite's first insertions:\n%q", got, want)
	})
}
