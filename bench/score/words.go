package score

import (
	"strings"
	"unicode"
)

// Bag is a multiset of lowercase word tokens: token → number of occurrences.
type Bag map[string]int

// Size reports the number of tokens in b, counting repeats.
func (b Bag) Size() int {
	n := 0
	for _, c := range b {
		n += c
	}
	return n
}

// Words splits text into lowercase word tokens and counts them.
func Words(text string) Bag {
	bag := make(Bag)
	start := -1
	flush := func(end int) {
		if start >= 0 {
			bag[strings.ToLower(text[start:end])]++
			start = -1
		}
	}
	for i, r := range text {
		switch {
		case isIdeograph(r):
			flush(i)
			bag[string(r)]++
		case unicode.IsLetter(r) || unicode.IsDigit(r) || (start >= 0 && unicode.IsMark(r)):
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(text))
	return bag
}

// isIdeograph reports whether r belongs to a script written without spaces
// between words, where each character is scored as a token of its own.
func isIdeograph(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) ||
		unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r))
}
