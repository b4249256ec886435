package main

import (
	"fmt"
	"time"

	"github.com/agentready/caddy-agentready/bench/search/sitecorpus"
	"github.com/agentready/caddy-agentready/fulltext"
)

// offline scores the fulltext ranking on one site without Caddy: each HTML
// file under docs is read as the index reads a fetched page (its title and
// description as the front matter states them, its text by
// fulltext.FromHTML, its URL path) and indexed by fulltext.Build; then the
// questions are asked of fulltext.Search and of the plain BM25 yardstick.
// It takes seconds where the full run takes minutes, for comparing
// rankings; its ranks match the through-Caddy ones within a question or
// two (the crawl finds a few pages fewer, and Caddy's pages are its
// canonical URLs).
func offline(s site, docs, qfile string, verbose bool) (result, error) {
	res := result{site: s}
	qs, err := sitecorpus.ReadQuestions(qfile)
	if err != nil {
		return res, err
	}
	start := time.Now()
	in, err := sitecorpus.ReadSite(docs, s.Prefix)
	if err != nil {
		return res, err
	}
	read := time.Since(start)
	start = time.Now()
	x := fulltext.Build(in, "en")
	res.ready = time.Since(start)
	res.pages, res.index = len(in), x.Size()
	fmt.Printf("== %s (offline): %d pages read in %.1fs, indexed in %.2fs, index %d bytes\n", s.Name, len(in), read.Seconds(), res.ready.Seconds(), res.index)
	bl, err := sitecorpus.NewBaseline(docs)
	if err != nil {
		return res, fmt.Errorf("baseline: %v", err)
	}
	for _, w := range []way{
		{"baseline BM25", &res.base, func(q string) ([]string, error) { return bl.Search(q, 10, s.Prefix), nil }},
		{"fulltext", &res.ask, func(q string) ([]string, error) {
			var out []string
			for _, h := range x.Search(q, 10) {
				out = append(out, in[h.Doc].Path)
			}
			return out, nil
		}},
	} {
		if err := w.score(qs, s.Prefix, verbose); err != nil {
			return res, err
		}
	}
	return res, nil
}

// printOfflineTable prints the summary of an offline run.
func printOfflineTable(rs []result) {
	fmt.Println()
	fmt.Println("recall@5 / MRR@10 per site, offline (fulltext straight from the HTML files, no Caddy)")
	fmt.Println()
	fmt.Println("| site | pages | full-text index MB | fulltext.Build | baseline | fulltext |")
	fmt.Println("|---|---:|---:|---:|---|---|")
	for _, r := range rs {
		fmt.Printf("| %s | %d | %.1f | %.2f s | %s | %s |\n", r.site.Title, r.pages, float64(r.index)/1e6, r.ready.Seconds(), r.base, r.ask)
	}
}
