package main

import (
	"fmt"

	"github.com/agentready/caddy-agentready/bench/search/sitecorpus"
)

// question is a question of a site and its answer page (read by
// sitecorpus, as bench/search reads it).
type question = sitecorpus.Question

// site is one documentation site: where its HTML lives and its questions.
type site struct {
	name, title, questions string
	glob                   string // the HTML root; the last match is used
	prefix                 string // URL path the files are served under
}

var sites = []site{
	{name: "python", title: "Python docs (Sphinx)", questions: "questions.tsv", glob: "/usr/share/doc/python3*-doc/html"},
	{name: "git", title: "git-doc (AsciiDoc)", questions: "questions-git.tsv", glob: "/usr/share/doc/git-doc"},
	{name: "handbook", title: "Debian handbook (DocBook)", questions: "questions-handbook.tsv", glob: "/usr/share/doc/debian-handbook/html/en-US", prefix: "/browse/stable"},
	{name: "postgres", title: "PostgreSQL 15 docs (DocBook)", questions: "questions-postgres.tsv", glob: "/usr/share/doc/postgresql-doc-1*/html"},
}

// score is recall@5 and MRR@10 of one design on one site.
type score struct {
	hits, n int
	rr      float64
}

// add counts one question whose answer came at rank (0: not in the first
// ten).
func (s *score) add(rank int) {
	s.n++
	if rank > 0 && rank <= 5 {
		s.hits++
	}
	if rank > 0 && rank <= 10 {
		s.rr += 1 / float64(rank)
	}
}

func (s score) String() string {
	if s.n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f / %.3f", float64(s.hits)/float64(s.n), s.rr/float64(s.n))
}
