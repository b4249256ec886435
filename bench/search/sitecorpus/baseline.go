package sitecorpus

import (
	"bytes"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// Baseline is plain BM25 (k1 1.2, b 0.75, no stemming, no stop words, no
// fields, no tuning) over the full text of each HTML file of a site: every
// text node outside script and style, title included. It is the yardstick
// the issue sets: a search that does worse than this on a site nobody
// tuned on has a ranking fitted to another site.
type Baseline struct {
	paths    []string        // URL path of each page
	lengths  []float64       // tokens per page
	postings map[string][]tf // term → pages that hold it
	avg      float64
}

type tf struct {
	page  int
	count float64
}

// NewBaseline reads every .html file under root.
func NewBaseline(root string) (*Baseline, error) {
	b := &Baseline{postings: map[string][]tf{}}
	err := EachHTML(root, func(rel string, raw []byte) error {
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

// EachHTML calls f with the path under root (from "/") and the contents of
// every .html file under root, in lexical order.
func EachHTML(root string, f func(rel string, raw []byte) error) error {
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

// Search returns the paths of the best n pages for q, under prefix.
func (b *Baseline) Search(q string, n int, prefix string) []string {
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

// pageText is the text of every text node of an HTML page outside script,
// style and template, space-separated.
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

// plainWords lower-cases s and splits it into runs of letters and digits.
func plainWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
