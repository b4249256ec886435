package fulltext

import (
	"math"
	"slices"
)

// BM25F parameters: k1 saturates the weighted term frequency; weight and b
// are each field's weight and length normalisation. k1 and b are standard
// values (Robertson and Zaragoza, "The Probabilistic Relevance Framework",
// 2009). The title's weight is the lowest of a plateau: 5, 6 and 8 score
// the same on git-doc and the handbook and within 0.004 MRR on the Python
// docs, all better than 3 and 4 on the Python docs and git-doc and equal on
// the handbook (docs/benchmarks.md).
const k1 = 1.2

var (
	fieldWeight = [numFields]float64{Title: 5, Headings: 1.5, Path: 2, Body: 1}
	fieldB      = [numFields]float64{Title: 0.5, Headings: 0.5, Path: 0.5, Body: 0.75}
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
	scores := x.score(qt)
	top := topDocs(scores, limit)
	pos := x.candidatePositions(qt, top)
	out := make([]Hit, len(top))
	for i, d := range top {
		out[i] = Hit{Doc: d, Score: scores[d]}
		out[i].Heading, out[i].Snippet = x.snippet(d, qt, pos[i])
	}
	return out
}

// score is each document's fused score for the query terms (fusion.go):
// BM25F's ranking and the language model's merged, 0 for a document that
// holds none of them.
func (x *Index) score(qt []queryTerm) []float64 {
	bm := make([]float64, len(x.docs))
	matched := make([]bool, len(x.docs))
	lm := newLMScorer(x)
	var docs []int
	var tf []float64
	for _, t := range qt {
		docs, tf = docs[:0], tf[:0]
		cf := 0.0
		eachEntry(x.postings[t.id], func(e *entry) bool {
			bm[e.doc] += t.idf * x.bm25f(e)
			matched[e.doc] = true
			w := weightedTF(&e.tf)
			docs, tf = append(docs, e.doc), append(tf, w)
			cf += w
			return true
		})
		lm.add(docs, tf, cf)
	}
	return fuse(bm, lm.finish(matched), matched)
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

// topDocs returns the n documents of highest positive score, best first
// (the first indexed among equals).
func topDocs(scores []float64, n int) []int {
	var docs []int
	for d, s := range scores {
		if s > 0 {
			docs = append(docs, d)
		}
	}
	byScore(docs, scores)
	return docs[:min(n, len(docs))]
}

// byScore sorts docs by score, highest first, the first indexed among
// equals.
func byScore(docs []int, scores []float64) {
	slices.SortFunc(docs, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return a - b
	})
}

// candidatePositions decodes the body positions of every query term in
// each of docs, for their snippets: pos[i][term].
func (x *Index) candidatePositions(qt []queryTerm, docs []int) [][][]uint32 {
	slot := make(map[int]int, len(docs))
	for i, d := range docs {
		slot[d] = i
	}
	pos := make([][][]uint32, len(docs))
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
