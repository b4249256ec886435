package fulltext

import (
	"math"
	"testing"
)

// A short page whose title and body hold the query's two words beats a
// longer one that repeats one of them, where BM25F alone put the longer
// one first: the language model ranks the short page first and the long
// one third, BM25F the other way round by one place.
func TestSearchFusesLanguageModel(t *testing.T) {
	docs := []Document{
		{Title: "beta", Sections: []Section{{Text: "alpha alpha dolor lorem amet ipsum amet amet ipsum alpha lorem beta lorem"}}},
		{Title: "ipsum", Sections: []Section{{Text: "lorem lorem amet lorem amet lorem amet lorem ipsum beta lorem dolor alpha dolor ipsum alpha beta ipsum dolor"}}},
		{Title: "alpha", Sections: []Section{{Text: "ipsum ipsum ipsum alpha lorem beta beta lorem dolor ipsum"}}},
		{Title: "amet", Sections: []Section{{Text: "alpha amet amet alpha beta lorem"}}},
		{Title: "dolor", Sections: []Section{{Text: "amet alpha beta amet alpha lorem lorem"}}},
		{Title: "beta", Sections: []Section{{Text: "alpha amet"}}},
	}
	x := Build(docs, "")
	hits := x.Search("alpha beta", 3)
	if len(hits) == 0 || hits[0].Doc != 5 {
		t.Fatalf("top hit %+v, want document 5 (BM25F alone ranks document 0 first)", hits)
	}
}

func TestFuse(t *testing.T) {
	matched := []bool{true, true, true, false}
	for _, c := range []struct {
		name     string
		bm, lm   []float64
		wantBest int
	}{
		{"agreement keeps the order", []float64{3, 2, 1, 0}, []float64{3, 2, 1, 0}, 0},
		{"second by BM25F and first by the language model beats first and third", []float64{3, 2, 1, 0}, []float64{1, 3, 2, 0}, 1},
		{"two pages ranked crosswise by one place: BM25F decides", []float64{3, 2, 1, 0}, []float64{2, 3, 1, 0}, 0},
	} {
		s := fuse(c.bm, c.lm, matched)
		best := 0
		for d := range s {
			if s[d] > s[best] {
				best = d
			}
		}
		if best != c.wantBest || s[3] != 0 {
			t.Errorf("%s: fused %v, best %d, want %d and 0 for the unmatched page", c.name, s, best, c.wantBest)
		}
	}
}

// The language model's score is the Dirichlet-smoothed log-likelihood:
// log(1 + tf/(μ·p)) per term plus |q|·log(μ/(|d|+μ)).
func TestLMScorer(t *testing.T) {
	docs := []Document{
		{Sections: []Section{{Text: "alpha beta gamma delta"}}},
		{Sections: []Section{{Text: "alpha alpha"}}},
	}
	x := Build(docs, "")
	s := newLMScorer(x)
	total := 6.0 // body words, weight 1
	if s.total != total || s.mu != muPerMean*total/2 {
		t.Fatalf("total %v μ %v, want %v and %v", s.total, s.mu, total, muPerMean*total/2)
	}
	s.add([]int{0, 1}, []float64{1, 2}, 3)
	got := s.finish([]bool{true, true})
	p := 3 / total
	want := []float64{
		math.Log1p(1/(s.mu*p)) + math.Log(s.mu/(4+s.mu)),
		math.Log1p(2/(s.mu*p)) + math.Log(s.mu/(2+s.mu)),
	}
	for d := range want {
		if math.Abs(got[d]-want[d]) > 1e-12 {
			t.Errorf("document %d: %v, want %v", d, got[d], want[d])
		}
	}
}
