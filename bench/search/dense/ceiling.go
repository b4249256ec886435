package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agentready/caddy-agentready/fulltext"
)

// ceilingDepths are the depths of fulltext's ranking whose recall bounds a
// reranker of that many pages.
var ceilingDepths = []int{5, 10, 20, 50, 100}

// ceiling prints, per site, the share of questions whose answer page is
// within fulltext's first n pages for each n of ceilingDepths: the recall@5
// that a perfect reranker of fulltext's first n pages would reach (design
// (c) cannot place a page it is not given). It needs no model.
func ceiling(s site, root, questions string) (string, error) {
	qs, err := readQuestions(filepath.Join(questions, s.questions))
	if err != nil {
		return "", err
	}
	docs, err := readSite(root, s.prefix)
	if err != nil {
		return "", err
	}
	x := fulltext.Build(docs, "en")
	within := make([]int, len(ceilingDepths))
	var deep []string
	for _, q := range qs {
		rank := 0
		for i, h := range x.Search(q.text, len(docs)) {
			if docs[h.Doc].Path == s.prefix+q.answer {
				rank = i + 1
				break
			}
		}
		for i, n := range ceilingDepths {
			if rank > 0 && rank <= n {
				within[i]++
			}
		}
		if rank == 0 || rank > 5 {
			deep = append(deep, fmt.Sprintf("%s %s %d", q.id, q.answer, rank))
		}
	}
	cells := []string{s.title}
	for _, w := range within {
		cells = append(cells, fmt.Sprintf("%.2f (%d/%d)", float64(w)/float64(len(qs)), w, len(qs)))
	}
	cells = append(cells, strings.Join(deep, ", "))
	return "| " + strings.Join(cells, " | ") + " |", nil
}
