// reference.js writes OpenAI's own o200k_base counts (the tiktoken npm
// package 1.0.22: tiktoken's Rust core built to WebAssembly) into the
// golden files the Go tests compare with:
//
//   npm install tiktoken@1.0.22   (in any scratch directory; NODE_PATH to it)
//   node internal/o200k/testdata/reference.js
//
// counts.json: each entry's "tiktoken" is set from its "text".
// negotiate/convert/testdata/golden_tokens.json: the count of each
// negotiate/convert/testdata/golden/*.md.
const fs = require("fs");
const path = require("path");
const { get_encoding } = require("tiktoken");

const enc = get_encoding("o200k_base");
const count = (s) => enc.encode_ordinary(s).length;
const root = path.join(__dirname, "..", "..", "..");

const countsFile = path.join(__dirname, "counts.json");
const entries = JSON.parse(fs.readFileSync(countsFile, "utf8"));
for (const e of entries) e.tiktoken = count(e.text);
fs.writeFileSync(countsFile, JSON.stringify(entries, null, "\t") + "\n");

const goldenDir = path.join(root, "negotiate", "convert", "testdata", "golden");
const golden = {};
for (const f of fs.readdirSync(goldenDir).filter((f) => f.endsWith(".md")).sort()) {
  golden[f] = count(fs.readFileSync(path.join(goldenDir, f), "utf8"));
}
fs.writeFileSync(path.join(root, "negotiate", "convert", "testdata", "golden_tokens.json"), JSON.stringify(golden, null, "\t") + "\n");
