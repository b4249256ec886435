package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentready/caddy-agentready/bench/score"
)

// The modern-web corpus (../shared/corpora/modern-web, 999 pages of seven
// kinds with a human-checked articleBody each): bag-of-words precision,
// recall and F1 per page against the articleBody, as its README defines
// them (the Markdown reduced by bench/score's MarkdownText, both sides cut
// into lower-cased runs of letters and digits by score.Words). A page that
// fails to convert scores 0.
//
// The pages are split in two halves by a hash of their id (FNV-1a of the
// id, even: dev, odd: test), fixed so that it does not depend on the order
// or the number of pages run: heuristics are picked and tuned on dev only,
// and both halves are reported.

// modernDir is the corpus's directory (-modern).
var modernDir string

// defaultModernDir is shared/corpora/modern-web beside the directory of
// the repository the command runs in (the one holding bench/extract), or
// "" when the command runs outside it.
func defaultModernDir() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "bench", "extract")); err == nil {
			return filepath.Join(filepath.Dir(d), "shared", "corpora", "modern-web")
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// modernSplit is the split -split runs: dev, test or all.
var modernSplit string

// untitled (-untitled) scores agent_ready's Markdown without its title
// heading: the first `# ` line after the front matter, which STANDARD §6
// puts at the top of every page and the corpus's articleBody leaves out.
// It shows what the heading costs the word metric; every other figure
// the benchmark reports scores the Markdown with its heading, as served.
var untitled bool

// dropTitle removes the first ATX level-one heading line that follows md's
// front matter (blank lines between them allowed), and nothing else.
func dropTitle(md []byte) []byte {
	body := md
	if loc := frontMatterBlock.FindIndex(md); loc != nil {
		body = md[loc[1]:]
	}
	rest := bytes.TrimLeft(body, "\r\n")
	if !bytes.HasPrefix(rest, []byte("# ")) {
		return md
	}
	end := bytes.IndexByte(rest, '\n')
	if end < 0 {
		end = len(rest)
	}
	start := len(md) - len(rest)
	return append(append([]byte{}, md[:start]...), md[start+end:]...)
}

// modernPage is a page of the modern-web corpus.
type modernPage struct {
	id, kind, split string
	url             *url.URL
	path            string
	html            []byte
	expected        score.Bag
}

// splitOf returns the half the page of this id belongs to.
func splitOf(id string) string {
	h := fnv.New32a()
	_, _ = io.WriteString(h, id)
	if h.Sum32()%2 == 0 {
		return "dev"
	}
	return "test"
}

// loadModern reads the ground truth and the pages of the chosen split.
func loadModern(dir, split string) ([]modernPage, error) {
	b, err := os.ReadFile(filepath.Join(dir, "ground-truth.json"))
	if err != nil {
		return nil, fmt.Errorf("the modern-web corpus (-modern DIR): %w", err)
	}
	var truth map[string]struct {
		URL         string `json:"url"`
		PageType    string `json:"page_type"`
		ArticleBody string `json:"articleBody"`
	}
	if err := json.Unmarshal(b, &truth); err != nil {
		return nil, fmt.Errorf("reading ground-truth.json: %w", err)
	}
	ids := make([]string, 0, len(truth))
	for id := range truth {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var pages []modernPage
	for i, id := range ids {
		t := truth[id]
		sp := splitOf(id)
		if split != "all" && split != sp || !pick(i, id) {
			continue
		}
		path := filepath.Join(dir, "html", id+".html.gz")
		f, err := os.Open(path)
		if err != nil {
			continue // 2829 has no HTML upstream
		}
		zr, err := gzip.NewReader(f)
		var body []byte
		if err == nil {
			body, err = io.ReadAll(zr)
		}
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		u, err := url.Parse(t.URL)
		if err != nil || !u.IsAbs() {
			u, _ = url.Parse("https://example.com/" + id)
		}
		kind := t.PageType
		if kind == "blog" {
			kind = "article" // two pages: too few to report alone
		}
		pages = append(pages, modernPage{id, kind, sp, u, path, body, score.Words(t.ArticleBody)})
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("no pages of split %q under %s", split, dir)
	}
	return pages, nil
}

// stats are the medians and the p10 F1 of a set of pages.
type stats struct {
	n, fail            int
	prec, rec, f1, p10 float64
}

func statsOf(rs []score.Result, failed []bool) stats {
	var p, r, f []float64
	s := stats{n: len(rs)}
	for i, x := range rs {
		p, r, f = append(p, x.Precision), append(r, x.Recall), append(f, x.F1)
		if failed[i] {
			s.fail++
		}
	}
	s.prec, s.rec, s.f1, s.p10 = quantile(p, 0.5), quantile(r, 0.5), quantile(f, 0.5), quantile(f, 0.1)
	return s
}

// modernRow is one tool's (or ensemble's) figures on the modern-web pages.
type modernRow struct {
	name    string
	bySplit map[string]stats
	byKind  map[string]stats
	mbps    float64
	heap    string
}

// modernRun is what one tool made of the pages: its Markdown and, for an
// ensemble, the tool it picked per page (else agent_ready's extraction
// path).
type modernRun struct {
	t    tool
	outs [][]byte
	how  []string
	mbps float64
}

// runModern scores every tool, then every ensemble whose tools all ran, on
// the modern-web pages of the chosen split, and prints the tables.
func runModern(tools []tool, misses int, list string) error {
	pages, err := loadModern(modernDir, modernSplit)
	if err != nil {
		return err
	}
	if list != "" {
		return listPages(list, "modern", pages, func(p modernPage) string { return p.path })
	}
	inputs, names := make([][]byte, len(pages)), make([]string, len(pages))
	total := 0
	for i, p := range pages {
		inputs[i], names[i] = p.html, p.id
		total += len(p.html)
	}
	fmt.Printf("## modern-web: %d pages (split %s), %.1f MB (word metric against articleBody)\n\n", len(pages), modernSplit, float64(total)/1e6)
	u := func(i int) *url.URL { return pages[i].url }
	var done []modernRun
	for _, t := range tools {
		outs, how, _, mbps := convertAll(t, "modern", names, inputs, u)
		if untitled && t.name == "agent_ready" {
			for i := range outs {
				if outs[i] != nil {
					outs[i] = dropTitle(outs[i])
				}
			}
		}
		done = append(done, modernRun{t, outs, how, mbps})
	}
	runs := done
	for _, e := range ensembles {
		if r, ok := e.run(done, len(pages)); ok {
			runs = append(runs, r)
		}
	}
	var rows []modernRow
	var scores strings.Builder
	for _, r := range runs {
		rs, failed := scoreModern(pages, r.outs)
		rw := modernRowOf(r, pages, rs, failed)
		if !r.t.peer {
			rw.heap = maxAlloc(r.t, inputs, u)
		}
		rows = append(rows, rw)
		for i, p := range pages {
			fmt.Fprintf(&scores, "%s\t%s\t%s\t%s\t%.3f\t%.3f\t%.3f\t%s\n", p.id, p.split, p.kind, r.t.name, rs[i].Precision, rs[i].Recall, rs[i].F1, r.how[i])
		}
		if r.t.name == "agent_ready" {
			modernMisses(pages, rs, failed, r.how, r.outs, misses)
		}
	}
	printModern(rows, splitsOf(pages), kindsOf(pages))
	if scoresFile != "" {
		return os.WriteFile(scoresFile, []byte(scores.String()), 0o644)
	}
	return nil
}

// scoreModern scores each page's Markdown against its articleBody; a page
// with no Markdown or no words failed and scores 0.
func scoreModern(pages []modernPage, outs [][]byte) (rs []score.Result, failed []bool) {
	rs, failed = make([]score.Result, len(pages)), make([]bool, len(pages))
	for i, p := range pages {
		words := score.Words(score.MarkdownText(outs[i]))
		failed[i] = outs[i] == nil || words.Size() == 0
		rs[i] = score.Compare(p.expected, words)
		if failed[i] {
			rs[i] = score.Result{Expected: p.expected.Size()}
		}
	}
	return rs, failed
}

// modernRowOf groups a run's page scores by split (and "all" when there
// are two) and by kind.
func modernRowOf(r modernRun, pages []modernPage, rs []score.Result, failed []bool) modernRow {
	rw := modernRow{name: r.t.name, bySplit: map[string]stats{}, byKind: map[string]stats{}, mbps: r.mbps}
	group := func(keep func(modernPage) bool) stats {
		var sub []score.Result
		var f []bool
		for i, p := range pages {
			if keep(p) {
				sub, f = append(sub, rs[i]), append(f, failed[i])
			}
		}
		return statsOf(sub, f)
	}
	for _, s := range splitsOf(pages) {
		rw.bySplit[s] = group(func(p modernPage) bool { return s == "all" || p.split == s })
	}
	for _, k := range kindsOf(pages) {
		rw.byKind[k] = group(func(p modernPage) bool { return p.kind == k })
	}
	return rw
}

// splitsOf returns the splits the pages belong to, in order, and "all"
// after them when there are two.
func splitsOf(pages []modernPage) []string {
	splits := map[string]bool{}
	for _, p := range pages {
		splits[p.split] = true
	}
	list := sortedKeys(splits)
	if len(list) > 1 {
		list = append(list, "all")
	}
	return list
}

// kindsOf returns the page kinds, in order.
func kindsOf(pages []modernPage) []string {
	kinds := map[string]bool{}
	for _, p := range pages {
		kinds[p.kind] = true
	}
	return sortedKeys(kinds)
}

// printModern prints the table by split, the table by kind and each
// tool's heap bound.
func printModern(rows []modernRow, splitList, kindList []string) {
	fmt.Println("| tool | split | pages | median precision | median recall | median F1 | p10 F1 | failures | MB/s (CPU, 1 core) |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		for _, s := range splitList {
			st := r.bySplit[s]
			fmt.Printf("| %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %d | %.1f |\n", r.name, s, st.n, st.prec, st.rec, st.f1, st.p10, st.fail, r.mbps)
		}
	}
	fmt.Println()
	fmt.Println("Per kind (median precision / recall / F1, p10 F1, failures):")
	fmt.Println()
	head, sep := "| tool |", "|---|"
	for _, k := range kindList {
		head += fmt.Sprintf(" %s (%d) |", k, rows[0].byKind[k].n)
		sep += "---|"
	}
	fmt.Println(head)
	fmt.Println(sep)
	for _, r := range rows {
		line := "| " + r.name + " |"
		for _, k := range kindList {
			st := r.byKind[k]
			line += fmt.Sprintf(" %.3f / %.3f / **%.3f**, %.3f, %d |", st.prec, st.rec, st.f1, st.p10, st.fail)
		}
		fmt.Println(line)
	}
	fmt.Println()
	for _, r := range rows {
		if r.heap != "" {
			fmt.Printf("- heap per conversion, %s: %s\n", r.name, r.heap)
		}
	}
	fmt.Println()
}

// scoresFile is where -scores writes every tool's score of every page
// (id, split, kind, tool, precision, recall, F1, extraction path; TSV).
var scoresFile string

// An ensemble picks, per page, one of the outputs of the tools it names;
// its MB/s is that of running them all one after the other. Its rows are
// made from the outputs the tools' own rows made, so -tools must name
// them all.
type ensemble struct {
	name  string
	tools []string
	pick  func(outs [][]byte) int
}

// ensembles are the designs compared with the tools alone (-tools must
// include ours, readability and trafilatura).
var ensembles = []ensemble{
	{"vote(agent_ready, readability, trafilatura)", []string{"agent_ready", "readability+h2m", "trafilatura+h2m"}, pickByAgreement},
	{"trafilatura, agent_ready when it disagrees", []string{"trafilatura+h2m", "agent_ready"}, pickFirstUnlessDisagrees},
}

// run picks, per page, among the outputs of the runs in done that it
// names; its MB/s is that of running them one after the other. ok is
// false when one of its tools did not run.
func (e ensemble) run(done []modernRun, n int) (r modernRun, ok bool) {
	var parts [][][]byte
	var secs float64
	for _, name := range e.tools {
		for _, d := range done {
			if d.t.name == name && d.mbps > 0 {
				parts, secs = append(parts, d.outs), secs+1/d.mbps
			}
		}
	}
	if len(parts) != len(e.tools) {
		return r, false
	}
	r = modernRun{tool{name: e.name, peer: true}, make([][]byte, n), make([]string, n), 1 / secs}
	for i := range n {
		cand := make([][]byte, len(parts))
		for j := range parts {
			cand[j] = parts[j][i]
		}
		k := e.pick(cand)
		r.outs[i], r.how[i] = cand[k], e.tools[k]
	}
	return r, true
}

// pickByAgreement picks the output whose words agree most (the sum of its
// F1 against each other output's words) with the others: the medoid.
// An empty output never wins; ties go to the first tool.
func pickByAgreement(outs [][]byte) int {
	bags := make([]score.Bag, len(outs))
	for i, o := range outs {
		bags[i] = score.Words(score.MarkdownText(o))
	}
	best, bestScore := 0, -1.0
	for i := range bags {
		if bags[i].Size() == 0 {
			continue
		}
		s := 0.0
		for j := range bags {
			if j != i {
				s += score.Compare(bags[j], bags[i]).F1
			}
		}
		if s > bestScore {
			best, bestScore = i, s
		}
	}
	return best
}

// pickFirstUnlessDisagrees takes the first output unless it is empty or
// holds less than half of the second's words with the second keeping most
// of it (the first tool lost content the second found: recall of the first
// against the second below 0.5, precision at least 0.8).
func pickFirstUnlessDisagrees(outs [][]byte) int {
	a, b := score.Words(score.MarkdownText(outs[0])), score.Words(score.MarkdownText(outs[1]))
	if a.Size() == 0 {
		return 1
	}
	if r := score.Compare(b, a); r.Recall < 0.5 && r.Precision >= 0.8 {
		return 1
	}
	return 0
}

// modernMisses prints agent_ready's tallies by extraction path and its
// worst pages (up to misses) to standard error.
func modernMisses(pages []modernPage, rs []score.Result, failed []bool, how []string, outs [][]byte, misses int) {
	if misses <= 0 {
		return
	}
	type agg struct {
		n     int
		f1    []float64
		fails int
	}
	byHow := map[string]*agg{}
	for i := range pages {
		h := how[i]
		if i := strings.IndexByte(h, ':'); i > 0 && strings.HasPrefix(h, "selector") {
			h = h[:i]
		}
		a := byHow[h]
		if a == nil {
			a = &agg{}
			byHow[h] = a
		}
		a.n++
		a.f1 = append(a.f1, rs[i].F1)
		if failed[i] {
			a.fails++
		}
	}
	for _, h := range sortedKeys(byHow) {
		a := byHow[h]
		fmt.Fprintf(os.Stderr, "by extraction %-28s pages %4d median F1 %.3f p10 F1 %.3f failures %d\n", h, a.n, quantile(a.f1, 0.5), quantile(a.f1, 0.1), a.fails)
	}
	idx := make([]int, len(pages))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return rs[idx[a]].F1 < rs[idx[b]].F1 })
	for _, i := range idx[:min(misses, len(idx))] {
		p := pages[i]
		fmt.Fprintf(os.Stderr, "%s %-5s %-13s F1 %.3f P %.3f R %.3f words %d/%d %s %s\n", p.id, p.split, p.kind,
			rs[i].F1, rs[i].Precision, rs[i].Recall, rs[i].Output, rs[i].Expected, how[i], p.url)
		if failed[i] && outs[i] == nil {
			fmt.Fprintf(os.Stderr, "    failed\n")
		}
	}
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
