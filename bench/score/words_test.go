package score

import (
	"reflect"
	"testing"
)

func TestWords(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Bag
	}{
		{"empty", "", Bag{}},
		{"punctuation only", "# * | > - ` _", Bag{}},
		{"lowercases and counts", "The cat saw the CAT.", Bag{"the": 2, "cat": 2, "saw": 1}},
		{"digits are words", "Go 1.26 costs $19", Bag{"go": 1, "1": 1, "26": 1, "costs": 1, "19": 1}},
		{"markdown emphasis splits", "**bold**_it_", Bag{"bold": 1, "it": 1}},
		{"accents stay in the word", "café naïve", Bag{"café": 1, "naïve": 1}},
		{"combining mark joins its letter", "cafe\u0301", Bag{"cafe\u0301": 1}},
		{"han characters stand alone", "中文abc", Bag{"中": 1, "文": 1, "abc": 1}},
		{"kana characters stand alone", "カタかな", Bag{"カ": 1, "タ": 1, "か": 1, "な": 1}},
		{"cyrillic words", "Привет, мир", Bag{"привет": 1, "мир": 1}},
		{"apostrophe splits", "don't", Bag{"don": 1, "t": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Words(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Words(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name             string
		expected, output string
		want             Result
	}{
		{
			name: "identical", expected: "a b c", output: "c b a",
			want: Result{Expected: 3, Output: 3, Common: 3, Recall: 1, Precision: 1, F1: 1},
		},
		{
			name: "output adds chrome", expected: "a b", output: "a b menu home",
			want: Result{Expected: 2, Output: 4, Common: 2, Recall: 1, Precision: 0.5, F1: 2.0 / 3},
		},
		{
			name: "output drops half", expected: "a b c d", output: "a b",
			want: Result{Expected: 4, Output: 2, Common: 2, Recall: 0.5, Precision: 1, F1: 2.0 / 3},
		},
		{
			name: "multiset counts repeats once each", expected: "a a a", output: "a",
			want: Result{Expected: 3, Output: 1, Common: 1, Recall: 1.0 / 3, Precision: 1, F1: 0.5},
		},
		{
			name: "both empty", expected: "", output: "",
			want: Result{Recall: 1, Precision: 1, F1: 1},
		},
		{
			name: "empty output", expected: "a", output: "",
			want: Result{Expected: 1},
		},
		{
			name: "nothing expected", expected: "", output: "a",
			want: Result{Output: 1, Recall: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(Words(tt.expected), Words(tt.output))
			if !closeResult(got, tt.want) {
				t.Errorf("Compare(%q, %q) = %+v, want %+v", tt.expected, tt.output, got, tt.want)
			}
		})
	}
}

// closeResult compares two results, the ratios to within rounding.
func closeResult(a, b Result) bool {
	near := func(x, y float64) bool { return x-y < 1e-9 && y-x < 1e-9 }
	return a.Expected == b.Expected && a.Output == b.Output && a.Common == b.Common &&
		near(a.Recall, b.Recall) && near(a.Precision, b.Precision) && near(a.F1, b.F1)
}

func FuzzWords(f *testing.F) {
	f.Add("Hello, 世界 — café\u0301 don't")
	f.Add("\xff\xfe invalid utf-8")
	f.Fuzz(func(t *testing.T, s string) {
		bag := Words(s)
		if n := bag.Size(); n > len(s) {
			t.Fatalf("%d tokens from %d bytes", n, len(s))
		}
		r := Compare(bag, bag)
		if r.Recall != 1 || r.Precision != 1 {
			t.Fatalf("text compared with itself: %+v", r)
		}
	})
}
