package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/net/html"

	"github.com/agentready/caddy-agentready/frontmatter"
	"github.com/agentready/caddy-agentready/fulltext"
)

// What follows repeats bench/search's offline harness (its site list,
// question files, page reading and plain BM25 yardstick), which lives in a
// main package and cannot be imported; the two must read the same pages the
// same way for their numbers to be comparable.

type question struct {
	id, text, answer string
}

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

func readQuestions(name string) ([]question, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []question
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 3 {
			return nil, fmt.Errorf("%s:%d: want id<TAB>question<TAB>path", name, n)
		}
		out = append(out, question{parts[0], parts[1], parts[2]})
	}
	return out, sc.Err()
}

// readSite reads every HTML file under root as the index reads a fetched
// page: title and description from the front matter, text by
// fulltext.FromHTML, its URL path.
func readSite(root, prefix string) ([]fulltext.Document, error) {
	var out []fulltext.Document
	err := eachHTML(root, func(rel string, raw []byte) error {
		path := prefix + rel
		node, err := html.Parse(bytes.NewReader(raw))
		if err != nil {
			return err
		}
		meta := frontmatter.Extract(node, &url.URL{Scheme: "http", Host: "localhost", Path: path}, http.Header{}, "en")
		_, sections, err := fulltext.FromHTML(bytes.NewReader(raw))
		if err != nil {
			return err
		}
		out = append(out, fulltext.Document{Title: meta.Title, Description: meta.Description, Path: path, Sections: sections})
		return nil
	})
	return out, err
}

// eachHTML calls f with the path under root (from "/") and the contents of
// every .html file under root, in lexical order.
func eachHTML(root string, f func(rel string, raw []byte) error) error {
	root = filepath.Clean(root)
	return filepath.WalkDir(root+"/", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return f(strings.TrimPrefix(p, root), raw)
	})
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

// baseline is plain BM25 (k1 1.2, b 0.75, no stemming, no fields) over the
// full text of each HTML file, the yardstick of bench/search.
type baseline struct {
	paths    []string
	lengths  []float64
	postings map[string][]tf
	avg      float64
}

type tf struct {
	page  int
	count float64
}

func newBaseline(root string) (*baseline, error) {
	b := &baseline{postings: map[string][]tf{}}
	err := eachHTML(root, func(rel string, raw []byte) error {
		counts := map[string]float64{}
		n := 0
		for _, w := range plainWords(pageText(raw)) {
			counts[w]++
			n++
		}
		page := len(b.paths)
		b.paths = append(b.paths, rel)
		b.lengths = append(b.lengths, float64(n))
		for w, c := range counts {
			b.postings[w] = append(b.postings[w], tf{page, c})
		}
		b.avg += float64(n)
		return nil
	})
	if len(b.paths) > 0 {
		b.avg /= float64(len(b.paths))
	}
	return b, err
}

// search returns the paths of the best n pages for q, under prefix.
func (b *baseline) search(q string, n int, prefix string) []string {
	const k1, bb = 1.2, 0.75
	scores := map[int]float64{}
	seen := map[string]bool{}
	for _, w := range plainWords(q) {
		if seen[w] {
			continue
		}
		seen[w] = true
		ps := b.postings[w]
		df := float64(len(ps))
		idf := math.Log(1 + (float64(len(b.paths))-df+0.5)/(df+0.5))
		for _, p := range ps {
			norm := k1 * (1 - bb + bb*b.lengths[p.page]/b.avg)
			scores[p.page] += idf * p.count * (k1 + 1) / (p.count + norm)
		}
	}
	pages := make([]int, 0, len(scores))
	for p := range scores {
		pages = append(pages, p)
	}
	sort.Slice(pages, func(i, j int) bool {
		if scores[pages[i]] != scores[pages[j]] {
			return scores[pages[i]] > scores[pages[j]]
		}
		return pages[i] < pages[j]
	})
	var out []string
	for _, p := range pages[:min(n, len(pages))] {
		out = append(out, prefix+b.paths[p])
	}
	return out
}

func pageText(raw []byte) string {
	z := html.NewTokenizer(bytes.NewReader(raw))
	var sb strings.Builder
	skip := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return sb.String()
		case html.StartTagToken:
			if name, _ := z.TagName(); isHidden(string(name)) {
				skip++
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); isHidden(string(name)) && skip > 0 {
				skip--
			}
		case html.TextToken:
			if skip == 0 {
				sb.Write(z.Text())
				sb.WriteByte(' ')
			}
		}
	}
}

func isHidden(tag string) bool { return tag == "script" || tag == "style" || tag == "template" }

func plainWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
