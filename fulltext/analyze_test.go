package fulltext

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTokens(t *testing.T) {
	type tok struct {
		W        string
		Compound bool
	}
	for _, c := range []struct {
		in   string
		want []tok
	}{
		{"", nil},
		{"Hello, world!", []tok{{"Hello", false}, {"world", false}}},
		{"os.path.join()", []tok{{"os.path.join", true}, {"os", false}, {"path", false}, {"join", false}}},
		{"Python 3.11 is new.", []tok{{"Python", false}, {"3.11", true}, {"3", false}, {"11", false}, {"is", false}, {"new", false}}},
		{"git-commit --amend", []tok{{"git-commit", true}, {"git", false}, {"commit", false}, {"amend", false}}},
		{"end. Next", []tok{{"end", false}, {"Next", false}}},
		{"a..b", []tok{{"a", false}, {"b", false}}},
		{"café naïve", []tok{{"café", false}, {"naïve", false}}},
		{"a.b.c.d.e.f.g.h.i.j", append([]tok{{"a.b.c.d.e.f.g.h.i.j", true}}, func() []tok {
			var out []tok
			for _, w := range strings.Split("abcdefghij", "") {
				out = append(out, tok{w, false})
			}
			return out
		}()...)},
	} {
		var got []tok
		tokens(c.in, func(w string, start, end int, compound bool) {
			if c.in[start:end] != w {
				t.Errorf("%q: offsets %d:%d are not %q", c.in, start, end, w)
			}
			got = append(got, tok{w, compound})
		})
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("tokens(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestQueryTerms(t *testing.T) {
	for _, c := range []struct {
		lang, q string
		want    []string
	}{
		{"", "How do I read CSV files?", []string{"read", "csv", "file"}},
		{"en-GB", "Running runs", []string{"run"}},
		{"", "what is new in Python 3.11", []string{"new", "python", "3.11", "3", "11"}},
		{"", "to be or not to be", []string{"to", "be", "or", "not"}},
		{"de", "Häuser und Häusern", []string{"haus", "und"}},
		{"xx", "Running", []string{"running"}},
		{"", "", nil},
		{"", "?!", nil},
	} {
		if got := newAnalyzer(c.lang).queryTerms(c.q); !reflect.DeepEqual(got, c.want) {
			t.Errorf("queryTerms(%s, %q) = %q, want %q", c.lang, c.q, got, c.want)
		}
	}
}

// FuzzTokens: tokens never panics, its offsets name its words, and it
// yields only valid UTF-8 for valid input; the query parser does not panic
// either.
func FuzzTokens(f *testing.F) {
	for _, s := range []string{"", "os.path", "3.11.2", "a-b_c.d", "é.ü", "\xff.a", "x" + strings.Repeat(".y", 50)} {
		f.Add(s)
	}
	a := newAnalyzer("")
	f.Fuzz(func(t *testing.T, s string) {
		tokens(s, func(w string, start, end int, compound bool) {
			if start < 0 || end > len(s) || start >= end || s[start:end] != w {
				t.Fatalf("bad token %q at %d:%d of %q", w, start, end, s)
			}
			if compound && len(w) > maxWordBytes {
				t.Fatalf("compound over %d bytes: %q", maxWordBytes, w)
			}
			if utf8.ValidString(s) && !utf8.ValidString(w) {
				t.Fatalf("invalid UTF-8 token %q", w)
			}
		})
		for _, q := range a.queryTerms(s) {
			if q == "" {
				t.Fatalf("empty query term from %q", s)
			}
		}
	})
}
