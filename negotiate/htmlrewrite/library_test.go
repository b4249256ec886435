package htmlrewrite

import (
	"bytes"
	"testing"

	nethtml "golang.org/x/net/html"
)

// libraryRewrite is the reference the streaming rewriter is held to: the
// same rewriteState driven by x/net/html's Tokenizer over the whole page
// (the rewriter's design before the push tokenizer).
func libraryRewrite(in []byte, inj *Injection) []byte {
	if inj == nil {
		inj = &Injection{}
	}
	st := newRewriteState(inj)
	if st.finished() {
		return bytes.Clone(in)
	}
	z := nethtml.NewTokenizer(bytes.NewReader(in))
	var out []byte
	off := 0
	for {
		tt := z.Next()
		raw := bytes.Clone(z.Raw())
		if tt == nethtml.ErrorToken {
			return append(out, in[off:]...)
		}
		off += len(raw)
		if st.token(tt, raw, &tokenizerAttrs{z: z}) {
			out = withInsertions(out, raw, st.ins)
		} else {
			out = append(out, raw...)
		}
		if st.finished() {
			return append(out, in[off:]...)
		}
	}
}

// libraryInjections are the injections the comparison runs: every kind of
// change, and one that only makes the rewriter read the whole page.
var libraryInjections = []*Injection{
	{Lang: "en", Head: []HeadElement{mdLinkHead, canonicalHead, jsonLDHead, alwaysHead}, Forms: []FormAnnotation{contactForm, searchForm}},
	{Head: []HeadElement{alwaysHead}},
	{Lang: "fr"},
	{Forms: []FormAnnotation{{Selector: "form", Attrs: map[string]string{"toolname": "any"}, Fields: map[string]map[string]string{"q": {"toolparamdescription": "query"}, "email": {"a": "b"}}}}},
}

// compareRewrite fails t when the streaming rewriter, fed chunk bytes at a
// time, writes anything else than libraryRewrite.
func compareRewrite(t *testing.T, in []byte, chunk int) {
	t.Helper()
	for i, inj := range libraryInjections {
		want := libraryRewrite(in, inj)
		if got := rewriteAll(t, in, inj, chunk); !bytes.Equal(got, want) {
			t.Fatalf("injection %d, input %q in chunks of %d:\n got %q\nwant %q", i, in, chunk, got, want)
		}
	}
}

func TestRewriterMatchesLibrary(t *testing.T) {
	for _, in := range tokenizerCases {
		for _, prefix := range []string{"", "<html><head>", "<head><title>t</title>"} {
			for _, suffix := range tokenizerSuffixes {
				for _, chunk := range []int{1, 3, 64} {
					compareRewrite(t, []byte(prefix+in+suffix), chunk)
				}
			}
		}
	}
	for _, in := range testPages(t) {
		for _, chunk := range []int{1, 7, 4096, len(in) + 1} {
			compareRewrite(t, in, chunk)
		}
	}
}

// withInsertions appends raw with the insertions ins to dst.
func withInsertions(dst, raw []byte, ins []insertion) []byte {
	at := 0
	for _, in := range ins {
		dst = append(append(dst, raw[at:in.at]...), in.b...)
		at = in.at
	}
	return append(dst, raw[at:]...)
}
