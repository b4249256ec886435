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
// cut at words, the script tokenizes. Each run's vectors and timings are
// cached under dir, keyed by the texts and the script's options, so that a
// rerun embeds nothing.
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

// run embeds texts with the script, or reads the cached result of an
// earlier run on the same texts and options.
func (e *scriptEmbedder) run(name string, texts []string, batch int) ([][]float32, scriptStats, error) {
	var st scriptStats
	var in bytes.Buffer
	for _, t := range texts {
		line, err := json.Marshal(t)
		if err != nil {
			return nil, st, err
		}
		in.Write(append(line, '\n'))
	}
	sum := sha256.Sum256(append(in.Bytes(), fmt.Sprintf("maxtokens %d", e.maxTokens)...))
	base := filepath.Join(e.dir, name+"-"+hex.EncodeToString(sum[:8]))
	if vecs, err := readVectors(base+".f32", len(texts), e.dim); err == nil {
		raw, err := os.ReadFile(base + ".json")
		if err == nil && json.Unmarshal(raw, &st) == nil {
			fmt.Printf("   %s: cached %s.f32\n", name, base)
			return vecs, st, nil
		}
	}
	if err := os.MkdirAll(e.dir, 0o755); err != nil {
		return nil, st, err
	}
	if err := os.WriteFile(base+".jsonl", in.Bytes(), 0o644); err != nil {
		return nil, st, err
	}
	var stderr bytes.Buffer
	cmd := exec.Command("node", e.script, "-in", base+".jsonl", "-out", base+".f32.tmp",
		"-batch", strconv.Itoa(batch), "-maxtokens", strconv.Itoa(e.maxTokens))
	cmd.Stdout, cmd.Stderr = os.Stdout, io.MultiWriter(os.Stderr, &stderr)
	if err := cmd.Run(); err != nil {
		return nil, st, fmt.Errorf("%s: %v", e.script, err)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	last := lines[len(lines)-1]
	if err := json.Unmarshal([]byte(last), &st); err != nil {
		return nil, st, fmt.Errorf("%s: no timings on stderr: %v", e.script, err)
	}
	if err := os.WriteFile(base+".json", []byte(last), 0o644); err != nil {
		return nil, st, err
	}
	if err := os.Rename(base+".f32.tmp", base+".f32"); err != nil {
		return nil, st, err
	}
	vecs, err := readVectors(base+".f32", len(texts), e.dim)
	return vecs, st, err
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
