package main

import (
	"fmt"
	"math"

	ort "github.com/yalue/onnxruntime_go"
)

// onnxModel runs a sentence-transformers model exported to ONNX with the
// ONNX Runtime shared library (loaded at run time, not linked): inputs
// input_ids, attention_mask and token_type_ids; output either the pooled
// and normalised sentence_embedding [batch, dim] or last_hidden_state
// [batch, seq, dim], which is mean-pooled over the mask and normalised here.
type onnxModel struct {
	session *ort.DynamicAdvancedSession
	output  string
	dim     int
}

// newONNXModel loads the runtime library at lib and the model at path.
func newONNXModel(lib, path, output string, dim, threads int) (*onnxModel, error) {
	ort.SetSharedLibraryPath(lib)
	if err := ort.InitializeEnvironment(); err != nil {
		return nil, fmt.Errorf("onnxruntime %s: %v", lib, err)
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	defer opts.Destroy()
	if threads > 0 {
		if err := opts.SetIntraOpNumThreads(threads); err != nil {
			return nil, err
		}
		if err := opts.SetInterOpNumThreads(1); err != nil {
			return nil, err
		}
	}
	s, err := ort.NewDynamicAdvancedSession(path, []string{"input_ids", "attention_mask", "token_type_ids"}, []string{output}, opts)
	if err != nil {
		return nil, fmt.Errorf("model %s: %v", path, err)
	}
	return &onnxModel{session: s, output: output, dim: dim}, nil
}

func (m *onnxModel) close() {
	m.session.Destroy()
	ort.DestroyEnvironment()
}

// embed returns one unit vector per sequence of token ids (each already
// framed by [CLS] and [SEP]), run as one batch padded to the longest.
func (m *onnxModel) embed(seqs [][]int) ([][]float32, error) {
	b, n := len(seqs), 0
	for _, s := range seqs {
		n = max(n, len(s))
	}
	ids, mask := make([]int64, b*n), make([]int64, b*n)
	for i, s := range seqs {
		for j, id := range s {
			ids[i*n+j], mask[i*n+j] = int64(id), 1
		}
	}
	shape := ort.NewShape(int64(b), int64(n))
	in := make([]ort.Value, 3)
	var err error
	for i, data := range [][]int64{ids, mask, make([]int64, b*n)} {
		if in[i], err = ort.NewTensor(shape, data); err != nil {
			return nil, err
		}
		defer in[i].Destroy()
	}
	outShape := ort.NewShape(int64(b), int64(m.dim))
	if m.output != "sentence_embedding" {
		outShape = ort.NewShape(int64(b), int64(n), int64(m.dim))
	}
	out, err := ort.NewEmptyTensor[float32](outShape)
	if err != nil {
		return nil, err
	}
	defer out.Destroy()
	if err := m.session.Run(in, []ort.Value{out}); err != nil {
		return nil, err
	}
	data := out.GetData()
	vecs := make([][]float32, b)
	for i := range vecs {
		if m.output == "sentence_embedding" {
			vecs[i] = append([]float32(nil), data[i*m.dim:(i+1)*m.dim]...)
		} else {
			vecs[i] = meanPool(data[i*n*m.dim:(i+1)*n*m.dim], len(seqs[i]), m.dim)
		}
		normalize(vecs[i])
	}
	return vecs, nil
}

// meanPool averages the first n token vectors of hidden ([seq, dim]).
func meanPool(hidden []float32, n, dim int) []float32 {
	v := make([]float32, dim)
	for t := range n {
		for d := range dim {
			v[d] += hidden[t*dim+d]
		}
	}
	for d := range v {
		v[d] /= float32(n)
	}
	return v
}

func normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}

func dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
