package main

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"

	"github.com/agentready/caddy-agentready/bench/score"
)

// wordPage is a page scored with the word metric.
type wordPage struct {
	name     string
	path     string
	html     []byte
	expected score.Bag
}

// loadReadability reads go-readability's test pages that have an
// expected.html.
func loadReadability() ([]wordPage, error) {
	dir, err := moduleDir("codeberg.org/readeck/go-readability/v2")
	if err != nil {
		return nil, err
	}
	srcs, _ := filepath.Glob(filepath.Join(dir, "test-pages", "*", "source.html"))
	sort.Strings(srcs)
	var pages []wordPage
	for i, src := range srcs {
		if !pick(i, filepath.Base(filepath.Dir(src))) {
			continue
		}
		exp, err := os.ReadFile(filepath.Join(filepath.Dir(src), "expected.html"))
		if err != nil {
			continue
		}
		body, err := os.ReadFile(src)
		if err != nil {
			return nil, err
		}
		text, err := score.HTMLText(bytes.NewReader(exp))
		if err != nil {
			return nil, err
		}
		pages = append(pages, wordPage{filepath.Base(filepath.Dir(src)), src, body, score.Words(score.DropURLs(text))})
	}
	return pages, nil
}

func runWords(tools []tool, misses int, list string) error {
	pages, err := loadReadability()
	if err != nil {
		return err
	}
	if list != "" {
		return listPages(list, "readability", pages, func(p wordPage) string { return p.path })
	}
	u, _ := url.Parse("http://fakehost/test/page.html")
	inputs, names := make([][]byte, len(pages)), make([]string, len(pages))
	total := 0
	for i, p := range pages {
		inputs[i], names[i] = p.html, p.name
		total += len(p.html)
	}
	fmt.Printf("## go-readability test pages: %d pages, %.1f MB (word metric)\n\n", len(pages), float64(total)/1e6)
	fmt.Println("| tool | median recall | median precision | median F1 | p10 F1 | MB/s (CPU, 1 core) | max heap per conversion |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	for _, t := range tools {
		outs, _, _, mbps := convertAll(t, "readability", names, inputs, func(int) *url.URL { return u })
		var rec, prec, f1 []float64
		type worst struct {
			name string
			r    score.Result
		}
		var ws []worst
		for i, p := range pages {
			r := score.Compare(p.expected, score.Words(score.MarkdownText(outs[i])))
			rec, prec, f1 = append(rec, r.Recall), append(prec, r.Precision), append(f1, r.F1)
			ws = append(ws, worst{p.name, r})
		}
		if t.name == "agent_ready" && misses > 0 {
			sort.Slice(ws, func(i, j int) bool { return ws[i].r.F1 < ws[j].r.F1 })
			for _, w := range ws[:min(misses, len(ws))] {
				fmt.Fprintf(os.Stderr, "%s F1 %.3f R %.3f P %.3f\n", w.name, w.r.F1, w.r.Recall, w.r.Precision)
			}
		}
		heap := heapText(t, inputs, func(int) *url.URL { return u })
		fmt.Printf("| %s | %.3f | %.3f | %.3f | %.3f | %.1f | %s |\n", t.name,
			quantile(rec, 0.5), quantile(prec, 0.5), quantile(f1, 0.5), quantile(f1, 0.1), mbps, heap)
	}
	fmt.Println()
	return nil
}

// quantile returns the q-quantile of xs (nearest rank).
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := int(q * float64(len(s)-1))
	return s[i]
}
