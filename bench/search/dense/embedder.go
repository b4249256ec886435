package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentready/caddy-agentready/fulltext"
)

// embedder is a sentence-embedding model as the experiment uses it: it
// cuts pages into windows of its own length and embeds windows and
// questions into unit vectors.
type embedder interface {
	// chunks cuts the pages into windows.
	chunks(docs []fulltext.Document) []chunk
	// embedChunks embeds the windows todo names (the others' vectors stay
	// nil) and says how long the model took, without loading it.
	embedChunks(site string, cs []chunk, todo []int) ([][]float32, time.Duration, error)
	// embedQuestions embeds the questions and says how long one took.
	embedQuestions(site string, qs []string) ([][]float32, time.Duration, error)
}

// onnxEmbedder is a sentence-transformers model run by ONNX Runtime, its
// windows cut with its WordPiece vocabulary.
type onnxEmbedder struct {
	m         *onnxModel
	tk        *wordPiece
	window    int
	maxChunks int
	batch     int
	qprefix   string
}

func (e *onnxEmbedder) chunks(docs []fulltext.Document) []chunk {
	return chunks(docs, e.tk, e.window, e.maxChunks)
}

// embedChunks runs the windows in batches of similar length.
func (e *onnxEmbedder) embedChunks(_ string, cs []chunk, todo []int) ([][]float32, time.Duration, error) {
	start := time.Now()
	order := append([]int(nil), todo...)
	sort.SliceStable(order, func(i, j int) bool { return len(cs[order[i]].ids) < len(cs[order[j]].ids) })
	vecs := make([][]float32, len(cs))
	for lo := 0; lo < len(order); lo += e.batch {
		part := order[lo:min(lo+e.batch, len(order))]
		seqs := make([][]int, len(part))
		for i, k := range part {
			seqs[i] = cs[k].ids
		}
		out, err := e.m.embed(seqs)
		if err != nil {
			return nil, 0, err
		}
		for i, k := range part {
			vecs[k] = out[i]
		}
	}
	return vecs, time.Since(start), nil
}

func (e *onnxEmbedder) embedQuestions(_ string, qs []string) ([][]float32, time.Duration, error) {
	out := make([][]float32, len(qs))
	start := time.Now()
	for i, q := range qs {
		ids := append(append([]int{e.tk.cls}, e.tk.encode(e.qprefix+q)...), e.tk.sep)
		v, err := e.m.embed([][]int{ids})
		if err != nil {
			return nil, 0, err
		}
		out[i] = v[0]
	}
	return out, time.Since(start) / time.Duration(max(len(qs), 1)), nil
}

// scriptEmbedder runs a Node script (bench/search/dense/use/embed.js) that
// reads JSON strings a line and writes 512 float32 a text; its windows are
// cut at words, the script tokenizes. Each text's vector is cached under
// dir (see run), so that a rerun, or a run on fewer windows, embeds
// nothing. The cache does not know -maxtokens: give each value its own
// directory.
type scriptEmbedder struct {
	script    string
	dir       string
	dim       int
	words     int
	maxChunks int
	batch     int
	maxTokens int
}

// scriptStats is the JSON line embed.js ends with on stderr.
type scriptStats struct {
	Backend   string  `json:"backend"`
	Texts     int     `json:"texts"`
	Tokens    int     `json:"tokens"`
	LoadMs    float64 `json:"loadMs"`
	EmbedMs   float64 `json:"embedMs"`
	MsPerText float64 `json:"msPerText"`
	RSSMiB    float64 `json:"rssMiB"`
}

func (e *scriptEmbedder) chunks(docs []fulltext.Document) []chunk {
	return textChunks(docs, e.words, e.maxChunks)
}

func (e *scriptEmbedder) embedChunks(site string, cs []chunk, todo []int) ([][]float32, time.Duration, error) {
	texts := make([]string, len(todo))
	for i, k := range todo {
		texts[i] = cs[k].text
	}
	got, st, err := e.run(site+"-windows", texts, e.batch)
	if err != nil {
		return nil, 0, err
	}
	vecs := make([][]float32, len(cs))
	for i, k := range todo {
		vecs[k] = got[i]
	}
	fmt.Printf("   %s windows: %d texts, %d tokens, backend %s, node RSS %.0f MiB\n", site, st.Texts, st.Tokens, st.Backend, st.RSSMiB)
	return vecs, time.Duration(st.EmbedMs * float64(time.Millisecond)), nil
}

// embedQuestions embeds the questions one at a time (batch 1), as a
// search would.
func (e *scriptEmbedder) embedQuestions(site string, qs []string) ([][]float32, time.Duration, error) {
	got, st, err := e.run(site+"-questions", qs, 1)
	if err != nil {
		return nil, 0, err
	}
	return got, time.Duration(st.MsPerText * float64(time.Millisecond)), nil
}

// run embeds texts with the script, reusing the vectors of every text
// that an earlier run embedded: the cache is pairs of files under dir,
// NAME-HASH.jsonl (the texts given to the script) and NAME-HASH.f32 (their
// vectors), NAME the site and what the texts are. Only the texts no pair
// holds go to the script, as a new pair. The timings are those of the run
// that embedded the most of these texts.
func (e *scriptEmbedder) run(name string, texts []string, batch int) ([][]float32, scriptStats, error) {
	var st scriptStats
	if err := os.MkdirAll(e.dir, 0o755); err != nil {
		return nil, st, err
	}
	known, stats, err := readCache(e.dir, name, e.dim)
	if err != nil {
		return nil, st, err
	}
	var in bytes.Buffer
	var missing int
	for _, t := range texts {
		if _, ok := known[t]; ok {
			continue
		}
		known[t] = nil
		line, err := json.Marshal(t)
		if err != nil {
			return nil, st, err
		}
		in.Write(append(line, '\n'))
		missing++
	}
	fmt.Printf("   %s: %d texts, %d cached under %s\n", name, len(texts), len(texts)-missing, e.dir)
	if missing > 0 {
		got, err := e.runScript(name, in.Bytes(), batch)
		if err != nil {
			return nil, st, err
		}
		stats = append(stats, got)
		if known, _, err = readCache(e.dir, name, e.dim); err != nil {
			return nil, st, err
		}
	}
	for _, s := range stats {
		if s.Texts > st.Texts {
			st = s
		}
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if out[i] = known[t]; out[i] == nil {
			return nil, st, fmt.Errorf("%s: no vector for %q", name, t)
		}
	}
	return out, st, nil
}

// runScript gives the texts (JSON lines) to the script and keeps its
// vectors and timings as a new pair of cache files.
func (e *scriptEmbedder) runScript(name string, jsonl []byte, batch int) (scriptStats, error) {
	var st scriptStats
	sum := sha256.Sum256(jsonl)
	base := filepath.Join(e.dir, name+"-"+hex.EncodeToString(sum[:8]))
	if err := os.WriteFile(base+".jsonl", jsonl, 0o644); err != nil {
		return st, err
	}
	var stderr bytes.Buffer
	cmd := exec.Command("node", e.script, "-in", base+".jsonl", "-out", base+".f32.tmp",
		"-batch", strconv.Itoa(batch), "-maxtokens", strconv.Itoa(e.maxTokens))
	cmd.Stdout, cmd.Stderr = os.Stdout, io.MultiWriter(os.Stderr, &stderr)
	if err := cmd.Run(); err != nil {
		return st, fmt.Errorf("%s: %v", e.script, err)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	last := lines[len(lines)-1]
	if err := json.Unmarshal([]byte(last), &st); err != nil {
		return st, fmt.Errorf("%s: no timings on stderr: %v", e.script, err)
	}
	if err := os.WriteFile(base+".json", []byte(last), 0o644); err != nil {
		return st, err
	}
	return st, os.Rename(base+".f32.tmp", base+".f32")
}

// readCache reads every pair of cache files of name under dir: each
// text's vector, and each run's timings. A pair whose vectors are missing
// or of the wrong size (a run that did not finish) is skipped.
func readCache(dir, name string, dim int) (map[string][]float32, []scriptStats, error) {
	known := map[string][]float32{}
	var stats []scriptStats
	pairs, err := filepath.Glob(filepath.Join(dir, name+"-*.jsonl"))
	if err != nil {
		return nil, nil, err
	}
	for _, p := range pairs {
		base := strings.TrimSuffix(p, ".jsonl")
		raw, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		var texts []string
		for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
			var t string
			if err := json.Unmarshal([]byte(line), &t); err != nil {
				return nil, nil, fmt.Errorf("%s: %v", p, err)
			}
			texts = append(texts, t)
		}
		vecs, err := readVectors(base+".f32", len(texts), dim)
		if err != nil {
			continue
		}
		for i, t := range texts {
			known[t] = vecs[i]
		}
		var st scriptStats
		if raw, err := os.ReadFile(base + ".json"); err == nil && json.Unmarshal(raw, &st) == nil {
			stats = append(stats, st)
		}
	}
	return known, stats, nil
}

// readVectors reads n unit-normalised vectors of dim little-endian
// float32 values each from path.
func readVectors(path string, n, dim int) ([][]float32, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(raw) != n*dim*4 {
		return nil, fmt.Errorf("%s: %d bytes, want %d vectors of %d float32", path, len(raw), n, dim)
	}
	out := make([][]float32, n)
	for i := range out {
		v := make([]float32, dim)
		for d := range v {
			v[d] = math.Float32frombits(binary.LittleEndian.Uint32(raw[(i*dim+d)*4:]))
		}
		normalize(v)
		out[i] = v
	}
	return out, nil
}
