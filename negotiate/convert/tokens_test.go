package convert

import (
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	vocab "github.com/agentready/caddy-agentready/internal/o200k"
	"github.com/pkoukk/tiktoken-go"
)

// libraryOnce builds the reference tokenizer once per test binary:
// vocab.Tokenizer makes a new 21 MB one on every call (the scanner must
// not keep it), and the corpus and fuzz tests count thousands of texts.
var libraryOnce = sync.OnceValues(vocab.Tokenizer)

// library is github.com/pkoukk/tiktoken-go's o200k_base tokenizer, the
// reference CountTokens and bpeCount are held to.
func library(t testing.TB) *tiktoken.Tiktoken {
	t.Helper()
	tk, err := libraryOnce()
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// referenceCount is the library's own count (regexp2 split), the ground
// truth CountTokens must equal.
func referenceCount(t testing.TB, s string) int {
	return len(library(t).EncodeOrdinary(s))
}

// tokenSamples mix the shapes the pre-tokenizer distinguishes: contractions,
// case runs, marks, digits, punctuation runs, line breaks and odd spaces.
var tokenSamples = []string{
	"", "hello world", "Hello, world!", "don't DON'T we'LL they're I'M it'ſ",
	"ABCdef ABC abc aBC Éclair ÉCLAIR naïve nai\u0308ve",
	"12345 1,000,000 3.14159 ½ ⅔ ²³ ١٢٣٤",
	"  leading\ttabs\n\n\n  indented\r\n\r\nwindows\u00a0nbsp\u2028line",
	"## Heading\n\n- item *em* **strong** `code` [link](https://example.com/a/b?c=d#e)\n\n| a | b |\n|---|---|\n",
	"```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n",
	"中文文本，日本語のテキスト、한국어 텍스트 — emoji 🚀🎉 👩‍💻 flags 🇫🇷",
	"combining ́marks at start \u0301\u0301x and alone \u0301",
	"mixed ΑΒΓαβγ Ǆǅǆ ǈ title-case ᾈ", "    \n", " \n ", "a  ", "a \n", "...!!!///\n\n//",
	"'s 's's ''s x's 'S 'Re 'vE 'LL 'Ld", "---\ntitle: \"T: x\"\n---\n",
}

func TestCountTokensMatchesLibrary(t *testing.T) {
	samples := append([]string(nil), tokenSamples...)
	golden, _ := filepath.Glob("testdata/golden/*.md")
	for _, g := range golden {
		b, _ := os.ReadFile(g)
		samples = append(samples, string(b))
	}
	for _, s := range samples {
		if got, want := CountTokens([]byte(s)), referenceCount(t, s); got != want {
			t.Errorf("CountTokens(%.60q) = %d, library says %d", s, got, want)
			var pieces []string
			splitO200k(s, func(p string) { pieces = append(pieces, p) })
			ref := library(t).EncodeOrdinary(s)
			t.Logf("pieces %q\ntoken ids %v", pieces, ref)
		}
	}
}

func TestSplitCoversInput(t *testing.T) {
	for _, s := range tokenSamples {
		var b strings.Builder
		splitO200k(s, func(p string) {
			if p == "" {
				t.Errorf("empty piece in %q", s)
			}
			b.WriteString(p)
		})
		if b.String() != s {
			t.Errorf("pieces of %q join to %q", s, b.String())
		}
	}
}

func FuzzCountTokens(f *testing.F) {
	for _, s := range tokenSamples {
		f.Add(s)
	}
	// Control characters: the previous library's generated matcher split
	// these unlike the regular expression (and tiktoken).
	f.Add("\x7f$a")
	f.Add("\x01$a")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		if got, want := CountTokens([]byte(s)), referenceCount(t, s); got != want {
			if longestPiece(s) > maxPiece {
				t.Skipf("CountTokens(%q) = %d, library says %d: a piece over maxPiece is counted in chunks (TestCountTokensHugePieces bounds the difference)", s, got, want)
			}
			if foldsToASCII(s) {
				t.Skipf("CountTokens(%q) = %d, library says %d: the library's (?i) does not fold %q as OpenAI's tiktoken does (TestCountTokensFoldsLikeTiktoken)", s, got, want, s)
			}
			t.Fatalf("CountTokens(%q) = %d, library says %d", s, got, want)
		}
	})
}

// longestPiece is the length of the longest piece the pre-tokenizer cuts
// s into.
func longestPiece(s string) int {
	n := 0
	splitO200k(s, func(p string) { n = max(n, len(p)) })
	return n
}

// foldsToASCII reports whether s holds a rune beyond ASCII that Unicode
// simple case folding maps to an ASCII letter ('ſ' to 's', the Kelvin
// sign to 'k'): there tiktoken-go's regexp2, whose (?i) compares lower
// cases only, splits a contraction unlike OpenAI's tiktoken (Rust's
// regex folds), and the converter follows tiktoken.
func foldsToASCII(s string) bool {
	for _, r := range s {
		if r < utf8.RuneSelf {
			continue
		}
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < utf8.RuneSelf {
				return true
			}
		}
	}
	return false
}

// TestCountTokensFoldsLikeTiktoken: where tiktoken-go and OpenAI's
// tiktoken disagree (a contraction's letter matched by case folding),
// the count is tiktoken's (tiktoken 1.0.22 from npm: encode_ordinary
// gives 7 tokens for the first text, 1302 ×4, 504, 3413, 70067; the
// library 8, found by FuzzCountTokens).
func TestCountTokensFoldsLikeTiktoken(t *testing.T) {
	for s, want := range map[string]int{
		"00000000000000 I'ſ": 7,
		" I'ſ":               2,
		"I'ſ":                3,
	} {
		if got := CountTokens([]byte(s)); got != want {
			t.Errorf("CountTokens(%q) = %d, tiktoken counts %d", s, got, want)
		}
	}
}

func TestCountTokensHugePieces(t *testing.T) {
	shapes := map[string]func(n int) string{
		"one long word":   func(n int) string { return strings.Repeat("ab", n/2) },
		"one long run":    func(n int) string { return strings.Repeat(" ", n) + "x" },
		"long upper run":  func(n int) string { return strings.Repeat("A", n) + "b" },
		"long punct run":  func(n int) string { return strings.Repeat("-=", n/2) },
		"many line feeds": func(n int) string { return strings.Repeat(" \n", n/2) },
	}
	for name, shape := range shapes {
		// Against the library where it is still fast: a chunk boundary may
		// split a long token into a few.
		s := shape(8 << 10)
		got, want := CountTokens([]byte(s)), referenceCount(t, s)
		if slack := 8 * (len(s)/maxPiece + 1); got < want-slack || got > want+slack {
			t.Errorf("%s: CountTokens = %d, library says %d", name, got, want)
		}
		// And at a size where the library alone would take minutes.
		if got := CountTokens([]byte(shape(1 << 20))); got <= 0 {
			t.Errorf("%s (1 MB): CountTokens = %d", name, got)
		}
	}
	memo.RLock()
	defer memo.RUnlock()
	for k := range memo.m {
		if len(k) > maxMemoPiece {
			t.Fatalf("memo holds a %d-byte piece", len(k))
		}
	}
}

// TestCountTokensMatchesTiktoken holds CountTokens to OpenAI's tiktoken on
// the texts of internal/o200k/testdata/counts.json and on the golden
// conversions (testdata/golden_tokens.json); both files are written by
// internal/o200k/testdata/reference.js. Texts with a piece longer than
// maxPiece are counted in chunks: TestCountTokensHugePieces covers them.
func TestCountTokensMatchesTiktoken(t *testing.T) {
	var entries []tiktokenCount
	readJSON(t, "../../internal/o200k/testdata/counts.json", &entries)
	var golden map[string]int
	readJSON(t, "testdata/golden_tokens.json", &golden)
	for name, n := range golden {
		b, err := os.ReadFile(filepath.Join("testdata/golden", name))
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, tiktokenCount{name, string(b), n})
	}
	for _, e := range entries {
		long := false
		splitO200k(e.Text, func(p string) { long = long || len(p) > maxPiece })
		if got := CountTokens([]byte(e.Text)); got != e.Tiktoken && !long {
			t.Errorf("%s: CountTokens = %d, tiktoken counts %d in %.80q", e.Name, got, e.Tiktoken, e.Text)
		}
	}
}

// tiktokenCount is a text and its o200k_base token count by tiktoken.
type tiktokenCount struct {
	Name     string `json:"name"`
	Text     string `json:"text"`
	Tiktoken int    `json:"tiktoken"`
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestCountTokensMatchesLibraryOnMixedText: random texts of words from
// many scripts, numbers, punctuation, emoji and white space, counted by
// CountTokens (its own split and byte-pair merge over internal/o200k's
// Table) and by the library, which must agree on every one.
func TestCountTokensMatchesLibraryOnMixedText(t *testing.T) {
	words := []string{
		"the", "The", "THE", "don't", "they're", "naïve", "Éclair", "straße", "İstanbul",
		"中文", "日本語の", "テキスト", "한국어", "Русский", "ελληνικά", "עברית", "العربية", "हिन्दी", "ไทย",
		"🚀", "👩‍💻", "🇫🇷", "12", "2026", "3.14", "½", "١٢٣", "func()", "x := y", "**bold**",
		"[link](https://example.com/a?b=c)", "`code`", "---", "...", "/*", "#", "\t", "\n", "\r\n",
		"  ", "\u00a0", "\u3000", "camelCase", "snake_case", "HTTPServer", "ǅemal", "x'S", "'ll",
	}
	seps := []string{" ", "", "\n", ", ", "  ", "\n\n", "-", "/"}
	rng := rand.New(rand.NewSource(28))
	lib := library(t)
	for i := 0; i < 500; i++ {
		var b strings.Builder
		for j, n := 0, 1+rng.Intn(40); j < n; j++ {
			b.WriteString(words[rng.Intn(len(words))])
			b.WriteString(seps[rng.Intn(len(seps))])
		}
		s := b.String()
		if got, want := CountTokens([]byte(s)), len(lib.EncodeOrdinary(s)); got != want {
			t.Errorf("CountTokens(%q) = %d, the library counts %d", s, got, want)
		}
	}
}

// TestCountTokensMatchesLibraryOnCounts: the texts of
// internal/o200k/testdata/counts.json, against the library itself.
func TestCountTokensMatchesLibraryOnCounts(t *testing.T) {
	var entries []tiktokenCount
	readJSON(t, "../../internal/o200k/testdata/counts.json", &entries)
	lib := library(t)
	for _, e := range entries {
		long := false
		splitO200k(e.Text, func(p string) { long = long || len(p) > maxPiece })
		if got, want := CountTokens([]byte(e.Text)), len(lib.EncodeOrdinary(e.Text)); got != want && !long {
			t.Errorf("%s: CountTokens = %d, the library counts %d", e.Name, got, want)
		}
	}
}
