package main

import (
	"fmt"
	"sort"

	"github.com/agentready/caddy-agentready/fulltext"
)

// ranker returns a site's pages for a question, best first.
type ranker func(q string, qv []float32) []int

// design is one ranking to score, with its name in the table.
type design struct {
	name string
	rank ranker
}

// denseScores is each page's best cosine between the question and its
// chunks (−2 for a page without chunks).
func denseScores(qv []float32, cs []chunk, vecs [][]float32, pages int) []float32 {
	s := make([]float32, pages)
	for i := range s {
		s[i] = -2
	}
	for i, c := range cs {
		if vecs[i] == nil {
			continue
		}
		s[c.doc] = max(s[c.doc], dot(qv, vecs[i]))
	}
	return s
}

// byDesc returns pages ordered by score, best first (ties by page order).
func byDesc(pages []int, score func(int) float64) []int {
	sort.SliceStable(pages, func(i, j int) bool { return score(pages[i]) > score(pages[j]) })
	return pages
}

// designs are the rankings of the experiment on one site: fulltext as it
// ships, the dense ranking alone, the two fused by reciprocal rank fusion
// (Cormack et al. 2009, k 60) at several weights of the dense ranking, and
// fulltext's first n pages reordered by the dense score.
func designs(x *fulltext.Index, cs []chunk, vecs [][]float32) []design {
	pages := x.Len()
	ft := func(q string, limit int) []int {
		var out []int
		for _, h := range x.Search(q, limit) {
			out = append(out, h.Doc)
		}
		return out
	}
	dense := func(qv []float32) []int {
		s := denseScores(qv, cs, vecs, pages)
		all := make([]int, pages)
		for i := range all {
			all[i] = i
		}
		return byDesc(all, func(p int) float64 { return float64(s[p]) })
	}
	ds := []design{
		{"fulltext (kept)", func(q string, _ []float32) []int { return ft(q, 10) }},
		{"(a) dense alone, max over a page's chunks", func(_ string, qv []float32) []int { return dense(qv) }},
	}
	for _, w := range []float64{0.3, 0.5, 0.8, 1} {
		ds = append(ds, design{fmt.Sprintf("(b) RRF k 60, fulltext 1 + dense %.1f", w), func(q string, qv []float32) []int {
			return rrf(ft(q, pages), dense(qv), w)
		}})
	}
	for _, n := range []int{20, 50} {
		ds = append(ds, design{fmt.Sprintf("(c) dense rerank of fulltext's first %d", n), func(q string, qv []float32) []int {
			top := ft(q, n)
			s := denseScores(qv, cs, vecs, pages)
			return byDesc(top, func(p int) float64 { return float64(s[p]) })
		}})
		ds = append(ds, design{fmt.Sprintf("(c') RRF within fulltext's first %d, dense 1", n), func(q string, qv []float32) []int {
			top := ft(q, n)
			s := denseScores(qv, cs, vecs, pages)
			return rrf(top, byDesc(append([]int(nil), top...), func(p int) float64 { return float64(s[p]) }), 1)
		}})
	}
	return ds
}

// rrf merges two rankings: a page scores 1/(60 + rank in a) + w/(60 + rank
// in b), ranks from 1, nothing for a ranking it is absent from.
func rrf(a, b []int, w float64) []int {
	const k = 60
	score := map[int]float64{}
	var order []int
	for r, p := range a {
		if _, ok := score[p]; !ok {
			order = append(order, p)
		}
		score[p] += 1 / float64(k+r+1)
	}
	for r, p := range b {
		if _, ok := score[p]; !ok {
			order = append(order, p)
		}
		score[p] += w / float64(k+r+1)
	}
	return byDesc(order, func(p int) float64 { return score[p] })
}
