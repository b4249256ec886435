package htmlrewrite

import (
	"bytes"
	"testing"
)

func FuzzRewriter(f *testing.F) {
	for _, tc := range rewriteCases {
		if b, err := readGolden(tc.name); err == nil {
			f.Add(b, uint8(7))
		}
	}
	f.Add([]byte("<html><head></head><body><form id=contact><input name=email></form>"), uint8(1))
	f.Add([]byte("<script>"), uint8(3))
	f.Add([]byte("</"), uint8(1))
	full := &Injection{Lang: "en", Head: []HeadElement{mdLinkHead, canonicalHead, alwaysHead}, Forms: []FormAnnotation{contactForm, searchForm}}
	// A form annotation that never matches makes the rewriter tokenize the
	// whole page without changing anything.
	inert := &Injection{Forms: []FormAnnotation{{Selector: "form#no-such-form-anywhere", Attrs: map[string]string{"a": "b"}}}}
	f.Fuzz(func(t *testing.T, page []byte, chunk uint8) {
		size := int(chunk%64) + 1
		if got := rewriteAll(t, page, nil, size); !bytes.Equal(got, page) {
			t.Fatalf("empty injection changed the page:\n%q\n%q", page, got)
		}
		if got := rewriteAll(t, page, inert, size); !bytes.Equal(got, page) {
			t.Fatalf("inert injection changed the page:\n%q\n%q", page, got)
		}
		whole := rewriteAll(t, page, full, len(page)+1)
		if !isSubsequence(page, whole) {
			t.Fatalf("injection dropped input bytes:\n%q\n%q", page, whole)
		}
		if got := rewriteAll(t, page, full, size); !bytes.Equal(got, whole) {
			t.Fatalf("output depends on the write size %d:\n%q\n%q", size, got, whole)
		}
		// Rewritten whole, and again from the plan that recorded.
		keyed := *full
		if first, second, _ := planned(t, page, &keyed); !bytes.Equal(first, whole) || !bytes.Equal(second, whole) {
			t.Fatalf("rewritten whole:\n%q\nfrom its plan:\n%q\nstreamed:\n%q", first, second, whole)
		}
		// Recorded while it streams, and streamed through that plan.
		if rec, replay := streamPlanned(t, NewPlanCache(testPlanCache), page, &keyed, size); !bytes.Equal(rec, whole) || !bytes.Equal(replay, whole) {
			t.Fatalf("recorded while streaming:\n%q\nstreamed through its plan:\n%q\nwant:\n%q", rec, replay, whole)
		}
		// The same as the rewriteState driven by x/net/html's Tokenizer.
		for i, inj := range libraryInjections {
			if got, want := rewriteAll(t, page, inj, size), libraryRewrite(page, inj); !bytes.Equal(got, want) {
				t.Fatalf("injection %d differs from x/net/html's tokens:\n%q\n%q", i, got, want)
			}
		}
	})
}
