#!/usr/bin/python3
"""Writes an ONNX model with the shape of all-MiniLM-L6-v2 (BERT, 6 layers,
hidden 384, 12 heads, intermediate 1536, vocabulary 30522, 512 positions;
mean pooling over the attention mask, then L2 normalisation) and RANDOM
weights. Its embeddings mean nothing: it exists to measure what running the
real model costs (time per chunk, memory, binary and download size) where
the real weights cannot be had. Needs Debian's python3-onnx and
python3-numpy.

    /usr/bin/python3 randommodel.py OUT.onnx
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

V, P, H, NH, I, L = 30522, 512, 384, 12, 1536, 6
HD = H // NH
rng = np.random.default_rng(1)
inits, nodes = [], []


def w(name, *shape, scale=0.02):
    inits.append(numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name))
    return name


def c(name, arr):
    inits.append(numpy_helper.from_array(np.asarray(arr), name))
    return name


def n(op, ins, out, **kw):
    nodes.append(helper.make_node(op, ins, [out], **kw))
    return out


def ln(x, p):
    g = c(p + ".g", np.ones(H, np.float32))
    b = c(p + ".b", np.zeros(H, np.float32))
    return n("LayerNormalization", [x, g, b], p + ".out", axis=-1, epsilon=1e-12)


def dense(x, p, din, dout):
    y = n("MatMul", [x, w(p + ".w", din, dout)], p + ".mm")
    return n("Add", [y, c(p + ".b", np.zeros(dout, np.float32))], p + ".out")


def main(out):
    ids, mask, types = "input_ids", "attention_mask", "token_type_ids"
    # embeddings
    seq = n("Shape", [ids], "shape")
    slen = n("Gather", [seq, c("one", np.array(1, np.int64))], "slen")
    pos = n("Range", [c("zero", np.array(0, np.int64)), slen, c("step", np.array(1, np.int64))], "pos")
    e = n("Gather", [w("word", V, H), ids], "e.word")
    e = n("Add", [e, n("Gather", [w("posemb", P, H), pos], "e.pos")], "e.wp")
    e = n("Add", [e, n("Gather", [w("typeemb", 2, H), types], "e.type")], "e.all")
    x = ln(e, "emb.ln")
    # additive attention mask: (1 - mask) * -10000, shape [B,1,1,S]
    mf = n("Cast", [mask], "maskf", to=TensorProto.FLOAT)
    m4 = n("Unsqueeze", [mf, c("axes12", np.array([1, 2], np.int64))], "mask4")
    neg = n("Mul", [n("Sub", [c("onef", np.array(1.0, np.float32)), m4], "inv"), c("big", np.array(-10000.0, np.float32))], "maskadd")
    heads = c("heads", np.array([0, 0, NH, HD], np.int64))
    merge = c("merge", np.array([0, 0, H], np.int64))
    for l in range(L):
        p = f"l{l}"

        def split(t, name):
            r = n("Reshape", [t, heads], name + ".r")
            return n("Transpose", [r], name + ".t", perm=[0, 2, 1, 3])

        q = split(dense(x, p + ".q", H, H), p + ".q")
        k = split(dense(x, p + ".k", H, H), p + ".k")
        v = split(dense(x, p + ".v", H, H), p + ".v")
        kt = n("Transpose", [k], p + ".kt", perm=[0, 1, 3, 2])
        s = n("MatMul", [q, kt], p + ".s")
        s = n("Mul", [s, c(p + ".scale", np.array(1 / np.sqrt(HD), np.float32))], p + ".ss")
        s = n("Add", [s, neg], p + ".sm")
        a = n("Softmax", [s], p + ".a", axis=-1)
        ctx = n("MatMul", [a, v], p + ".ctx")
        ctx = n("Transpose", [ctx], p + ".ctxt", perm=[0, 2, 1, 3])
        ctx = n("Reshape", [ctx, merge], p + ".ctxr")
        x = ln(n("Add", [dense(ctx, p + ".o", H, H), x], p + ".res1"), p + ".ln1")
        h = dense(x, p + ".i", H, I)
        # GELU: 0.5 x (1 + erf(x / sqrt 2))
        g = n("Erf", [n("Div", [h, c(p + ".sq2", np.array(np.sqrt(2), np.float32))], p + ".hd")], p + ".erf")
        g = n("Mul", [n("Mul", [h, n("Add", [g, c(p + ".1", np.array(1.0, np.float32))], p + ".g1")], p + ".hg"), c(p + ".half", np.array(0.5, np.float32))], p + ".gelu")
        x = ln(n("Add", [dense(g, p + ".out", I, H), x], p + ".res2"), p + ".ln2")
    # mean pooling over the mask, then L2 normalisation
    m3 = n("Unsqueeze", [mf, c("axis2", np.array([2], np.int64))], "mask3")
    summed = n("ReduceSum", [n("Mul", [x, m3], "masked"), c("axis1", np.array([1], np.int64))], "summed", keepdims=0)
    count = n("ReduceSum", [m3, c("axis1b", np.array([1], np.int64))], "count", keepdims=0)
    mean = n("Div", [summed, n("Max", [count, c("eps", np.array(1e-9, np.float32))], "countc")], "mean")
    norm = n("ReduceL2", [mean], "norm", axes=[1], keepdims=1)
    n("Div", [mean, n("Max", [norm, c("eps2", np.array(1e-12, np.float32))], "normc")], "sentence_embedding")
    dyn = ["batch", "seq"]
    g = helper.make_graph(
        nodes, "minilm-shaped-random",
        [helper.make_tensor_value_info(t, TensorProto.INT64, dyn) for t in (ids, mask, types)],
        [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", H])],
        inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, out)


if __name__ == "__main__":
    main(sys.argv[1])
