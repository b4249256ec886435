package htmlrewrite

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	nethtml "golang.org/x/net/html"
)

// The push tokenizer must find exactly the tokens of x/net/html's
// Tokenizer, however the stream is cut: these tests and FuzzTokenizer run
// both over the same input and compare the token lists (type, raw bytes,
// and a start tag's attributes and self-closing flag).

// libToken is one token as a comparison sees it.
type libToken struct {
	tt    nethtml.TokenType
	raw   string
	attrs string // start tags: key=value pairs as the Tokenizer returns them
}

func (t libToken) String() string {
	return fmt.Sprintf("%v %q %s", t.tt, t.raw, t.attrs)
}

func formatAttrs(attrs []attr) string {
	var b strings.Builder
	for _, a := range attrs {
		fmt.Fprintf(&b, "[%q=%q]", a.key, a.val)
	}
	return b.String()
}

// libraryTokens tokenizes in with x/net/html. Doctypes count as comments
// (the rewriter treats both alike); an incomplete tag at the end is an
// ErrorToken with its bytes.
func libraryTokens(in []byte) []libToken {
	z := nethtml.NewTokenizer(bytes.NewReader(in))
	var out []libToken
	for {
		tt := z.Next()
		raw := string(z.Raw())
		switch tt {
		case nethtml.ErrorToken:
			if rest := raw + string(z.Buffered()); rest != "" {
				out = append(out, libToken{tt: tt, raw: rest})
			}
			return out
		case nethtml.DoctypeToken:
			tt = nethtml.CommentToken
		}
		tok := libToken{tt: tt, raw: raw}
		if tt == nethtml.StartTagToken || tt == nethtml.SelfClosingTagToken {
			tok.attrs = formatAttrs((&tokenizerAttrs{z: z}).attrs())
		}
		out = append(out, tok)
	}
}

// tokenizerAttrs reads the current tag's attributes from x/net/html.
type tokenizerAttrs struct{ z *nethtml.Tokenizer }

func (t *tokenizerAttrs) attrs() []attr {
	var list []attr
	for {
		k, v, more := t.z.TagAttr()
		if k == nil {
			return list
		}
		list = append(list, attr{key: bytes.Clone(k), val: bytes.Clone(v)})
		if !more {
			return list
		}
	}
}

// pushTokens tokenizes in with the push tokenizer, fed chunk bytes at a
// time, in quiet mode or not.
func pushTokens(in []byte, chunk int, quiet bool) []libToken {
	z := tokenizer{quiet: quiet}
	var out []libToken
	var tag tagAttrs
	add := func(tt nethtml.TokenType, s, e int64) {
		tok := libToken{tt: tt, raw: string(in[s:e])}
		if tt == nethtml.StartTagToken {
			tag.reset(in[s:e], z.attrs)
			if tag.selfClosing {
				tok.tt = nethtml.SelfClosingTagToken
			}
			tok.attrs = formatAttrs(tag.attrs())
		}
		out = append(out, tok)
	}
	for base := 0; base < len(in); base += chunk {
		p := in[base:min(base+chunk, len(in))]
		for {
			tt, s, e, ok := z.next(p, int64(base))
			if !ok {
				break
			}
			add(tt, s, e)
		}
	}
	if tt, s, ok := z.eof(int64(len(in))); ok && !quiet {
		add(tt, s, int64(len(in)))
	}
	return out
}

// loudTokens keeps the tokens quiet mode reports.
func loudTokens(list []libToken) []libToken {
	var out []libToken
	for _, t := range list {
		var name string
		switch t.tt {
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken, nethtml.EndTagToken:
			_, n := tagName([]byte(t.raw))
			name = strings.ToLower(string(n))
		}
		switch {
		case name == "form",
			t.tt != nethtml.EndTagToken && (name == "html" || name == "input" || name == "select" || name == "textarea"):
			out = append(out, t)
		}
	}
	return out
}

// compareTokens fails t at the first token where the two lists differ.
func compareTokens(t *testing.T, in []byte, chunk int) {
	t.Helper()
	lib := libraryTokens(in)
	diffTokens(t, in, chunk, lib, pushTokens(in, chunk, false))
	diffTokens(t, in, chunk, loudTokens(lib), pushTokens(in, chunk, true))
}

func diffTokens(t *testing.T, in []byte, chunk int, want, got []libToken) {
	t.Helper()
	for i := range max(len(want), len(got)) {
		var w, g libToken
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			t.Fatalf("input %q in chunks of %d: token %d is\n  %v\nwant (x/net/html)\n  %v", in, chunk, i, g, w)
		}
	}
}

// tokenizerCases are the shapes where the tokenizing rules bite.
var tokenizerCases = []string{
	"",
	"plain text",
	"<p>text</p>",
	"a<b",
	"a< b <3 <<p>",
	"<",
	"</",
	"</>",
	"</ x>",
	"</3>",
	"<!",
	"<!-",
	"<!->",
	"<!>",
	"<!---->",
	"<!-->",
	"<!--->",
	"<!-- a -- b -->",
	"<!-- a --!> b",
	"<!-- a --!-> b -->",
	"<!-- a --!x-> b -->",
	"<!-- unterminated",
	"<!DOCTYPE html><html>",
	"<!doctype html >",
	"<!DOCTYP",
	"<![CDATA[ x ]]>",
	"<?xml version='1.0'?><p>",
	"<?>",
	"<a href=x>",
	"<a href='x>y'>",
	`<a href="x>y">`,
	"<a href=x/>",
	"<a href=/>",
	"<br/>",
	"<br />",
	"<br/ >",
	"<a b/>",
	"<a b=/>",
	"<a b='/'/>",
	"<a =b>",
	"<a ==b>",
	"<a = b>",
	"<a b = c>",
	"<a b= >",
	"<a b=>",
	`<a b"c=d>`,
	"<a b c d>",
	"<a B=1 b=2 B=3>",
	"<aA \xa0\xf3\x80\xd5 \xd2\xf9\x88\xd6>", // invalid UTF-8 keys: distinct for x/net/html
	"<a \u212a=1 k=2>",                       // the Kelvin sign is not k
	"<a b='1'c=2>",
	"<a/b=c>",
	"<a\tb\n=\fc\r>",
	"<A HREF=X>",
	"<a href='&amp;&lt;&notit;&notin;'>",
	"<a href='x&copy=y'>",
	"<a title='line\r\nbreak\rend'>",
	"<div",
	"<div class=",
	"<div class='x",
	"</div",
	"</div class='>'>",
	"<title>a<b>c</title>",
	"<title>a</titlex>b</title >",
	"<TITLE>a</TiTlE>",
	"<textarea><p></textarea/>",
	"<style>p{}</style",
	"<style>p{}</sty",
	"<style/>x</style>",
	"<xmp><a></xmp>",
	"<iframe><a></iframe>",
	"<noscript><p></noscript>",
	"<noembed></noembed>",
	"<noframes>x</noframes>",
	"<plaintext><p></plaintext>",
	"<plaintext/>",
	"<script></script>",
	"<script>a</script>",
	"<script>a</SCRIPT>",
	"<script>a</scriptx></script>",
	"<script>if (a<b) x</script>",
	"<script><!-- x --></script>",
	"<script><!-- <script> </script> --></script>b</script>",
	"<script><!-- <script> </script> --> </script>",
	"<script><!--<script></script>--></script>",
	"<script><!-- </script>",
	"<script><!-- <x </script>",
	"<script><!-- -> </script>",
	"<script><!-- --> </script>",
	"<script><!-<!-- </script>",
	"<script><!--<SCRIPT>x</Script >y</script>",
	"<script><!--<scripty></script>",
	"<script><!-- <script --> </script>",
	"<script><!-- <script>-</script>",
	"<script><!-- <script>--</script>",
	"<script><!-- <script>--></script>",
	"<script><!-- <script><</script>",
	"<script><!-- <script></scrip></script>",
	"<script><!-- <script></script",
	"<script><!-- <1 <script> </script> x</script>",
	"<script><!-- <script></script><script></script>x</script>",
	"<script><!-- <script></script>--></script>",
	"<script>",
	"<script>unterminated",
	"<script></scr",
	"<script/>x</script>",
	"<html><head><meta charset=utf-8><title>T</title></head><body><form id=f class=\"a b\"><input name=q></form></body></html>",
	"\xff\xfe<\x00h\x00",
	"\ufeff<html>",
	"<a\x00b=c\x00>",
	"<p>\x00</p>",
}

// tokenizerSuffixes follow every case, so that a state left wrong at the
// end of a case shows in the tokens after it.
var tokenizerSuffixes = []string{"", "<p a=b>x</p>", "-->x</script>y<p>", "--></x>y<script>z</script><p>"}

func TestTokenizerMatchesLibrary(t *testing.T) {
	for _, in := range tokenizerCases {
		for _, suffix := range tokenizerSuffixes {
			for _, chunk := range []int{1, 2, 3, 5, 7, 64} {
				compareTokens(t, []byte(in+suffix), chunk)
			}
		}
	}
}

// TestTokenizerMatchesLibraryOnPages runs the comparison over the golden
// pages of the rewriter and the demo site, cut at every byte boundary for
// the small ones.
func TestTokenizerMatchesLibraryOnPages(t *testing.T) {
	for _, in := range testPages(t) {
		for _, chunk := range []int{1, 13, 512, len(in) + 1} {
			compareTokens(t, in, chunk)
		}
	}
}

// testPages are the golden inputs of the rewriter and the demo site's
// pages.
func testPages(t *testing.T) [][]byte {
	t.Helper()
	var pages [][]byte
	for _, glob := range []string{"testdata/rewrite/*.in.html", "../../examples/site/*.html", "../../examples/site/*/*.html"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range m {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			pages = append(pages, b)
		}
	}
	if len(pages) < 10 {
		t.Fatalf("only %d pages found", len(pages))
	}
	return pages
}

func FuzzTokenizer(f *testing.F) {
	for _, in := range tokenizerCases {
		f.Add([]byte(in), uint8(3))
	}
	for _, tc := range rewriteCases {
		if b, err := readGolden(tc.name); err == nil {
			f.Add(b, uint8(7))
		}
	}
	f.Fuzz(func(t *testing.T, in []byte, chunk uint8) {
		compareTokens(t, in, int(chunk%64)+1)
	})
}

// BenchmarkTokenize runs the push tokenizer alone over the demo's /pricing
// page and over a long body of paragraphs and links, in the 32 KiB writes
// of reverse_proxy: every token reported (as before the body starts), and
// in quiet mode (as once the head is done).
func BenchmarkTokenize(b *testing.B) {
	demo, err := os.ReadFile("../../examples/site/pricing.html")
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(strings.Repeat("<p>Lorem ipsum dolor sit amet, <a href=\"/x\">consectetur</a> adipiscing.</p>\n<!-- c --><script>if (a<b) x()</script>\n<form><input name=q></form>\n", 1000))
	for _, tc := range []struct {
		name  string
		page  []byte
		quiet bool
	}{
		{"demo", demo, false},
		{"body", body, false},
		{"body quiet", body, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.page)))
			b.ReportAllocs()
			z := tokenizer{attrs: make([]attrSpan, 0, 16)}
			n := 0
			for b.Loop() {
				z = tokenizer{quiet: tc.quiet, attrs: z.attrs[:0]}
				for base := 0; base < len(tc.page); base += 32 << 10 {
					p := tc.page[base:min(base+32<<10, len(tc.page))]
					for {
						_, _, _, ok := z.next(p, int64(base))
						if !ok {
							break
						}
						n++
					}
				}
			}
			if n == 0 {
				b.Fatal("no tokens")
			}
		})
	}
}
