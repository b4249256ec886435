package convert

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// o200k is the o200k_base codec, loaded from the vocabulary embedded in the
// binary on first use (no network).
var o200k = sync.OnceValue(func() tokenizer.Codec {
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		panic("convert: loading o200k_base: " + err.Error()) // embedded: cannot fail
	}
	return enc
})

// CountTokens returns the number of o200k_base tokens in s, the count the
// x-markdown-tokens header reports.
func CountTokens(s []byte) int {
	n, err := o200k().Count(string(s))
	if err != nil {
		return 0
	}
	return n
}
