package htmlrewrite

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/agentready/caddy-agentready/internal/benchpage"
)

// skimCases are inputs where skim's shortcut meets the tags it must hand
// over: the wanted and raw-text names in any case, their look-alikes one
// byte longer or shorter, a '<' or a name cut by the end of a chunk, tags
// with attributes hiding a '<form' in a value, and end tags.
var skimCases = []string{
	"<p>a</p><li>b</li><FORM id=contact><input name=email></Form>",
	"<p><form><input name=q></form></p>",
	"<for><forms><FoRm><htm><html><htmlx><inpu><input><inputs>",
	"<selec><select><selects><textare><textarea>x</textarea><textareas>",
	"<xm><xmp><p></xmp><form><xmpp><form>",
	"<scrip><script><form></script><SCRIPT>a<form</SCRIPT ><form>",
	"<style><p><form></style><TITLE><form></title><form>",
	"<noscript><form></noscript><iframe><form></iframe><noembed><form></noembed><noframes><form></noframes>",
	"<PLAINTEXT><p><form>",
	"<p title='<form>'><form a=\"<p>\"></p>",
	"<p/><form/><br/><br /><p\t><p\n></p >",
	"</><//p></ p></3><3<<p><<form>",
	"<!-- <form> --><p><!DOCTYPE html><?x <form> ?><form>",
	"<p>" + string([]byte{0, 0xff}) + "<p\x00><form\x00>",
	"a<b<c<d<e>f",
	// Attributes skipAttrs steps over: a quote opens a value only after a
	// key's '=', and a '>' in a value does not end the tag. Where a form
	// is a tag under one reading and inside a tag under another.
	"<a b=\"x\"=\"<p>\"<form>\"><a/=\">\"<form>\"><a b='>'<form>'>",
	"<a b=c\"<form>\"><a b=\"c\"d=\"<form>\"><a b= =\"<form>\"><a b =\"<form>\">",
	"<a b=c/d=\"<p>\"<form>\"><a b==\"<p>\"<form>\"><a b=c=\"<p>\"<form>\">",
	"<a\t=\"<p>\"<form>\"><a b \"=\"<p>\"<form>\"><a b\n=\n\"<p>\"<form>\">",
	"<a / =\"<form>\"><a b/=\"<form>\"><a b/ =\"<form>\"><a =\"<form>\"><a ==\"<form>\">",
	"<a/=\">\"x><form><a/ =\">\"x><form>",
	"<a b=\"x\"=\"<form>\"><form><a b='x'='<p>'><form>",
	"<a b=x\"y \">z\"><form><a b = \"<form>\" ><form>",
	"<p =\">\"><form><p a=>b><form><p a= ><form><p a=\"x\"b='y'c=z/><form>",
	"</p a=\"<form>\"><form></p/ b='>'><form><p\ta\n=\f'>'\r><form>",
	"<table><thead><tr><th>a</th></tr></thead><tbody><tr><td>b</td></tr></tbody></table><section><strong><em>x</em></strong></section>",
}

// skimState is the part of a tokenizer's state later tokens depend on.
func skimState(z *tokenizer, end int64) string {
	tt, start, ok := z.eof(end)
	return fmt.Sprintf("st=%d start=%d raw=%q hold=%d/%d eof=%v,%d,%v",
		z.st, z.start, z.rawTag, z.holdFrom(false, end), z.holdFrom(true, end), tt, start, ok)
}

// compareSkim fails t unless the quiet tokenizer reports the same tokens
// and ends every chunk in the same state with skim as without it.
func compareSkim(t *testing.T, in []byte, chunk int) {
	t.Helper()
	fast, slow := tokenizer{quiet: true}, tokenizer{quiet: true, noSkim: true}
	for base := 0; base < len(in); base += chunk {
		p := in[base:min(base+chunk, len(in))]
		for {
			ft, fs, fe, fok := fast.next(p, int64(base))
			st, ss, se, sok := slow.next(p, int64(base))
			if ft != st || fs != ss || fe != se || fok != sok {
				t.Fatalf("input %q in chunks of %d: skim reports %v [%d,%d) %v, the slow path %v [%d,%d) %v",
					in, chunk, ft, fs, fe, fok, st, ss, se, sok)
			}
			if fok && (ft == nethtml.StartTagToken || ft == nethtml.EndTagToken) && !bytes.Equal(fast.tagName(), slow.tagName()) {
				t.Fatalf("input %q in chunks of %d: tag %q, the slow path %q", in, chunk, fast.tagName(), slow.tagName())
			}
			if !fok {
				break
			}
		}
		end := int64(base + len(p))
		if f, s := skimState(&fast, end), skimState(&slow, end); f != s {
			t.Fatalf("input %q in chunks of %d, at %d: skim leaves %s, the slow path %s", in, chunk, end, f, s)
		}
	}
}

// TestSkimMatchesSlowPath checks skim against the slow path on its cases,
// the tokenizer's, the golden pages and an article page, in chunks of
// every size that cuts a tag somewhere.
func TestSkimMatchesSlowPath(t *testing.T) {
	var inputs [][]byte
	for _, in := range append(append([]string{}, skimCases...), tokenizerCases...) {
		for _, suffix := range tokenizerSuffixes {
			inputs = append(inputs, []byte(in+suffix))
		}
	}
	for _, in := range inputs {
		for _, chunk := range []int{1, 2, 3, 5, 7, 64} {
			compareSkim(t, in, chunk)
		}
	}
	pages := append(testPages(t), benchpage.Article(64<<10))
	for _, in := range pages {
		for _, chunk := range []int{1, 13, 512, 32 << 10, len(in) + 1} {
			compareSkim(t, in, chunk)
		}
	}
}

// TestSkimRewritesAsLibrary runs the rewriter, which skims once the head
// is done, over the skim cases after a head and over an article page, and
// compares its output with the rewrite driven by x/net/html's Tokenizer.
func TestSkimRewritesAsLibrary(t *testing.T) {
	for _, in := range skimCases {
		for _, chunk := range []int{1, 3, 64} {
			compareRewrite(t, []byte("<html><head><title>t</title></head><body>"+in), chunk)
		}
	}
	page := benchpage.Article(64 << 10)
	for _, chunk := range []int{7, 4096, len(page) + 1} {
		compareRewrite(t, page, chunk)
	}
}

func FuzzSkim(f *testing.F) {
	for _, in := range skimCases {
		f.Add([]byte(in), uint8(3))
	}
	for _, in := range tokenizerCases {
		f.Add([]byte(in), uint8(5))
	}
	f.Fuzz(func(t *testing.T, in []byte, chunk uint8) {
		compareSkim(t, in, int(chunk%64)+1)
	})
}

// TestSkippableKnowsTheLists holds skippable, with its shortcuts (the
// length bounds, the case folding by 0x20), to what it stands for, over
// every element name x/net/html knows, as written and in upper case: a
// name added to isRawTextName or annotatable is never stepped over.
func TestSkippableKnowsTheLists(t *testing.T) {
	n := 0
	for off := range 1 << 14 {
		for size := 1; size < 32; size++ {
			a := atom.Atom(off<<8 | size)
			name := a.String()
			if name == "" || atom.Lookup([]byte(name)) != a {
				continue
			}
			n++
			want := !isRawTextName(name) && !annotatable(nethtml.StartTagToken, []byte(name)) && !annotatable(nethtml.EndTagToken, []byte(name))
			for _, s := range []string{name, strings.ToUpper(name)} {
				if got := skippable([]byte(s)); got != want {
					t.Errorf("skippable(%q) = %v, want %v", s, got, want)
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d element names found", n)
	}
}
