package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// wordPiece is BERT's uncased tokenizer (the one all-MiniLM-L6-v2 ships in
// its tokenizer.json: BertNormalizer with lowercasing, BertPreTokenizer,
// WordPiece with "##" continuations), written out so that the experiment
// needs no tokenizer library and can cut a section into windows of the
// model's length itself (the shipped tokenizer.json truncates at 128).
type wordPiece struct {
	vocab          map[string]int
	unk, cls, sep  int
	maxCharsInWord int
}

// loadVocab reads a vocabulary from a Hugging Face tokenizer.json (its
// model.vocab) or from a vocab.txt (one token a line, the line its id).
func loadVocab(path string) (*wordPiece, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	vocab := map[string]int{}
	if strings.HasSuffix(path, ".json") {
		var tj struct {
			Model struct {
				Vocab map[string]int `json:"vocab"`
			} `json:"model"`
		}
		if err := json.Unmarshal(raw, &tj); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		vocab = tj.Model.Vocab
	} else {
		sc := bufio.NewScanner(strings.NewReader(string(raw)))
		for id := 0; sc.Scan(); id++ {
			vocab[sc.Text()] = id
		}
	}
	w := &wordPiece{vocab: vocab, maxCharsInWord: 100}
	for name, dst := range map[string]*int{"[UNK]": &w.unk, "[CLS]": &w.cls, "[SEP]": &w.sep} {
		id, ok := vocab[name]
		if !ok {
			return nil, fmt.Errorf("%s: no %s in the vocabulary", path, name)
		}
		*dst = id
	}
	return w, nil
}

// encode returns the ids of text's word pieces, without [CLS] and [SEP].
func (w *wordPiece) encode(text string) []int {
	var ids []int
	for _, word := range basicTokens(text) {
		ids = w.pieces(word, ids)
	}
	return ids
}

// pieces appends word's pieces, longest match first, or [UNK] when some
// part of it matches no piece.
func (w *wordPiece) pieces(word string, ids []int) []int {
	runes := []rune(word)
	if len(runes) > w.maxCharsInWord {
		return append(ids, w.unk)
	}
	start := len(ids)
	for i := 0; i < len(runes); {
		j := len(runes)
		found := -1
		for ; j > i; j-- {
			sub := string(runes[i:j])
			if i > 0 {
				sub = "##" + sub
			}
			if id, ok := w.vocab[sub]; ok {
				found = id
				break
			}
		}
		if found < 0 {
			return append(ids[:start], w.unk)
		}
		ids = append(ids, found)
		i = j
	}
	return ids
}

// basicTokens is BERT's pre-tokenization of uncased text: control
// characters dropped, lower-cased, accents stripped, split at white space,
// and every punctuation mark and CJK ideograph a token of its own.
func basicTokens(text string) []string {
	text = norm.NFD.String(strings.ToLower(text))
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range text {
		switch {
		case r == 0 || r == unicode.ReplacementChar || (unicode.IsControl(r) && !unicode.IsSpace(r)):
		case unicode.Is(unicode.Mn, r):
		case unicode.IsSpace(r):
			flush()
		case isPunct(r) || isCJK(r):
			flush()
			out = append(out, string(r))
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}

// isPunct is BERT's punctuation: every non-letter, non-digit ASCII mark and
// Unicode's punctuation categories.
func isPunct(r rune) bool {
	if (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126) {
		return true
	}
	return unicode.IsPunct(r)
}

func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) || (r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) || (r >= 0x2B740 && r <= 0x2B81F) || (r >= 0x2B820 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) || (r >= 0x2F800 && r <= 0x2FA1F)
}
