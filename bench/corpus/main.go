// Command corpus measures the module's HTML-to-Markdown pipeline on a corpus
// of real pages written by others, with the article text each is expected to
// yield: go-readability's test pages (source.html + expected.html), found in
// the module cache at run time.
//
// For every page it reports word-level recall, precision and F1 of the
// Markdown against the expected text (package bench/score), the Markdown/HTML
// byte ratio and o200k token ratio, and a bound on the heap one conversion
// allocates; over the corpus, the medians, the worst decile, and the
// throughput of the whole pipeline on one core (GOMAXPROCS=1).
//
// Usage:
//
//	go run ./bench/corpus [flags]
//
//	-json            print the report as JSON
//	-baseline        also run go-readability + html-to-markdown separately,
//	                 for the worst-decile F1 comparison
//	-score-dir DIR   also score the peers' outputs in DIR/<tool>/<page>.md
//	                 (written by bench/peers.sh)
//	-list            print "name<TAB>source.html path" per page and exit
//	-write-dir DIR   write our Markdown to DIR/<page>.md for inspection
//	-rounds N        passes over the corpus in the timed section (default 3)
//	-pages=false     leave out the per-page table
//	-filter S        only pages whose name contains S
//	-corpus DIR      a test-pages directory other than go-readability's
//	-content-type T  the origin's Content-Type for our pipeline (default
//	                 "text/html; charset=utf-8", what a file server sends for
//	                 .html; "text/html" makes it sniff the charset)
//	-prune SEL       an extra prune selector for our pipeline, after the
//	                 defaults (repeatable): try a candidate on the corpus
package main

import (
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Tool names in the report.
const (
	oursName     = "agent_ready"
	baselineName = "readability+html-to-markdown"
)

// options are the command-line flags.
type options struct {
	jsonOut   bool
	baseline  bool
	scoreDir  string
	list      bool
	writeDir  string
	rounds    int
	perPage   bool
	filter    string
	corpusDir string
	// contentType is the Content-Type our pipeline is told the origin sent.
	contentType string
	// prune are extra prune selectors for our pipeline, to try candidates.
	prune stringList
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, " ") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

func main() {
	var o options
	flag.BoolVar(&o.jsonOut, "json", false, "print the report as JSON")
	flag.BoolVar(&o.baseline, "baseline", false, "also run go-readability + html-to-markdown separately")
	flag.StringVar(&o.scoreDir, "score-dir", "", "also score peer outputs in `DIR`/<tool>/<page>.md")
	flag.BoolVar(&o.list, "list", false, "print page names and source paths, then exit")
	flag.StringVar(&o.writeDir, "write-dir", "", "write our Markdown to `DIR`/<page>.md")
	flag.IntVar(&o.rounds, "rounds", 3, "passes over the corpus in the timed section")
	flag.BoolVar(&o.perPage, "pages", true, "print the per-page table")
	flag.StringVar(&o.filter, "filter", "", "only pages whose name contains `S`")
	flag.StringVar(&o.corpusDir, "corpus", "", "test-pages `DIR` (default: go-readability's, from the module cache)")
	flag.StringVar(&o.contentType, "content-type", "text/html; charset=utf-8",
		"Content-Type the origin is taken to send (the corpus files are UTF-8, as a file server labels .html)")
	flag.Var(&o.prune, "prune", "extra prune `selector` for our pipeline, after the defaults (repeatable)")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	if o.rounds < 1 {
		return fmt.Errorf("-rounds must be at least 1, got %d", o.rounds)
	}
	mach := describeMachine()
	count, err := newTokenCounter()
	if err != nil {
		return fmt.Errorf("loading the o200k tokenizer: %w", err)
	}
	if o.corpusDir == "" {
		if o.corpusDir, err = locateCorpus(); err != nil {
			return err
		}
	}
	countHTML := count
	if o.list {
		countHTML = func([]byte) int { return 0 } // -list needs no token counts
	}
	pages, err := loadCorpus(o.corpusDir, o.filter, countHTML)
	if err != nil {
		return err
	}
	if o.list {
		for _, p := range pages {
			fmt.Printf("%s\t%s\n", p.name, p.path)
		}
		return nil
	}
	u, _ := url.Parse(pageURL)

	ours, err := newOurs(o.contentType, o.prune)
	if err != nil {
		return fmt.Errorf("building our pipeline: %w", err)
	}
	systems := []*system{{name: oursName, convert: ours}}
	if o.baseline {
		systems = append(systems, &system{name: baselineName, convert: newBaseline()})
	}
	if o.scoreDir != "" {
		peers, err := loadPeers(o.scoreDir)
		if err != nil {
			return err
		}
		systems = append(systems, peers...)
	}

	rep := &report{Machine: mach, Corpus: o.corpusDir, Pages: len(pages), Results: map[string][]pageResult{}}
	for i, sys := range systems {
		writeDir := ""
		if i == 0 {
			writeDir = o.writeDir // only our own Markdown is written out
		}
		results, err := evaluate(sys, pages, u, count, o.rounds, writeDir)
		if err != nil {
			return err
		}
		rep.Results[sys.name] = results
		rep.Summaries = append(rep.Summaries, summarize(sys.name, results, sys.timing))
	}
	rep.Machine.MaxRSSBytes = maxRSS()
	if o.jsonOut {
		return rep.writeJSON(os.Stdout)
	}
	rep.writeText(os.Stdout, o.perPage)
	return nil
}

// evaluate scores one tool on every page. An in-process tool is run once for
// scoring, once per page for its allocation bound, then timed; an external
// tool's outputs and timing were loaded from disk. With dir set, the outputs
// are also written there as <page>.md.
func evaluate(sys *system, pages []*page, u *url.URL, count func([]byte) int, rounds int, dir string) ([]pageResult, error) {
	write := dir != ""
	if write {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("creating %s: %w", dir, err)
		}
	}
	results := make([]pageResult, 0, len(pages))
	for _, p := range pages {
		var out output
		var err error
		if sys.convert != nil {
			out, err = sys.convert(p.html, u)
		} else if md, ok := sys.outputs[p.name]; ok {
			out.md = md
		} else {
			err = errors.New("no output")
		}
		r := scorePage(p, out, err, count)
		if sys.convert != nil {
			r.AllocBytes = measureAlloc(sys.convert, p.html, u)
		}
		if write {
			if err := os.WriteFile(filepath.Join(dir, p.name+".md"), out.md, 0o644); err != nil {
				return nil, fmt.Errorf("writing output of %s: %w", p.name, err)
			}
		}
		results = append(results, r)
	}
	if sys.convert != nil {
		sys.timing = measureThroughput(sys.convert, pages, u, rounds)
	}
	return results, nil
}
