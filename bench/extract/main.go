// Command extract compares content extraction and conversion on three
// corpora, each reported on its own (never tune on one and report only
// that one):
//
//   - trafilatura: go-trafilatura's comparison set (test-files/comparison,
//     about 950 real pages, with the snippets each page's extract must hold
//     and must not hold, scripts/comparison/data.go), from the module
//     cache; scored with its snippet metric (precision, recall, accuracy,
//     F-score over the with/without snippets, as its README reports them);
//   - readability: go-readability's test pages (source.html +
//     expected.html), scored with bench/score's word metric (median
//     recall and precision, p10 F1);
//   - docs: a Sphinx documentation site from a Debian -doc package
//     (default /usr/share/doc/python3.11/html, `apt-get install
//     python3.11-doc`); the expected text is the page's role=main block;
//     also counted: <pre> blocks against fenced code blocks, data tables
//     against GFM tables.
//
// Tools: agent_ready (the module's whole pipeline, front matter on),
// readability+html-to-markdown, trafilatura+html-to-markdown
// (go-trafilatura v1.12.2, no fallback, tables and links kept). Every
// tool's Markdown is reduced to text the same way (bench/score's
// MarkdownText) before it is scored. Throughput is one pass per tool with
// GOMAXPROCS=1, in MB of input HTML per CPU second; the heap bound is the
// bytes allocated by one conversion with the garbage collector off.
//
// Usage:
//
//	go -C bench/extract run . [-corpus trafilatura,readability,docs] [-docs DIR] [-tools ours,readability,trafilatura] [-misses N]
//	    [-sample N] [-match SUBSTR] [-cpuprofile FILE] [-list DIR | -peers DIR]
//	    [-costs N] [-slowest N] [-repeat N] [-keep DIR]
//
// -list DIR writes DIR/<corpus>/pages.tsv (a key and the HTML file of each
// page) and converts nothing; bench/extract/peers.sh runs the peers over
// those pages, then -peers DIR adds a row for each peer, scored from
// DIR/<corpus>/<peer>/<key>.md (run both with the same -sample and -match).
//
// -sample and -match take a subset of every corpus (every Nth page; the
// pages whose file name holds SUBSTR) for iterating: report full runs only.
//
// -costs N lists agent_ready's N pages of the trafilatura set with the most
// wrong snippets (path, snippets, and the F-score were they right);
// -slowest N its N slowest pages of each corpus (MB per CPU second, each
// measured again); -repeat N makes N timed passes (with -match and
// -cpuprofile: a profile of one page); -keep DIR writes agent_ready's
// Markdown of every page under DIR.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
)

// subset is what -sample and -match leave of a corpus.
var subset struct {
	every int
	match string
}

// pick reports whether the i-th page, of file name name, is in the subset.
func pick(i int, name string) bool {
	return (subset.every <= 1 || i%subset.every == 0) && strings.Contains(name, subset.match)
}

func main() {
	corpora := flag.String("corpus", "trafilatura,readability,docs", "comma-separated corpora to run: modern, trafilatura, readability, docs, reference (git-doc and debian-handbook; postgresql-doc-15, sqlite3-doc and rust-doc, held out, when installed)")
	tools := flag.String("tools", "ours,readability,trafilatura", "comma-separated tools to run")
	docsDir := flag.String("docs", "/usr/share/doc/python3.11/html", "Sphinx HTML `DIR` of the docs corpus")
	flag.StringVar(&modernDir, "modern", defaultModernDir(), "`DIR` of the modern-web corpus (ground-truth.json, html/); default: shared/corpora/modern-web beside the repository's directory")
	flag.StringVar(&modernSplit, "split", "all", "the modern-web pages to run: dev, test or all (`SPLIT`; tune on dev only)")
	misses := flag.Int("misses", 0, "print up to `N` failing pages of ours per corpus")
	flag.IntVar(&costs, "costs", 0, "list agent_ready's `N` costliest pages of the trafilatura set (false positives plus negatives)")
	flag.IntVar(&slowest, "slowest", 0, "list agent_ready's `N` slowest pages of each corpus (MB per CPU second)")
	flag.StringVar(&snippetText, "snippettext", "plain", "how the snippet metric reduces Markdown to text: `plain` (a CommonMark reader's text) or markdowntext (bench/score's, sessions 3 and 4)")
	flag.StringVar(&scoresFile, "scores", "", "write every tool's score of every modern-web page to `FILE` (TSV)")
	flag.BoolVar(&untitled, "untitled", false, "score agent_ready's modern-web Markdown without its title heading (STANDARD §6 requires it; articleBody leaves it out)")
	flag.StringVar(&keepDir, "keep", "", "write agent_ready's Markdown of every page under `DIR`")
	flag.IntVar(&repeat, "repeat", 1, "make `N` timed passes over each corpus (for a profile of a few pages)")
	flag.IntVar(&subset.every, "sample", 1, "run every `N`th page of each corpus only")
	flag.StringVar(&subset.match, "match", "", "run only the pages whose file name holds `SUBSTR`")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to `FILE`")
	list := flag.String("list", "", "write each corpus's page list under `DIR` for the peers, and stop")
	flag.StringVar(&peerDir, "peers", "", "also score the peers' outputs under `DIR` (bench/extract/peers.sh)")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "extract:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(strings.Split(*corpora, ","), strings.Split(*tools, ","), *docsDir, *misses, *list); err != nil {
		fmt.Fprintln(os.Stderr, "extract:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

func run(corpora, toolNames []string, docsDir string, misses int, list string) error {
	var tools []tool
	for _, n := range toolNames {
		if n == "" {
			continue // -tools '' with -peers: the peers only
		}
		t, err := newTool(n)
		if err != nil {
			return err
		}
		tools = append(tools, t)
	}
	if peerDir != "" {
		tools = append(tools, peerTools()...)
	}
	for _, c := range corpora {
		var err error
		switch c {
		case "trafilatura":
			err = runSnippets(tools, misses, list)
		case "readability":
			err = runWords(tools, misses, list)
		case "docs":
			err = runDocs(tools, docsDir, misses, list)
		case "modern":
			err = runModern(tools, misses, list)
		case "reference":
			err = runReference(tools, misses, list)
		default:
			err = fmt.Errorf("unknown corpus %q", c)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
