package main

import (
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
	inputs := make([][]byte, len(pages))
	total := 0
	for i, p := range pages {
		inputs[i] = p.html
		total += len(p.html)
	}
	fmt.Printf("## trafilatura comparison set: %d pages, %.1f MB\n\n", len(pages), float64(total)/1e6)
	fmt.Println("| tool | precision | recall | accuracy | F-score | errors | MB/s (CPU, 1 core) | max heap per conversion |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, t := range tools {
		var c counts
		outs, how, errs, mbps := convertAll(t, "trafilatura", inputs, func(i int) *url.URL { return pages[i].url })
		shown := 0
		byHow := map[string]*counts{}
		for i, p := range pages {
			missed := c.evaluate(p, score.MarkdownText(outs[i]))
			if t.name != "agent_ready" {
				continue
			}
			h := strings.TrimSuffix(strings.SplitN(how[i], ":", 2)[0]+":"+strings.SplitN(how[i]+":", ":", 3)[1], ":")
			if byHow[h] == nil {
				byHow[h] = &counts{}
			}
			byHow[h].evaluate(p, score.MarkdownText(outs[i]))
			if len(missed) > 0 && shown < misses {
				shown++
				fmt.Fprintf(os.Stderr, "%s %s %q\n", p.file, how[i], missed)
			}
		}
		if misses > 0 {
			printByHow(byHow)
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
