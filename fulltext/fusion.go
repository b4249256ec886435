package fulltext

import "math"

// Language-model scoring and rank fusion. Search ranks the matching pages
// twice, by BM25F and by query likelihood with Dirichlet smoothing (Zhai
// and Lafferty, "A study of smoothing methods for language models applied
// to ad hoc information retrieval", SIGIR 2001) over the same weighted
// fields, and merges the two rankings by weighted reciprocal rank fusion
// (Cormack, Clarke and Büttcher, SIGIR 2009). BM25F saturates a term's
// frequency and normalises each field by its length; the language model
// does neither, and charges a page for its length only once per query.
// Where they agree the page keeps its place; a page one of them ranks
// high and the other low ends between. On the development sites the
// fusion scores at or above BM25F alone on each of them, and the language
// model alone does not (docs/benchmarks.md, session 9).
const (
	// rrfK is the rank offset of reciprocal rank fusion, the value of its
	// paper: a page's share is 1/(rrfK + rank).
	rrfK = 60
	// lmWeight is the language model's share against BM25F's 1: below 1,
	// so that BM25F's order decides between two pages the models rank
	// crosswise by the same distance. 0.8 and 0.9 score the same on the
	// development sites; 1 loses 0.03 MRR on git-doc, 0.7 and 0.5 find a
	// question fewer on the Python docs at the smaller μ tried.
	lmWeight = 0.8
	// muPerMean is the Dirichlet prior μ as a multiple of the mean weighted
	// length of a document, so that it scales with the site's pages: 2 and
	// 3 times the mean (and a fixed 5,000 to 7,000) score within 0.005 MRR
	// on the development sites; once the mean finds a question fewer on the
	// Python docs.
	muPerMean = 2
)

// weightedTF is a term's frequency in a document with each field counted
// fieldWeight times: the document as one bag of words in which a title word
// stands for fieldWeight[Title] body words.
func weightedTF(tf *[numFields]uint32) float64 {
	n := 0.0
	for f := range numFields {
		n += fieldWeight[f] * float64(tf[f])
	}
	return n
}

// lmScorer accumulates the Dirichlet-smoothed query log-likelihood of each
// document, without the terms that are the same for every document.
type lmScorer struct {
	x      *Index
	mu     float64
	total  float64 // weighted length of the collection
	scores []float64
	terms  int
}

func newLMScorer(x *Index) *lmScorer {
	var total float64
	for f := range numFields {
		total += fieldWeight[f] * x.avg[f]
	}
	total *= float64(len(x.docs))
	return &lmScorer{x: x, mu: muPerMean * total / float64(max(len(x.docs), 1)), total: total,
		scores: make([]float64, len(x.docs))}
}

// add scores one query term in the documents of its postings whose
// weighted frequencies are tf (in the postings' order), with cf its
// weighted frequency in the collection.
func (s *lmScorer) add(docs []int, tf []float64, cf float64) {
	p := cf / s.total
	for i, d := range docs {
		s.scores[d] += math.Log1p(tf[i] / (s.mu * p))
	}
	s.terms++
}

// finish adds each matched document's length term, |q|·log(μ/(|d|+μ)),
// and returns the scores; a document that matched nothing stays at 0 and
// out of the ranking.
func (s *lmScorer) finish(matched []bool) []float64 {
	for d, ok := range matched {
		if ok {
			dl := 0.0
			for f := range numFields {
				dl += fieldWeight[f] * float64(s.x.lens[d][f])
			}
			s.scores[d] += float64(s.terms) * math.Log(s.mu/(dl+s.mu))
		}
	}
	return s.scores
}

// ranks is the rank (from 1) of each matched document by score, best
// first, the first indexed among equals; 0 for a document not matched.
func ranks(scores []float64, matched []bool) []int {
	var docs []int
	for d, ok := range matched {
		if ok {
			docs = append(docs, d)
		}
	}
	byScore(docs, scores)
	r := make([]int, len(scores))
	for i, d := range docs {
		r[d] = i + 1
	}
	return r
}

// fuse is the weighted reciprocal rank fusion of the BM25F and the
// language-model scores of the matched documents: 1/(rrfK + BM25F rank) +
// lmWeight/(rrfK + language-model rank).
func fuse(bm25f, lm []float64, matched []bool) []float64 {
	r1, r2 := ranks(bm25f, matched), ranks(lm, matched)
	out := make([]float64, len(bm25f))
	for d, ok := range matched {
		if ok {
			out[d] = 1/float64(rrfK+r1[d]) + lmWeight/float64(rrfK+r2[d])
		}
	}
	return out
}
