// convert.js runs the npm peers of bench/peers.sh over the corpus.
//
// Usage: node convert.js PAGES_TSV OUT_DIR
//
// PAGES_TSV holds "name<TAB>path of source.html" lines (go run ./bench/corpus
// -list). For each tool, every source is read into memory first, then
// converted in a timed loop; OUT_DIR/<tool>/<name>.md receives the output and
// OUT_DIR/<tool>/timing.json the wall and CPU seconds of the loop alone, in
// the shape bench/corpus -score-dir reads.
"use strict";

const fs = require("fs");
const path = require("path");
const TurndownService = require("turndown");
const { gfm } = require("turndown-plugin-gfm");
const { NodeHtmlMarkdown } = require("node-html-markdown");

function main() {
  const [pagesTSV, outDir] = process.argv.slice(2);
  if (!pagesTSV || !outDir) {
    console.error("usage: node convert.js PAGES_TSV OUT_DIR");
    process.exit(2);
  }
  const pages = fs
    .readFileSync(pagesTSV, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [name, file] = line.split("\t");
      return { name, html: fs.readFileSync(file, "utf8"), bytes: fs.statSync(file).size };
    });

  // turndown as its README configures it for GitHub-flavoured output:
  // ATX headings, fenced code, the GFM plugin (tables, strikethrough), and
  // script/style/noscript removed (turndown keeps their text otherwise).
  const td = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced" });
  td.use(gfm);
  td.remove(["script", "style", "noscript", "template"]);

  // node-html-markdown with its defaults, one instance reused.
  const nhm = new NodeHtmlMarkdown();

  run(pages, outDir, "turndown", (html) => td.turndown(html));
  run(pages, outDir, "node-html-markdown", (html) => nhm.translate(html));
}

function run(pages, outDir, tool, convert) {
  const dir = path.join(outDir, tool);
  fs.mkdirSync(dir, { recursive: true });
  const outputs = new Map();
  let bytes = 0;
  const cpu0 = process.cpuUsage();
  const wall0 = process.hrtime.bigint();
  for (const p of pages) {
    try {
      outputs.set(p.name, convert(p.html));
    } catch (err) {
      console.error(`${tool}: ${p.name}: ${err.message}`);
    }
    bytes += p.bytes;
  }
  const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  for (const [name, md] of outputs) {
    fs.writeFileSync(path.join(dir, name + ".md"), md);
  }
  const timing = {
    wall_seconds: wall,
    cpu_seconds: (cpu.user + cpu.system) / 1e6,
    html_bytes: bytes,
    rounds: 1,
    note: `node ${process.version}, in-process conversion loop, one pass`,
  };
  fs.writeFileSync(path.join(dir, "timing.json"), JSON.stringify(timing, null, 2) + "\n");
  console.error(`${tool}: ${pages.length} pages, ${wall.toFixed(2)} s wall, ${timing.cpu_seconds.toFixed(2)} s CPU`);
}

main();
