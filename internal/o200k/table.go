package o200k

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
)

// Table is the o200k_base vocabulary as a rank lookup that holds no
// pointers: the tokens' bytes in one array, and an open-addressing hash
// table of token numbers in a []uint32. The garbage collector marks a
// pointer-free array without reading it, where the library's map of
// strings (about 21 MB with its reverse map and sorted copy) is read
// through on every collection, whatever request caused it.
//
// A Table is read-only once made and safe for concurrent use.
type Table struct {
	// text holds every token's bytes, token i at text[start[i]:start[i+1]].
	text []byte
	// start has one offset per token into text, and the end of the last.
	start []uint32
	// rank is token i's rank: its number in the vocabulary, which is also
	// its merge priority (lower merges first).
	rank []uint32
	// slots is the hash table, a power of two long: 0 for an empty slot,
	// i+1 for token i. A token's probe sequence starts at its hash masked
	// by len(slots)-1 and goes on linearly.
	slots []uint32
}

// Vocabulary returns the o200k_base Table, made on the first call from the
// embedded file (the one the library reads) and shared afterwards.
var Vocabulary = sync.OnceValues(func() (*Table, error) {
	text, err := decompress()
	if err != nil {
		return nil, err
	}
	return ParseTable(text)
})

// ParseTable reads a tiktoken vocabulary file: one token a line, its bytes
// in standard base64, a space, and its rank in decimal. Blank lines are
// skipped; a malformed line, an empty or repeated token, a repeated rank
// or a rank beyond uint32 is an error.
func ParseTable(file []byte) (*Table, error) {
	t, err := parseTokens(file)
	if err != nil {
		return nil, err
	}
	sorted := slices.Sorted(slices.Values(t.rank))
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return nil, fmt.Errorf("o200k: vocabulary repeats rank %d", sorted[i])
		}
	}
	if err := t.index(); err != nil {
		return nil, err
	}
	return t, nil
}

// parseTokens reads the file's lines into a Table's text, start and rank,
// without the hash table (ranks, which builds the library's map, needs no
// lookup) or the check for repeated ranks.
func parseTokens(file []byte) (*Table, error) {
	t := &Table{start: []uint32{0}}
	for n := 1; len(file) > 0; n++ {
		line, rest, _ := bytes.Cut(file, []byte("\n"))
		file = rest
		if len(line) == 0 {
			continue
		}
		tok, num, ok := bytes.Cut(line, []byte(" "))
		var err error
		before := len(t.text)
		t.text, err = base64.StdEncoding.AppendDecode(t.text, tok)
		r, err2 := strconv.ParseUint(string(num), 10, 32)
		if !ok || err != nil || err2 != nil || len(t.text) == before || len(t.text) > math.MaxUint32 {
			return nil, fmt.Errorf("o200k: vocabulary line %d is not \"base64 rank\": %.80q", n, line)
		}
		t.start = append(t.start, uint32(len(t.text)))
		t.rank = append(t.rank, uint32(r))
	}
	// Copy to exact lengths: append's spare capacity would stay live.
	t.text = bytes.Clone(t.text)
	t.start = append([]uint32(nil), t.start...)
	t.rank = append([]uint32(nil), t.rank...)
	return t, nil
}

// index fills slots, at most half full, and rejects a repeated token.
func (t *Table) index() error {
	size := 1
	for size < 2*len(t.rank) {
		size <<= 1
	}
	t.slots = make([]uint32, size)
	mask := uint64(size - 1)
	for i := range t.rank {
		tok := t.token(uint32(i))
		for h := hash(tok) & mask; ; h = (h + 1) & mask {
			s := t.slots[h]
			if s == 0 {
				t.slots[h] = uint32(i) + 1
				break
			}
			if bytes.Equal(t.token(s-1), tok) {
				return fmt.Errorf("o200k: vocabulary repeats token %q", tok)
			}
		}
	}
	return nil
}

// token returns token i's bytes.
func (t *Table) token(i uint32) []byte {
	return t.text[t.start[i]:t.start[i+1]]
}

// Rank returns the rank of the token whose bytes are s, and whether s is a
// token.
func (t *Table) Rank(s string) (int, bool) {
	mask := uint64(len(t.slots) - 1)
	for h := hash(s) & mask; ; h = (h + 1) & mask {
		i := t.slots[h]
		if i == 0 {
			return 0, false
		}
		if string(t.token(i-1)) == s { // compared without a copy
			return int(t.rank[i-1]), true
		}
	}
}

// Len returns the number of tokens.
func (t *Table) Len() int { return len(t.rank) }

// hash is 64-bit FNV-1a.
func hash[S ~string | ~[]byte](s S) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
