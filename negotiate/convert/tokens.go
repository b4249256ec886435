package convert

import (
	"math"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	vocab "github.com/agentready/caddy-agentready/internal/o200k"
)

// o200k returns the o200k_base vocabulary internal/o200k embeds, as a
// pointer-free rank table (the garbage collector does not read through
// it), or the error that kept it from being made; the first call decodes
// it.
func o200k() (*vocab.Table, error) { return vocab.Vocabulary() }

// bpeCount returns the number of tokens the byte-pair encoding of one
// pre-tokenized piece makes: 1 for a piece that is a token, else the
// number of parts left by bytePairMerge.
func bpeCount(t *vocab.Table, piece string) int {
	if len(piece) == 0 {
		return 0
	}
	if _, ok := t.Rank(piece); ok || len(piece) == 1 {
		return 1
	}
	return bytePairMerge(t, piece)
}

// bytePairMerge is github.com/pkoukk/tiktoken-go's bytePairMerge (the
// algorithm of OpenAI's tiktoken), with the same ranks and tie-breaking,
// so the counts are the library's: the piece starts as single bytes;
// repeatedly, the adjacent pair whose joined bytes have the lowest rank
// (the leftmost of equals) is merged, until no pair is a token. It returns
// the number of parts left.
func bytePairMerge(t *vocab.Table, piece string) int {
	type part struct{ start, rank int }
	var buf [64]part
	parts := buf[:0]
	if len(piece)+1 > len(buf) {
		parts = make([]part, 0, len(piece)+1)
	}
	for i := 0; i <= len(piece); i++ {
		parts = append(parts, part{i, math.MaxInt})
	}
	// rankAt is the rank of the bytes from part i to part i+skip+2, or
	// MaxInt when they are not a token.
	rankAt := func(i, skip int) int {
		if i+skip+2 < len(parts) {
			if r, ok := t.Rank(piece[parts[i].start:parts[i+skip+2].start]); ok {
				return r
			}
		}
		return math.MaxInt
	}
	for i := 0; i < len(parts)-2; i++ {
		parts[i].rank = rankAt(i, 0)
	}
	for len(parts) > 1 {
		minRank, i := math.MaxInt, -1
		for j := 0; j < len(parts)-1; j++ {
			if parts[j].rank < minRank {
				minRank, i = parts[j].rank, j
			}
		}
		if i < 0 {
			break
		}
		parts[i].rank = rankAt(i, 1)
		if i > 0 {
			parts[i-1].rank = rankAt(i-1, 1)
		}
		parts = append(parts[:i+1], parts[i+2:]...)
	}
	return len(parts) - 1
}

// CountTokens returns the number of o200k_base tokens in s, the count the
// x-markdown-tokens header reports. Invalid UTF-8 is counted as U+FFFD.
//
// The text is split into pieces by splitO200k, a hand-written equivalent of
// the o200k pre-tokenizer regular expression (the regexp2 engine is the
// slow part of the library), and each distinct piece's byte-pair count is
// taken once (bpeCount) and remembered. The counts equal
// github.com/pkoukk/tiktoken-go's, which the tests compare with.
func CountTokens(s []byte) int {
	n, _ := countTokens(s, nil)
	return n
}

// countTokensCheckEvery is how many pieces are counted between two looks
// at the budget.
const countTokensCheckEvery = 4096

// countTokens is CountTokens that stops, with the budget's error, once b
// (nil for none) is spent.
func countTokens(s []byte, b *budget) (int, error) {
	str := string(s)
	if !utf8.ValidString(str) {
		str = strings.ToValidUTF8(str, "\uFFFD")
	}
	n, pieces := 0, 0
	var err error
	splitO200k(str, func(piece string) {
		if err != nil {
			return
		}
		if pieces++; b != nil && pieces%countTokensCheckEvery == 0 {
			if err = b.check(); err != nil {
				return
			}
		}
		for len(piece) > maxPiece {
			cut := maxPiece
			for cut > 0 && !utf8.RuneStart(piece[cut]) {
				cut--
			}
			n += pieceTokens(piece[:cut])
			piece = piece[cut:]
		}
		n += pieceTokens(piece)
	})
	return n, err
}

// maxPiece bounds the bytes handed to the byte-pair encoder at once. Longer
// pieces (runs of one character class: base64, long rules, blank runs in
// code) are counted in chunks, because the byte-pair merge's cost grows with
// the square of a piece's length (as the library's does); such a piece's count may then differ from the
// reference by a few tokens per chunk.
const maxPiece = 512

// Bounds on the remembered piece counts, so hostile input cannot make the
// memo grow without limit: at most maxMemo pieces (then it stops learning),
// each at most maxMemoPiece bytes.
const (
	maxMemo      = 1 << 17
	maxMemoPiece = 64
)

var memo = struct {
	sync.RWMutex
	m map[string]int32
}{m: make(map[string]int32, 4096)}

// pieceTokens returns the byte-pair token count of one pre-tokenized piece.
func pieceTokens(piece string) int {
	memo.RLock()
	n, ok := memo.m[piece]
	memo.RUnlock()
	if ok {
		return int(n)
	}
	t, err := o200k()
	if err != nil {
		return 0
	}
	c := bpeCount(t, piece)
	if len(piece) > maxMemoPiece {
		return c
	}
	memo.Lock()
	if len(memo.m) < maxMemo {
		memo.m[strings.Clone(piece)] = int32(c)
	}
	memo.Unlock()
	return c
}

// splitO200k calls yield with each piece of s as o200k_base's pre-tokenizer
// splits it. It implements, with the same backtracking results, the
// alternation
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}
//	| ?[^\s\p{L}\p{N}]+[\r\n/]*
//	|\s*[\r\n]+
//	|\s+(?!\S)
//	|\s+
//
// Some alternative matches at every position, so the pieces cover s.
func splitO200k(s string, yield func(string)) {
	for p := 0; p < len(s); {
		e := matchAt(s, p)
		if e <= p { // unreachable; guards against an endless loop
			_, size := utf8.DecodeRuneInString(s[p:])
			e = p + size
		}
		yield(s[p:e])
		p = e
	}
}

// matchAt returns the end of the regular expression's match at p.
func matchAt(s string, p int) int {
	if e := wordAt(s, p, false); e > 0 {
		return e
	}
	if e := wordAt(s, p, true); e > 0 {
		return e
	}
	r, size := utf8.DecodeRuneInString(s[p:])
	if isN(r) { // \p{N}{1,3}
		e := p + size
		for i := 1; i < 3 && e < len(s); i++ {
			r, size := utf8.DecodeRuneInString(s[e:])
			if !isN(r) {
				break
			}
			e += size
		}
		return e
	}
	if e := punctAt(s, p); e > 0 {
		return e
	}
	// The whitespace alternatives: W is the run of white space at p.
	w := p
	for w < len(s) {
		r, size := utf8.DecodeRuneInString(s[w:])
		if !unicode.IsSpace(r) {
			break
		}
		w += size
	}
	// \s*[\r\n]+ : up to and including the run's last line break.
	for k := w; k > p; {
		r, size := utf8.DecodeLastRuneInString(s[:k])
		if r == '\r' || r == '\n' {
			return k
		}
		k -= size
	}
	// \s+(?!\S) : the run, less its last character when text follows.
	if w == len(s) {
		return w
	}
	_, last := utf8.DecodeLastRuneInString(s[:w])
	if w-last > p {
		return w - last
	}
	return w // \s+
}

// wordAt tries the first (upperFirst false) or second alternative at p and
// returns the match's end, or 0.
func wordAt(s string, p int, upperFirst bool) int {
	r, size := utf8.DecodeRuneInString(s[p:])
	starts := [2]int{-1, p}
	if !isL(r) && !isN(r) && r != '\r' && r != '\n' {
		starts[0] = p + size // the optional prefix, tried first (greedy)
	}
	for _, st := range starts {
		if st < 0 || st >= len(s) {
			continue
		}
		if e := lettersAt(s, st, upperFirst); e > 0 {
			return contraction(s, e)
		}
	}
	return 0
}

// lettersAt matches [U]*[Lw]+ (upperFirst false) or [U]+[Lw]* at st, with
// the regular expression's backtracking, and returns the end or 0.
func lettersAt(s string, st int, upperFirst bool) int {
	j := st
	for j < len(s) {
		r, size := utf8.DecodeRuneInString(s[j:])
		if !inUpper(r) {
			break
		}
		j += size
	}
	if upperFirst {
		if j == st {
			return 0
		}
		return lowersFrom(s, j)
	}
	// Give back upper-class characters until a lower-class one can start
	// the mandatory [Lw]+.
	for k := j; ; {
		if k < len(s) {
			if r, _ := utf8.DecodeRuneInString(s[k:]); inLower(r) {
				return lowersFrom(s, k)
			}
		}
		if k == st {
			return 0
		}
		_, size := utf8.DecodeLastRuneInString(s[:k])
		k -= size
	}
}

// lowersFrom returns the end of the run of lower-class characters at k.
func lowersFrom(s string, k int) int {
	for k < len(s) {
		r, size := utf8.DecodeRuneInString(s[k:])
		if !inLower(r) {
			break
		}
		k += size
	}
	return k
}

// contraction extends a word ending at e by an English contraction suffix
// ('s 't 're 've 'm 'll 'd, any case), if one follows.
func contraction(s string, e int) int {
	if e >= len(s) || s[e] != '\'' {
		return e
	}
	rest := s[e+1:]
	r1, n1 := utf8.DecodeRuneInString(rest)
	switch {
	case foldIs(r1, 's') || foldIs(r1, 't') || foldIs(r1, 'm') || foldIs(r1, 'd'):
		return e + 1 + n1
	}
	r2, n2 := utf8.DecodeRuneInString(rest[n1:])
	switch {
	case foldIs(r1, 'r') && foldIs(r2, 'e'), foldIs(r1, 'v') && foldIs(r2, 'e'), foldIs(r1, 'l') && foldIs(r2, 'l'):
		return e + 1 + n1 + n2
	}
	return e
}

// foldIs reports whether r equals the ASCII letter c under Unicode simple
// case folding (so 'ſ' counts as 's', as in the (?i) group).
func foldIs(r rune, c rune) bool {
	if r == c || r == c-'a'+'A' {
		return true
	}
	if r < utf8.RuneSelf {
		return false
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f == c {
			return true
		}
	}
	return false
}

// punctAt matches " ?[^\s\p{L}\p{N}]+[\r\n/]*" at p and returns the end or 0.
func punctAt(s string, p int) int {
	st := p
	if s[p] == ' ' {
		st++
	}
	j := st
	for j < len(s) {
		r, size := utf8.DecodeRuneInString(s[j:])
		if unicode.IsSpace(r) || isL(r) || isN(r) {
			break
		}
		j += size
	}
	if j == st {
		return 0
	}
	for j < len(s) && (s[j] == '\r' || s[j] == '\n' || s[j] == '/') {
		j++
	}
	return j
}

func isL(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isN(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsNumber(r)
}

// inUpper is [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}].
func inUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M)
}

// inLower is [\p{Ll}\p{Lm}\p{Lo}\p{M}].
func inLower(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M)
}
