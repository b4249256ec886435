// Package o200k is data: OpenAI's o200k_base vocabulary file, embedded
// gzip-compressed, served to the tokenizer github.com/pkoukk/tiktoken-go
// instead of its download (Tokenizer, which the scanner counts with), and
// read into a Table (Vocabulary): the same ranks without a pointer, which
// the converter's byte-pair count looks tokens up in, so that the
// proxy's heap holds no 21 MB of map the garbage collector reads on every
// cycle. It holds no logic of the converter's or the scanner's (PRODUCT.md
// lets them share a third-party library and data, not each other's code),
// the way traffic/agents is the data file both manifest and traffic read.
//
// o200k_base.tiktoken.gz is `gzip -9 -n` of o200k_base.tiktoken as
// github.com/pkoukk/tiktoken-go-loader v0.0.2 ships it, the file OpenAI
// publishes (its SHA-256, which the tests check, is the one tiktoken
// expects). It is 1.7 MB in the binary; nothing of it is decoded until
// the first token count: a program that never counts pays nothing at
// start-up.
package o200k

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"

	"github.com/pkoukk/tiktoken-go"
)

// Name is the encoding's name in tiktoken.
const Name = "o200k_base"

// fileURL is where tiktoken-go fetches o200k_base from; its loader is asked
// for this name.
const fileURL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"

//go:embed o200k_base.tiktoken.gz
var compressed []byte

func init() {
	// Only an assignment: the vocabulary is decoded on first use. The
	// library's own GetEncoding (which the tests compare Tokenizer with)
	// reads it through this loader instead of the network.
	tiktoken.SetBpeLoader(loader{fallback: tiktoken.NewDefaultBpeLoader()})
}

// pattern is o200k_base's pre-tokenizer, as tiktoken (openai_public.py)
// and tiktoken-go define it; TestTokenizerIsTheLibrarys holds it to the
// library's.
const pattern = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
	`|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
	`|\p{N}{1,3}` +
	`| ?[^\s\p{L}\p{N}]+[\r\n/]*` +
	`|\s*[\r\n]+` +
	`|\s+(?!\S)` +
	`|\s+`

// Tokenizer returns a new o200k_base tokenizer of tiktoken-go, made from
// the embedded vocabulary (no network); it is safe for concurrent use.
// Nothing here keeps it: its maps (about 21 MB of pointers that every
// garbage collection would mark while they live) are garbage once the
// caller drops it. The scanner makes one per check of x-markdown-tokens,
// so a self-scan in the proxy's process does not leave them behind
// (tiktoken-go's GetEncoding would keep them for the process's life).
func Tokenizer() (*tiktoken.Tiktoken, error) {
	mergeable, err := ranks()
	if err != nil {
		return nil, err
	}
	special := map[string]int{tiktoken.ENDOFTEXT: 199999, tiktoken.ENDOFPROMPT: 200018}
	bpe, err := tiktoken.NewCoreBPE(mergeable, special, pattern)
	if err != nil {
		return nil, err
	}
	set := make(map[string]any, len(special))
	for k := range special {
		set[k] = true
	}
	enc := &tiktoken.Encoding{Name: Name, PatStr: pattern, MergeableRanks: mergeable, SpecialTokens: special}
	return tiktoken.NewTiktoken(bpe, enc, set), nil
}

// loader answers tiktoken-go's request for the o200k_base file from the
// embedded copy, and any other file as the library does by default.
type loader struct{ fallback tiktoken.BpeLoader }

func (l loader) LoadTiktokenBpe(file string) (map[string]int, error) {
	if file != fileURL {
		return l.fallback.LoadTiktokenBpe(file)
	}
	return ranks()
}

// ranks decodes the embedded file into the map tiktoken-go takes, read
// by parseTokens (ParseTable's parser, without its hash table, which the
// map does not need): each key is a slice of one
// string of all the tokens' bytes, so the map costs no allocation per
// token.
func ranks() (map[string]int, error) {
	text, err := decompress()
	if err != nil {
		return nil, err
	}
	t, err := parseTokens(text)
	if err != nil {
		return nil, fmt.Errorf("o200k: embedded vocabulary: %w", err)
	}
	all := string(t.text)
	m := make(map[string]int, len(t.rank))
	for i, r := range t.rank {
		m[all[t.start[i]:t.start[i+1]]] = int(r)
	}
	return m, nil
}

// decompress returns the embedded o200k_base.tiktoken file.
func decompress() ([]byte, error) {
	z, err := gzip.NewReader(bytes.NewReader(compressed))
	if err != nil {
		return nil, fmt.Errorf("o200k: embedded vocabulary: %w", err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		return nil, fmt.Errorf("o200k: embedded vocabulary: %w", err)
	}
	return b, nil
}
