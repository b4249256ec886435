package o200k

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/pkoukk/tiktoken-go"
)

// openAISHA256 is the SHA-256 tiktoken checks o200k_base.tiktoken against
// (tiktoken_ext/openai_public.py).
const openAISHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"

func TestEmbeddedFileIsOpenAIs(t *testing.T) {
	text, err := decompress()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(text)
	if got := hex.EncodeToString(sum[:]); got != openAISHA256 {
		t.Fatalf("embedded o200k_base.tiktoken has SHA-256 %s, OpenAI's is %s", got, openAISHA256)
	}
	m, err := ranks()
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != 199998 {
		t.Errorf("%d ranks, o200k_base has 199998", len(m))
	}
}

// Entry is one text of testdata/counts.json and its o200k_base token count
// by OpenAI's tiktoken (testdata/reference.js writes the counts).
type Entry struct {
	Name     string `json:"name"`
	Text     string `json:"text"`
	Tiktoken int    `json:"tiktoken"`
}

func TestCountsMatchTiktoken(t *testing.T) {
	entries := readCounts(t)
	tk, err := Tokenizer()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if got := len(tk.EncodeOrdinary(e.Text)); got != e.Tiktoken {
			t.Errorf("%s: %d tokens, tiktoken counts %d in %.80q", e.Name, got, e.Tiktoken, e.Text)
		}
	}
	if len(entries) < 400 {
		t.Errorf("only %d texts in testdata/counts.json", len(entries))
	}
}

func TestOtherFilesGoToTheFallback(t *testing.T) {
	var asked string
	l := loader{fallback: fakeLoader(func(f string) { asked = f })}
	if _, err := l.LoadTiktokenBpe("https://example.com/cl100k_base.tiktoken"); err != nil || asked == "" {
		t.Errorf("cl100k_base: err %v, fallback asked for %q", err, asked)
	}
}

type fakeLoader func(string)

func (f fakeLoader) LoadTiktokenBpe(file string) (map[string]int, error) {
	f(file)
	return map[string]int{}, nil
}

// TestTokenizerIsTheLibrarys: the tokenizer Tokenizer makes (its own copy
// of the pre-tokenizer's pattern and special tokens) encodes as the
// library's GetEncoding does, token for token, on every text of
// testdata/counts.json and on the special tokens' text; and each call
// makes a new one, which nothing here keeps.
func TestTokenizerIsTheLibrarys(t *testing.T) {
	entries := readCounts(t)
	entries = append(entries, Entry{Name: "special", Text: "a<|endoftext|>b <|endofprompt|>"})
	lib, err := tiktoken.GetEncoding(Name)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := Tokenizer()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if got, want := ours.EncodeOrdinary(e.Text), lib.EncodeOrdinary(e.Text); !slices.Equal(got, want) {
			t.Errorf("%s: %v, the library: %v", e.Name, got, want)
		}
		if got, want := ours.Encode(e.Text, []string{"all"}, nil), lib.Encode(e.Text, []string{"all"}, nil); !slices.Equal(got, want) {
			t.Errorf("%s with special tokens: %v, the library: %v", e.Name, got, want)
		}
	}
	again, err := Tokenizer()
	if err != nil {
		t.Fatal(err)
	}
	if again == ours {
		t.Error("Tokenizer returned the same tokenizer twice: something keeps it")
	}
}

// readCounts reads testdata/counts.json.
func readCounts(t *testing.T) []Entry {
	t.Helper()
	b, err := os.ReadFile("testdata/counts.json")
	if err != nil {
		t.Fatal(err)
	}
	var entries []Entry
	if err := json.Unmarshal(b, &entries); err != nil {
		t.Fatal(err)
	}
	return entries
}
