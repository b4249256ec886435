package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/agentready/caddy-agentready/bench/score"
)

// trafilaturaModule ships the comparison set.
const trafilaturaModule = "github.com/markusmobius/go-trafilatura"

// snippetPage is one page of the comparison set.
type snippetPage struct {
	url           *url.URL
	file, path    string
	html          []byte
	with, without []string
}

// moduleDir asks the go command where a module of go.mod lives.
func moduleDir(mod string) (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		return "", fmt.Errorf("locating %s in the module cache (go mod download): %v", mod, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// loadSnippets reads scripts/comparison/data.go (the map of page URL to
// file, with and without snippets) without compiling it, and the pages it
// names under test-files/comparison (or test-files/mock, as the module's
// own script looks).
func loadSnippets() ([]snippetPage, error) {
	dir, err := moduleDir(trafilaturaModule)
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, "scripts", "comparison", "data.go"), nil, 0)
	if err != nil {
		return nil, fmt.Errorf("reading the comparison data: %w", err)
	}
	var pages []snippetPage
	ast.Inspect(f, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		key, ok := kv.Key.(*ast.BasicLit)
		lit, ok2 := kv.Value.(*ast.CompositeLit)
		if !ok || !ok2 || key.Kind != token.STRING {
			return true
		}
		raw, _ := strconv.Unquote(key.Value)
		u, err := url.Parse(raw)
		if err != nil {
			return false
		}
		p := snippetPage{url: u}
		for _, e := range lit.Elts {
			field, ok := e.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			name, _ := field.Key.(*ast.Ident)
			if name == nil {
				continue
			}
			switch name.Name {
			case "File":
				if b, ok := field.Value.(*ast.BasicLit); ok {
					p.file, _ = strconv.Unquote(b.Value)
				}
			case "With":
				p.with = stringList(field.Value)
			case "Without":
				p.without = stringList(field.Value)
			}
		}
		if p.file != "" {
			pages = append(pages, p)
		}
		return false
	})
	sort.Slice(pages, func(i, j int) bool { return pages[i].file < pages[j].file })
	kept := pages[:0]
	for i, p := range pages {
		if !pick(i, p.file) {
			continue
		}
		for _, sub := range []string{"comparison", "mock"} {
			if b, err := os.ReadFile(filepath.Join(dir, "test-files", sub, p.file)); err == nil {
				p.html, p.path = b, filepath.Join(dir, "test-files", sub, p.file)
				break
			}
		}
		if p.html != nil {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("no comparison pages found under %s", dir)
	}
	return kept, nil
}

func stringList(e ast.Expr) []string {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil
	}
	var out []string
	for _, el := range lit.Elts {
		if b, ok := el.(*ast.BasicLit); ok && b.Kind == token.STRING {
			s, _ := strconv.Unquote(b.Value)
			out = append(out, s)
		}
	}
	return out
}

// counts are the snippet metric's tallies.
type counts struct{ tp, fn, fp, tn int }

// evaluate tallies one page the way go-trafilatura's comparison script
// does (strings.Contains on the extracted text), with white space runs
// collapsed on both sides: every tool writes Markdown, whose line breaks
// differ from the HTML's.
func (c *counts) evaluate(p snippetPage, text string) (missed []string) {
	text = collapse(text)
	for _, s := range p.with {
		if text != "" && strings.Contains(text, collapse(s)) {
			c.tp++
		} else {
			c.fn++
			missed = append(missed, "-"+s)
		}
	}
	for _, s := range p.without {
		if text != "" && strings.Contains(text, collapse(s)) {
			c.fp++
			missed = append(missed, "+"+s)
		} else {
			c.tn++
		}
	}
	return missed
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

func runSnippets(tools []tool, misses int, list string) error {
	pages, err := loadSnippets()
	if err != nil {
		return err
	}
	if list != "" {
		return listPages(list, "trafilatura", pages, func(p snippetPage) string { return p.path })
	}
	inputs, names := make([][]byte, len(pages)), make([]string, len(pages))
	total := 0
	for i, p := range pages {
		inputs[i], names[i] = p.html, p.file
		total += len(p.html)
	}
	fmt.Printf("## trafilatura comparison set: %d pages, %.1f MB\n\n", len(pages), float64(total)/1e6)
	fmt.Println("| tool | precision | recall | accuracy | F-score | errors | MB/s (CPU, 1 core) | max heap per conversion |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, t := range tools {
		var c counts
		outs, how, errs, mbps := convertAll(t, "trafilatura", names, inputs, func(i int) *url.URL { return pages[i].url })
		shown := 0
		byHow := map[string]*counts{}
		var costly []pageCost
		for i, p := range pages {
			var pc counts
			pc.evaluate(p, snippetTextOf(outs[i]))
			missed := c.evaluate(p, snippetTextOf(outs[i]))
			if t.name != "agent_ready" {
				continue
			}
			if costs > 0 {
				pcst := pageCost{file: p.file, how: how[i], size: len(p.html), c: pc, wrong: missed}
				pcst.absent, pcst.inScript = reach(p, missed)
				costly = append(costly, pcst)
			}
			h := strings.TrimSuffix(strings.SplitN(how[i], ":", 2)[0]+":"+strings.SplitN(how[i]+":", ":", 3)[1], ":")
			if byHow[h] == nil {
				byHow[h] = &counts{}
			}
			byHow[h].evaluate(p, snippetTextOf(outs[i]))
			if len(missed) > 0 && shown < misses {
				shown++
				fmt.Fprintf(os.Stderr, "%s %s %q\n", p.file, how[i], missed)
			}
		}
		if misses > 0 {
			printByHow(byHow)
		}
		if costs > 0 && t.name == "agent_ready" {
			printCosts(costly, c)
		}
		heap := heapText(t, inputs, func(i int) *url.URL { return pages[i].url })
		tp, fn, fp, tn := float64(c.tp), float64(c.fn), float64(c.fp), float64(c.tn)
		fmt.Printf("| %s | %.3f | %.3f | %.3f | %.3f | %d | %.1f | %s |\n", t.name,
			tp/(tp+fp), tp/(tp+fn), (tp+tn)/(tp+tn+fp+fn), 2*tp/(2*tp+fp+fn), errs, mbps, heap)
	}
	fmt.Println()
	return nil
}

// maxAlloc returns the largest per-conversion allocation bound over a
// sample of every 10th page, and the median of the sample, as text.
func maxAlloc(t tool, inputs [][]byte, u func(int) *url.URL) string {
	var all []uint64
	for i := 0; i < len(inputs); i += 10 {
		all = append(all, allocBound(t, inputs[i], u(i)))
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	return fmt.Sprintf("≤ %.1f MB (median %.1f MB, every 10th page)", float64(all[len(all)-1])/1e6, float64(all[len(all)/2])/1e6)
}

// printByHow prints the snippet tallies of agent_ready by the way it chose
// the content (convert.Result.Extraction) to standard error.
func printByHow(byHow map[string]*counts) {
	var keys []string
	for k := range byHow {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		c := byHow[k]
		tp, fn, fp := float64(c.tp), float64(c.fn), float64(c.fp)
		fmt.Fprintf(os.Stderr, "by extraction %-28s tp %5d fn %5d fp %5d tn %5d precision %.3f recall %.3f F %.3f\n",
			k, c.tp, c.fn, c.fp, c.tn, tp/(tp+fp), tp/(tp+fn), 2*tp/(2*tp+fp+fn))
	}
}

// costs is how many of agent_ready's costliest pages (most false positives
// and negatives) -costs lists on the trafilatura set.
var costs int

// pageCost is one page's snippet tallies and wrong snippets.
type pageCost struct {
	file, how string
	size      int
	c         counts
	wrong     []string // "-" lost, "+" unwanted kept
	// absent and inScript count the lost snippets the page's text does not
	// hold: nowhere, or only inside script, style, template or noscript.
	absent, inScript int
}

// fScore is the snippet metric's F-score of c.
func fScore(c counts) float64 { return 2 * float64(c.tp) / float64(2*c.tp+c.fp+c.fn) }

// printCosts prints, to standard error, the pages that cost the most
// (false positives plus false negatives), each with its extraction path
// and wrong snippets, and what the F-score would be with the first k of
// them scored perfectly (their false negatives found, their false
// positives gone): the share of the gap to costTarget they hold.
func printCosts(pages []pageCost, all counts) {
	sort.SliceStable(pages, func(i, j int) bool {
		return pages[i].c.fp+pages[i].c.fn > pages[j].c.fp+pages[j].c.fn
	})
	printCostsByHow(pages, all)
	printCostliest(pages, all)
	printCostSpread(pages, all)
	printUnreachable(pages, all)
}

// costTarget is the snippet F-score the cost tables measure the gap to.
const costTarget = 0.92

// fixedBy returns c with the wrong snippets of p scored right (its false
// negatives found, its false positives gone).
func fixedBy(c, p counts) counts {
	return counts{tp: c.tp + p.fn, fn: c.fn - p.fn, fp: c.fp - p.fp, tn: c.tn + p.fp}
}

// printCostsByHow prints the gap by extraction path: each path's wrong
// snippets and the F-score were that path's pages all right.
func printCostsByHow(pages []pageCost, all counts) {
	f0 := fScore(all)
	byHow, n := map[string]counts{}, map[string]int{}
	for _, p := range pages {
		h := byHow[p.how]
		h.tp, h.fn, h.fp, h.tn = h.tp+p.c.tp, h.fn+p.c.fn, h.fp+p.c.fp, h.tn+p.c.tn
		byHow[p.how] = h
		n[p.how]++
	}
	hows := sortedKeys(byHow)
	sort.SliceStable(hows, func(i, j int) bool {
		return byHow[hows[i]].fp+byHow[hows[i]].fn > byHow[hows[j]].fp+byHow[hows[j]].fn
	})
	fmt.Fprintf(os.Stderr, "| extraction | pages | fn | fp | share of the wrong snippets | F if its pages were right | share of the gap to %.2f |\n", costTarget)
	fmt.Fprintln(os.Stderr, "|---|---:|---:|---:|---:|---:|---:|")
	for _, h := range hows {
		c := byHow[h]
		f := fScore(fixedBy(all, c))
		fmt.Fprintf(os.Stderr, "| %s | %d | %d | %d | %.0f%% | %.3f | %.0f%% |\n", h, n[h], c.fn, c.fp,
			100*float64(c.fn+c.fp)/float64(all.fn+all.fp), f, 100*(f-f0)/(costTarget-f0))
	}
}

// printCostliest prints the -costs costliest pages, with the F-score were
// the pages up to each one right, then each one's wrong snippets.
func printCostliest(pages []pageCost, all counts) {
	f0 := fScore(all)
	fmt.Fprintf(os.Stderr, "costliest pages of agent_ready: F %.3f, fp %d + fn %d = %d wrong snippets\n", f0, all.fp, all.fn, all.fp+all.fn)
	fmt.Fprintf(os.Stderr, "| # | page | extraction | KB | tp/fn/fp/tn | lost snippets not in the page's text / only in scripts | fp+fn | F if pages 1..# were right | share of the gap to %.2f |\n", costTarget)
	fmt.Fprintln(os.Stderr, "|---:|---|---|---:|---|---|---:|---:|---:|")
	fixed := all
	top := pages[:min(costs, len(pages))]
	for k, p := range top {
		fixed = fixedBy(fixed, p.c)
		f := fScore(fixed)
		fmt.Fprintf(os.Stderr, "| %d | %s | %s | %.0f | %d/%d/%d/%d | %d / %d | %d | %.3f | %.0f%% |\n", k+1, p.file, p.how, float64(p.size)/1e3,
			p.c.tp, p.c.fn, p.c.fp, p.c.tn, p.absent, p.inScript, p.c.fp+p.c.fn, f, 100*(f-f0)/(costTarget-f0))
	}
	for k, p := range top {
		fmt.Fprintf(os.Stderr, "%d %s: %q\n", k+1, p.file, p.wrong)
	}
}

// printCostSpread prints how many of the costliest pages, in order, would
// have to be right for the target, and how the wrong snippets spread over
// pages.
func printCostSpread(pages []pageCost, all counts) {
	fixed, need, wrongPages := all, 0, 0
	hist := map[int]int{}
	for _, p := range pages {
		if p.c.fp+p.c.fn > 0 {
			wrongPages++
		}
		hist[p.c.fp+p.c.fn]++
	}
	for _, p := range pages {
		if fScore(fixed) >= costTarget {
			break
		}
		need++
		fixed = fixedBy(fixed, p.c)
	}
	fmt.Fprintf(os.Stderr, "%d of %d pages have a wrong snippet; the %d costliest would all have to be right for F %.2f; pages by wrong snippets:", wrongPages, len(pages), need, costTarget)
	for w := 0; w <= 10; w++ {
		if hist[w] > 0 {
			fmt.Fprintf(os.Stderr, " %d:%d", w, hist[w])
		}
	}
	fmt.Fprintln(os.Stderr)
}

// printUnreachable prints the false negatives no conversion of the page's
// text can avoid: snippets not in its text, or only inside scripts.
func printUnreachable(pages []pageCost, all counts) {
	f0 := fScore(all)
	absent, inScript, fn := 0, 0, 0
	for _, p := range pages {
		fn += p.c.fn
		absent += p.absent
		inScript += p.inScript
	}
	rest := all
	rest.fn -= absent + inScript
	fmt.Fprintf(os.Stderr, "of the %d false negatives, %d are not in the page's text at all and %d only inside a script, style, template or noscript element; F %.3f without them (%.0f%% of the gap to %.2f)\n",
		fn, absent, inScript, fScore(rest), 100*(fScore(rest)-f0)/(costTarget-f0), costTarget)
}

// reach tells, for each of p's lost "with" snippets (in wrong, marked
// "-"), whether the page's HTML holds it as text (text nodes outside
// script, style and template, joined with and without a space at each
// element boundary, white space collapsed), only inside those elements,
// or not at all.
func reach(p snippetPage, wrong []string) (absent, inScript int) {
	doc, err := html.Parse(bytes.NewReader(p.html))
	if err != nil {
		return 0, 0
	}
	var spaced, tight, hidden strings.Builder
	var walk func(n *html.Node, inHidden bool)
	walk = func(n *html.Node, inHidden bool) {
		switch n.Type {
		case html.TextNode:
			if inHidden {
				hidden.WriteString(n.Data)
				hidden.WriteByte(' ')
				return
			}
			spaced.WriteString(n.Data)
			tight.WriteString(n.Data)
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Template, atom.Noscript:
				inHidden = true
			}
			spaced.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inHidden)
		}
	}
	walk(doc, false)
	a, b, h := collapse(spaced.String()), collapse(tight.String()), collapse(html.UnescapeString(hidden.String()))
	for _, w := range wrong {
		if !strings.HasPrefix(w, "-") {
			continue
		}
		s := collapse(w[1:])
		switch {
		case strings.Contains(a, s) || strings.Contains(b, s):
		case strings.Contains(h, s):
			inScript++
		default:
			absent++
		}
	}
	return absent, inScript
}

// snippetTextOf reduces a tool's Markdown to the text the snippets are
// matched in (-snippettext).
func snippetTextOf(md []byte) string {
	if snippetText == "markdowntext" {
		return score.MarkdownText(md)
	}
	return plainText(md)
}
