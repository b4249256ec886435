package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentready/caddy-agentready/fulltext"
)

// testVocab is a small vocabulary in vocab.txt form: a token a line, its
// line its id.
func testVocab(t *testing.T) *wordPiece {
	t.Helper()
	path := filepath.Join(t.TempDir(), "vocab.txt")
	lines := "[PAD]\n[UNK]\n[CLS]\n[SEP]\nstash\nthe\nchanges\nun\n##aff\n##able\n,\n!\nnaive\ngit\n-\n(\n)\n1\n.\n##s\nchange\n"
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	tk, err := loadVocab(path)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

func TestEncode(t *testing.T) {
	tk := testVocab(t)
	for _, c := range []struct {
		in   string
		want []int
	}{
		{"Stash the changes", []int{4, 5, 6}},
		{"unaffable!", []int{7, 8, 9, 11}},
		{"Naïve", []int{12}}, // accents stripped, as BERT's uncased normaliser does
		{"git-stash(1).", []int{13, 14, 4, 15, 17, 16, 18}},
		{"changes changex", []int{6, 1}},    // a word with an unknown piece is one [UNK]
		{"change\u0000s\tthe", []int{6, 5}}, // a control character is dropped, not a separator
	} {
		if got := tk.encode(c.in); !slices.Equal(got, c.want) {
			t.Errorf("encode(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestChunks(t *testing.T) {
	tk := testVocab(t)
	docs := []fulltext.Document{
		{Title: "git", Sections: []fulltext.Section{{Heading: "stash", Text: "the changes"}, {Heading: "", Text: "the"}}},
		{Title: "git", Sections: []fulltext.Section{{Heading: "stash", Text: "the changes the changes the changes"}}},
	}
	cs := chunks(docs, tk, 8, 0)
	var got [][]int
	for _, c := range cs {
		got = append(got, c.ids)
	}
	want := [][]int{
		// page 0: title and heading, then the short second section packed in
		{2, 13, 4, 5, 6, 5, 3},
		// page 1: six words of text, four fit after "git stash" in a window of 8
		{2, 13, 4, 5, 6, 5, 6, 3},
		{2, 13, 4, 5, 6, 3},
	}
	if len(got) != len(want) {
		t.Fatalf("chunks = %v, want %v", got, want)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("chunk %d = %v, want %v", i, got[i], want[i])
		}
	}
	if cs[0].doc != 0 || cs[2].doc != 1 {
		t.Errorf("chunk pages %d, %d; want 0, 1", cs[0].doc, cs[2].doc)
	}
	if n := len(chunks(docs[1:], tk, 8, 1)); n != 1 {
		t.Errorf("maxPerPage 1: %d chunks, want 1", n)
	}
}

func TestRRF(t *testing.T) {
	// 1: 1/61 + 1/63, 2: 2/62, 4: 1/61, 3: 1/63
	got := rrf([]int{1, 2, 3}, []int{4, 2, 1}, 1)
	want := []int{1, 2, 4, 3}
	if !slices.Equal(got, want) {
		t.Errorf("rrf = %v, want %v", got, want)
	}
}

func TestBestFusedRank(t *testing.T) {
	for _, c := range []struct {
		n, rank int
		w       float64
		want    int
	}{
		{100, 3, 0, 3},    // no dense weight: fulltext's own rank
		{100, 60, 0.3, 0}, // 1/120 + 0.3/61 is passed by fulltext's first 15
		{100, 60, 0.5, 1}, // 1/120 + 0.5/61 > 1/61
		{100, 0, 0.1, 0},  // unmatched: 0.1/61 is below all 100
		{3, 0, 0.1, 4},    // unmatched, after fulltext's 3 pages
	} {
		if got := bestFusedRank(c.n, c.rank, c.w); got != c.want {
			t.Errorf("bestFusedRank(%d, %d, %v) = %d, want %d", c.n, c.rank, c.w, got, c.want)
		}
	}
}
