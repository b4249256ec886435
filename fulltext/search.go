package fulltext

import (
	"math"
	"slices"
)

// BM25F parameters: k1 saturates the weighted term frequency; weight and b
// are each field's weight and length normalisation. Standard values
// (Robertson and Zaragoza, "The Probabilistic Relevance Framework", 2009),
// not fitted to any site.
const k1 = 1.2

var (
	fieldWeight = [numFields]float64{Title: 3, Lead: 2, Headings: 1.5, Path: 2, Body: 1}
	fieldB      = [numFields]float64{Title: 0.5, Lead: 0.5, Headings: 0.5, Path: 0.5, Body: 0.75}
)

// Proximity: the candidates, the best by BM25F, get a boost for pairs of
// query terms within proximityWindow positions of each other in the body
// (see Index.proximity), weighted by proximityWeight against BM25F.
const (
	proximityWindow = 8
	proximityWeight = 0.5
	candidatesMin   = 50
)

// Hit is one search result.
type Hit struct {
	// Doc is the document's position in the slice given to Build.
	Doc int
	// Score is the relevance, higher is better; comparable within one
	// search only.
	Score float64
	// Heading is the heading of the section with the best match, "" when
	// the best match comes before the first heading or only in the title
	// or path.
	Heading string
	// Snippet is about SnippetBytes of text around the best match, on one
	// line, with "…" where it was cut.
	Snippet string
}

// Search returns up to limit documents for q, best first.
func (x *Index) Search(q string, limit int) []Hit {
	if x == nil || x.an == nil || limit <= 0 || len(x.docs) == 0 {
		return nil
	}
	qt := x.resolve(x.an.queryTerms(q))
	if len(qt) == 0 {
		return nil
	}
	scores := make([]float64, len(x.docs))
	for _, t := range qt {
		eachEntry(x.postings[t.id], func(e *entry) bool {
			scores[e.doc] += t.idf * x.bm25f(e)
			return true
		})
	}
	cands := topDocs(scores, max(candidatesMin, 5*limit))
	pos := x.candidatePositions(qt, cands)
	hits := make([]Hit, len(cands))
	for i, d := range cands {
		hits[i] = Hit{Doc: d, Score: scores[d] + x.proximity(d, qt, pos[i])}
	}
	order := make([]int, len(hits))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if hits[a].Score != hits[b].Score {
			if hits[a].Score > hits[b].Score {
				return -1
			}
			return 1
		}
		return hits[a].Doc - hits[b].Doc
	})
	out := make([]Hit, 0, min(limit, len(order)))
	for _, i := range order[:min(limit, len(order))] {
		h := hits[i]
		h.Heading, h.Snippet = x.snippet(h.Doc, qt, pos[i])
		out = append(out, h)
	}
	return out
}

// queryTerm is a query term found in the index.
type queryTerm struct {
	id  int
	idf float64
}

// resolve looks the terms up and weighs them by inverse document frequency
// (the BM25 form that stays positive).
func (x *Index) resolve(terms []string) []queryTerm {
	var out []queryTerm
	n := float64(len(x.docs))
	for _, t := range terms {
		if id := x.lookup(t); id >= 0 {
			df := float64(x.df[id])
			out = append(out, queryTerm{id: id, idf: math.Log(1 + (n-df+0.5)/(df+0.5))})
		}
	}
	return out
}

// bm25f is the saturated, length-normalised, field-weighted frequency of
// one term in one document (without the idf).
func (x *Index) bm25f(e *entry) float64 {
	tf := 0.0
	lens := &x.lens[e.doc]
	for f := range numFields {
		if e.tf[f] == 0 {
			continue
		}
		norm := 1 - fieldB[f]
		if x.avg[f] > 0 {
			norm += fieldB[f] * float64(lens[f]) / x.avg[f]
		}
		tf += fieldWeight[f] * float64(e.tf[f]) / norm
	}
	return tf * (k1 + 1) / (tf + k1)
}

// topDocs returns the n documents of highest positive score, in no order.
func topDocs(scores []float64, n int) []int {
	var docs []int
	for d, s := range scores {
		if s > 0 {
			docs = append(docs, d)
		}
	}
	if len(docs) > n {
		slices.SortFunc(docs, func(a, b int) int {
			switch {
			case scores[a] > scores[b]:
				return -1
			case scores[a] < scores[b]:
				return 1
			}
			return a - b
		})
		docs = docs[:n]
	}
	return docs
}

// candidatePositions decodes the body positions of every query term in
// every candidate: pos[candidate][term].
func (x *Index) candidatePositions(qt []queryTerm, cands []int) [][][]uint32 {
	slot := make(map[int]int, len(cands))
	for i, d := range cands {
		slot[d] = i
	}
	pos := make([][][]uint32, len(cands))
	for i := range pos {
		pos[i] = make([][]uint32, len(qt))
	}
	for j, t := range qt {
		eachEntry(x.postings[t.id], func(e *entry) bool {
			if i, ok := slot[e.doc]; ok {
				pos[i][j] = positions(nil, e.pos)
			}
			return true
		})
	}
	return pos
}

// proximity is the boost for query terms close together in document d
// (BM25TP, Rasolofo and Savoy 2003): for each pair of terms, each
// occurrence of the first within proximityWindow of the second adds 1/d²,
// and the sum is saturated and length-normalised as a term frequency is,
// weighted by the rarer term's idf.
func (x *Index) proximity(d int, qt []queryTerm, pos [][]uint32) float64 {
	norm := 1 - fieldB[Body]
	if x.avg[Body] > 0 {
		norm += fieldB[Body] * float64(x.lens[d][Body]) / x.avg[Body]
	}
	boost := 0.0
	for i := range qt {
		for j := i + 1; j < len(qt); j++ {
			acc := closeness(pos[i], pos[j])
			if acc > 0 {
				boost += min(qt[i].idf, qt[j].idf) * acc * (k1 + 1) / (acc + k1*norm)
			}
		}
	}
	return proximityWeight * boost
}

// closeness sums 1/d² over the occurrences in a of their distance d to the
// nearest occurrence in b, for d ≤ proximityWindow (both sorted).
func closeness(a, b []uint32) float64 {
	acc := 0.0
	j := 0
	for _, p := range a {
		for j+1 < len(b) && b[j+1] <= p {
			j++
		}
		best := proximityWindow + 1
		for k := j; k < len(b) && k <= j+1; k++ {
			d := int(p) - int(b[k])
			if d < 0 {
				d = -d
			}
			if d > 0 && d < best {
				best = d
			}
		}
		if best <= proximityWindow {
			acc += 1 / float64(best*best)
		}
	}
	return acc
}
