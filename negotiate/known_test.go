package negotiate

import (
	"strings"
	"testing"
)

// The Content-Types answered at once are what the media type's split and
// its charset say of them: text/html, in UTF-8 or no charset.
func TestCommonHTMLTypes(t *testing.T) {
	for _, ct := range commonHTMLTypes {
		typ, sub, _, ok := splitMediaType(ct)
		label := charsetParam(ct)
		if !ok || typ != "text" || sub != "html" || (label != "" && !strings.EqualFold(label, "utf-8")) {
			t.Errorf("%q: %s/%s %v, charset %q: not text/html in UTF-8", ct, typ, sub, ok, label)
		}
		if !isTextHTML(ct) || !asciiCompatible(ct) || !rewritableHTML(ct) {
			t.Errorf("%q is not rewritable HTML", ct)
		}
		if html, md := pageKind(ct); !html || md {
			t.Errorf("pageKind(%q) = %v, %v", ct, html, md)
		}
	}
	for _, ct := range []string{"text/html; charset=utf-16", "application/xhtml+xml", "text/html; charset=nonesuch", "text/markdown"} {
		if isCommonHTML(ct) || rewritableHTML(ct) {
			t.Errorf("%q is rewritable HTML", ct)
		}
	}
}

// The Accept values answered by lookup are reached (each names Markdown)
// and answered as their parse answers them.
func TestKnownAccepts(t *testing.T) {
	for a, prefers := range knownAccepts {
		if !mentionsMarkdown(a) {
			t.Errorf("%q does not name Markdown: never looked up", a)
		}
		if prefers != prefersMarkdown(a) || PrefersMarkdown(a) != prefers {
			t.Errorf("%q: kept %v, parsed %v", a, prefers, prefersMarkdown(a))
		}
	}
}
