package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agentready/caddy-agentready/bench/search/sitecorpus"
	"github.com/agentready/caddy-agentready/fulltext"
)

// ceilingDepths are the depths of fulltext's ranking whose recall bounds a
// reranker of that many pages.
var ceilingDepths = []int{5, 10, 20, 50, 100}

// ceilingWeights are the dense weights of the fusion whose bounds are
// printed.
var ceilingWeights = []float64{0.1, 0.3, 0.5, 0.8, 1}

// ceilingRows are one site's rows of the two ceiling tables.
type ceilingRows struct {
	depth, fusion string
}

// ceiling measures, without a model, what the designs could reach on one
// site if the model were perfect, placing the answer page first:
//
//   - the share of answers within fulltext's first n pages for each n of
//     ceilingDepths: the recall@5 of a perfect reranker of those n pages
//     (design (c) cannot place a page it is not given);
//   - the fusion (b) at each dense weight of ceilingWeights, twice: with the
//     dense ranking's other places going to pages fulltext does not rank
//     (the most the fusion can reach), and going to fulltext's pages in
//     fulltext's order (the least a perfect model gives).
func ceiling(s site, root, questions string) (ceilingRows, error) {
	var rows ceilingRows
	qs, err := sitecorpus.ReadQuestions(filepath.Join(questions, s.Questions))
	if err != nil {
		return rows, err
	}
	docs, err := sitecorpus.ReadSite(root, s.Prefix)
	if err != nil {
		return rows, err
	}
	x := fulltext.Build(docs, "en")
	within := make([]int, len(ceilingDepths))
	most := make([]score, len(ceilingWeights))
	least := make([]score, len(ceilingWeights))
	var deep []string
	for _, q := range qs {
		var ranked []int
		answer := -1
		for _, h := range x.Search(q.Text, len(docs)) {
			ranked = append(ranked, h.Doc)
		}
		for d := range docs {
			if docs[d].Path == s.Prefix+q.Answer {
				answer = d
			}
		}
		rank := indexOf(ranked, answer) + 1
		for i, n := range ceilingDepths {
			if rank > 0 && rank <= n {
				within[i]++
			}
		}
		if rank == 0 || rank > 5 {
			deep = append(deep, fmt.Sprintf("%s %s %d", q.ID, q.Answer, rank))
		}
		for i, w := range ceilingWeights {
			most[i].Add(bestFusedRank(len(ranked), rank, w))
			dense := append([]int{answer}, without(ranked, answer)...)
			least[i].Add(rankIn10(rrf(ranked, dense, w), answer))
		}
	}
	cells := []string{s.Title}
	for _, w := range within {
		cells = append(cells, fmt.Sprintf("%.2f (%d/%d)", float64(w)/float64(len(qs)), w, len(qs)))
	}
	rows.depth = "| " + strings.Join(append(cells, strings.Join(deep, ", ")), " | ") + " |"
	cells = []string{s.Title}
	for i := range ceilingWeights {
		cells = append(cells, fmt.Sprintf("%s · %s", most[i], least[i]))
	}
	rows.fusion = "| " + strings.Join(cells, " | ") + " |"
	return rows, nil
}

// bestFusedRank is the answer page's rank (0 past ten) under RRF k 60 of
// fulltext (n pages, the answer at rank, 0 when not matched) and a dense
// ranking that puts it first and gives its other places to pages fulltext
// does not rank: it scores 1/(60 + rank) + w/61, fulltext's page at k
// 1/(60 + k).
func bestFusedRank(n, rank int, w float64) int {
	a := w / 61
	if rank > 0 {
		a += 1 / float64(60+rank)
	}
	above := 0
	for k := 1; k <= n; k++ {
		if k != rank && 1/float64(60+k) >= a {
			above++
		}
	}
	if above >= 10 {
		return 0
	}
	return above + 1
}

// rankIn10 is v's 1-based rank in s, 0 when it is not in the first ten.
func rankIn10(s []int, v int) int {
	if i := indexOf(s, v); i >= 0 && i < 10 {
		return i + 1
	}
	return 0
}

func indexOf(s []int, v int) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

func without(s []int, v int) []int {
	var out []int
	for _, x := range s {
		if x != v {
			out = append(out, x)
		}
	}
	return out
}
