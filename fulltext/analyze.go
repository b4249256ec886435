package fulltext

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/dutch"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/finnish"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/hungarian"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/romanian"
	"github.com/blevesearch/snowballstem/russian"
	"github.com/blevesearch/snowballstem/spanish"
	"github.com/blevesearch/snowballstem/swedish"
	"github.com/blevesearch/snowballstem/turkish"
)

// maxWordBytes is the longest word indexed; longer runs (hashes, base64,
// minified code) are skipped.
const maxWordBytes = 48

// words calls f for each word of text: a maximal run of letters and digits,
// with its byte offsets. It allocates nothing.
func words(text string, f func(word string, start, end int)) {
	scanWords(text, func(start, end int) bool {
		f(text[start:end], start, end)
		return true
	})
}

// nthWord is the byte offset of word n (from 0) of text, or the number of
// words of text when it has no word n.
func nthWord(text string, n int) (offset, count int, ok bool) {
	scanWords(text, func(start, _ int) bool {
		if count == n {
			offset, ok = start, true
			return false
		}
		count++
		return true
	})
	return offset, count, ok
}

// scanWords calls f with the offsets of each word of text until f returns
// false.
func scanWords(text string, f func(start, end int) bool) {
	start := -1
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			if !f(start, i) {
				return
			}
			start = -1
		}
		i += size
	}
	if start >= 0 {
		f(start, len(text))
	}
}

// isJoiner reports whether c joins two words into a compound: "os.path",
// "3.11", "git-commit", "max_age" (as Unicode word segmentation keeps
// "3.11" and "os.path" whole, UAX #29 WB6–WB12).
func isJoiner(c byte) bool { return c == '.' || c == '-' || c == '_' }

// tokens calls f for each word of text and, before the words of a run
// joined by isJoiner, for the whole run as a compound. A compound shares
// the position of its first word: callers count positions on words only.
func tokens(text string, f func(w string, start, end int, compound bool)) {
	runStart, runEnd, parts := -1, -1, 0
	var pending [8][2]int // the words of the current run, when few
	flush := func() {
		if parts > 1 && runEnd-runStart <= maxWordBytes {
			f(text[runStart:runEnd], runStart, runEnd, true)
		}
		if parts > len(pending) {
			// A long run: emit its words again by a second scan.
			words(text[runStart:runEnd], func(w string, s, e int) { f(w, runStart+s, runStart+e, false) })
		} else {
			for _, p := range pending[:parts] {
				f(text[p[0]:p[1]], p[0], p[1], false)
			}
		}
		parts = 0
	}
	words(text, func(_ string, start, end int) {
		if parts > 0 && start == runEnd+1 && isJoiner(text[runEnd]) {
			runEnd = end
		} else {
			if parts > 0 {
				flush()
			}
			runStart, runEnd = start, end
		}
		if parts < len(pending) {
			pending[parts] = [2]int{start, end}
		}
		parts++
	})
	if parts > 0 {
		flush()
	}
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// analyzer turns words into terms: lower case, stop words dropped, stemmed.
type analyzer struct {
	stem  func(*snowballstem.Env) bool // nil: no stemming
	stops map[string]bool
}

// stemmers are the Snowball stemmers by primary language subtag.
var stemmers = map[string]func(*snowballstem.Env) bool{
	"da": danish.Stem, "de": german.Stem, "en": english.Stem, "es": spanish.Stem,
	"fi": finnish.Stem, "fr": french.Stem, "hu": hungarian.Stem, "it": italian.Stem,
	"nb": norwegian.Stem, "nl": dutch.Stem, "nn": norwegian.Stem, "no": norwegian.Stem,
	"pt": portuguese.Stem, "ro": romanian.Stem, "ru": russian.Stem, "sv": swedish.Stem,
	"tr": turkish.Stem,
}

// newAnalyzer is the analyzer of a site in language (a BCP 47 tag; "" means
// English): the Snowball stemmer of its primary subtag (none for a language
// Snowball does not cover), and English stop words for English.
func newAnalyzer(language string) *analyzer {
	lang, _, _ := strings.Cut(strings.ToLower(language), "-")
	if lang == "" {
		lang = "en"
	}
	a := &analyzer{stem: stemmers[lang]}
	if lang == "en" {
		a.stops = englishStops
	}
	return a
}

// term is the index term of word, "" for a stop word or an over-long word.
// env is scratch space for the stemmer.
func (a *analyzer) term(word string, env *snowballstem.Env) string {
	if len(word) > maxWordBytes {
		return ""
	}
	w := lower(word)
	if a.stops[w] {
		return ""
	}
	if a.stem == nil || len(w) < 3 {
		return w
	}
	env.SetCurrent(w)
	a.stem(env)
	return env.Current()
}

// lower lower-cases s, without allocating when it already is (the common
// case for ASCII text).
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// queryTerms are the distinct terms of q in order. When every word of q is
// a stop word ("to be or not to be"), the words themselves are the terms.
func (a *analyzer) queryTerms(q string) []string {
	env := snowballstem.NewEnv("")
	var out, all []string
	tokens(q, func(w string, _, _ int, compound bool) {
		t := a.term(w, env)
		if compound {
			t = lower(w)
		}
		if t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
		if l := lower(w); len(l) <= maxWordBytes && !slices.Contains(all, l) {
			all = append(all, l)
		}
	})
	if len(out) == 0 {
		return all
	}
	return out
}

// englishStops are the English stop words: Lucene's classic list and the
// pronouns and auxiliaries of questions ("how do I …").
var englishStops = setOf(`a an and are as at be but by for if in into is it no not of on or such
that the their then there these they this to was will with
i me my we our you your he she him her his its them what which who whom how when where why
do does did doing done can could should would may might must shall have has had having been being
am were so than too very s t just about also any all some there's it's don`)

func setOf(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
