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
// chunks (−2 for a page without chunks); firstOnly scores only each
// page's first chunk (its title, first heading and first words).
func denseScores(qv []float32, cs []chunk, vecs [][]float32, pages int, firstOnly bool) []float32 {
	s := make([]float32, pages)
	for i := range s {
		s[i] = -2
	}
	for i, c := range cs {
		if vecs[i] == nil || (firstOnly && i > 0 && cs[i-1].doc == c.doc) {
			continue
		}
		s[c.doc] = max(s[c.doc], dot(qv, vecs[i]))
	}
	return s
}

// rrfWeights are the dense ranking's weights in the fusion (b).
var rrfWeights = []float64{0.1, 0.2, 0.3, 0.5, 0.8, 1}

// rerankDepths are the numbers of fulltext's first pages design (c)
// reorders.
var rerankDepths = []int{20, 50, 100}

// byDesc returns pages ordered by score, best first (ties by page order).
func byDesc(pages []int, score func(int) float64) []int {
	sort.SliceStable(pages, func(i, j int) bool { return score(pages[i]) > score(pages[j]) })
	return pages
}

// designs are the rankings of the experiment on one site: fulltext as it
// ships, the dense ranking alone, the two fused by reciprocal rank fusion
// (Cormack et al. 2009, k 60) at several weights of the dense ranking
// (rrfWeights), the same two with only each page's first chunk, and
// fulltext's first n pages reordered by the dense score (rerankDepths).
func designs(x *fulltext.Index, cs []chunk, vecs [][]float32) []design {
	pages := x.Len()
	ft := func(q string, limit int) []int {
		var out []int
		for _, h := range x.Search(q, limit) {
			out = append(out, h.Doc)
		}
		return out
	}
	dense := func(qv []float32, firstOnly bool) []int {
		s := denseScores(qv, cs, vecs, pages, firstOnly)
		all := make([]int, pages)
		for i := range all {
			all[i] = i
		}
		return byDesc(all, func(p int) float64 { return float64(s[p]) })
	}
	ds := []design{
		{"fulltext (kept)", func(q string, _ []float32) []int { return ft(q, 10) }},
		{"(a) dense alone, max over a page's chunks", func(_ string, qv []float32) []int { return dense(qv, false) }},
		{"(a') dense alone, each page's first chunk only", func(_ string, qv []float32) []int { return dense(qv, true) }},
	}
	for _, w := range rrfWeights {
		ds = append(ds, design{fmt.Sprintf("(b) RRF k 60, fulltext 1 + dense %.1f", w), func(q string, qv []float32) []int {
			return rrf(ft(q, pages), dense(qv, false), w)
		}})
	}
	for _, w := range rrfWeights {
		ds = append(ds, design{fmt.Sprintf("(b') RRF k 60, fulltext 1 + dense on first chunks %.1f", w), func(q string, qv []float32) []int {
			return rrf(ft(q, pages), dense(qv, true), w)
		}})
	}
	for _, n := range rerankDepths {
		ds = append(ds, design{fmt.Sprintf("(c) dense rerank of fulltext's first %d", n), func(q string, qv []float32) []int {
			top := ft(q, n)
			s := denseScores(qv, cs, vecs, pages, false)
			return byDesc(top, func(p int) float64 { return float64(s[p]) })
		}})
		ds = append(ds, design{fmt.Sprintf("(c') RRF within fulltext's first %d, dense 1", n), func(q string, qv []float32) []int {
			top := ft(q, n)
			s := denseScores(qv, cs, vecs, pages, false)
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
