package sitecorpus

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Site is one documentation site of the benchmark: where its HTML lives
// and its question file.
type Site struct {
	Name, Title, Questions string
	Glob                   string // the HTML root; the last match is used (Root)
	// Origin and Prefix serve a site whose pages name their public home as
	// canonical (the handbook: https://debian-handbook.info/browse/stable/…)
	// the way that home does: site.origin set to it and the files under
	// Prefix, so the canonicals are the site's own URLs.
	Origin, Prefix string
	// MaxPages, when set, raises connect.max_pages above its default (1000)
	// for a site with more pages.
	MaxPages int
}

// Sites are the three development sites and the held-out one, in the
// order the tables list them.
var Sites = []Site{
	{Name: "python", Title: "Python docs (Sphinx)", Questions: "questions.tsv", Glob: "/usr/share/doc/python3*-doc/html"},
	{Name: "git", Title: "git-doc (AsciiDoc)", Questions: "questions-git.tsv", Glob: "/usr/share/doc/git-doc"},
	{Name: "handbook", Title: "Debian handbook (DocBook)", Questions: "questions-handbook.tsv", Glob: "/usr/share/doc/debian-handbook/html/en-US",
		Origin: "https://debian-handbook.info", Prefix: "/browse/stable"},
	{Name: "postgres", Title: "PostgreSQL 15 docs (DocBook)", Questions: "questions-postgres.tsv", Glob: "/usr/share/doc/postgresql-doc-1*/html", MaxPages: 2000},
}

// Select returns the Sites named in only (comma-separated), in Sites'
// order.
func Select(only string) []Site {
	names := strings.Split(only, ",")
	var out []Site
	for _, s := range Sites {
		if slices.Contains(names, s.Name) {
			out = append(out, s)
		}
	}
	return out
}

// Root is the site's HTML root on this machine: the last match of Glob;
// ok is false when its package is not installed.
func (s Site) Root() (root string, ok bool) {
	found, _ := filepath.Glob(s.Glob)
	if len(found) == 0 {
		return "", false
	}
	return found[len(found)-1], true
}

// Score is recall@5 and MRR@10 of one way of asking on one site.
type Score struct {
	hits, n int
	rr      float64
}

// Add counts one question whose answer page came at rank (0: not found;
// past the tenth counts as not found for MRR@10).
func (s *Score) Add(rank int) {
	s.n++
	if rank > 0 && rank <= 5 {
		s.hits++
	}
	if rank > 0 && rank <= 10 {
		s.rr += 1 / float64(rank)
	}
}

// Counts are the questions answered in the first five and the questions
// asked.
func (s Score) Counts() (hits, n int) { return s.hits, s.n }

// Recall is recall@5.
func (s Score) Recall() float64 { return float64(s.hits) / float64(s.n) }

// MRR is the mean reciprocal rank over the first ten.
func (s Score) MRR() float64 { return s.rr / float64(s.n) }

// String is "recall@5 / MRR@10", or "–" when no question was asked.
func (s Score) String() string {
	if s.n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f / %.3f", s.Recall(), s.MRR())
}
