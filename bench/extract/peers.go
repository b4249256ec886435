package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// The peers (turndown, node-html-markdown, pandoc, html2text) are not Go:
// bench/extract/peers.sh runs them over the pages that -list names, one
// directory per corpus and tool, and -peers scores what they wrote.

// peerDir is where the peers' outputs are read from (-peers): for each
// corpus, <corpus>/<tool>/<key>.md and <corpus>/<tool>/timing.json.
var peerDir string

// keepDir is where -keep writes agent_ready's Markdown of every page
// (<corpus>/agent_ready/<page name>.md), to read why a page scores as it does.
var keepDir string

// pageKey names the i-th page of a corpus in -list and in peerDir.
func pageKey(i int) string { return fmt.Sprintf("%04d", i) }

// listPages writes dir/<corpus>/pages.tsv: "key<TAB>path of the HTML"
// (given by path) for every page of the corpus (after -sample and -match,
// which must be the same when the outputs are scored).
func listPages[P any](dir, corpus string, pages []P, path func(P) string) error {
	if err := os.MkdirAll(filepath.Join(dir, corpus), 0o755); err != nil {
		return err
	}
	var b strings.Builder
	for i, p := range pages {
		fmt.Fprintf(&b, "%s\t%s\n", pageKey(i), path(p))
	}
	return os.WriteFile(filepath.Join(dir, corpus, "pages.tsv"), []byte(b.String()), 0o644)
}

// peerTools returns a tool for every directory under peerDir/<any corpus>
// that holds a timing.json, by its name.
func peerTools() []tool {
	seen := map[string]bool{}
	var out []tool
	m, _ := filepath.Glob(filepath.Join(peerDir, "*", "*", "timing.json"))
	for _, f := range m {
		name := filepath.Base(filepath.Dir(f))
		if !seen[name] {
			seen[name] = true
			out = append(out, tool{name: name, peer: true})
		}
	}
	return out
}

// timing is what peers.sh and bench/peers/convert.js write for a tool's
// pass over a corpus.
type timing struct {
	CPUSeconds float64 `json:"cpu_seconds"`
	HTMLBytes  float64 `json:"html_bytes"`
}

// convertAll converts every page with t: in process for ours and the
// libraries (timed, see timed), from peerDir for a peer (its MB/s is the
// one its timing.json gives). It returns the outputs, the extraction path
// of each (agent_ready only), the number of errors and the MB/s; with
// -slowest it lists agent_ready's slowest pages (names gives their names).
func convertAll(t tool, corpus string, names []string, inputs [][]byte, u func(int) *url.URL) (outs [][]byte, how []string, errs int, mbps float64) {
	outs, how = make([][]byte, len(inputs)), make([]string, len(inputs))
	if t.peer {
		for i := range inputs {
			b, err := os.ReadFile(filepath.Join(peerDir, corpus, t.name, pageKey(i)+".md"))
			if err != nil {
				errs++
			}
			outs[i] = b
		}
		var tm timing
		if b, err := os.ReadFile(filepath.Join(peerDir, corpus, t.name, "timing.json")); err == nil && json.Unmarshal(b, &tm) == nil && tm.CPUSeconds > 0 {
			mbps = tm.HTMLBytes / 1e6 / tm.CPUSeconds
		}
		return outs, how, errs, mbps
	}
	failed := make([]bool, len(inputs))
	mbps, per := timed(inputs, func(i int) {
		md, err := t.convert(inputs[i], u(i))
		outs[i], how[i], failed[i] = md, lastExtraction, err != nil
	})
	for _, f := range failed {
		if f {
			errs++
		}
	}
	reportSlowest(corpus, t, names, inputs, u, per, how)
	if keepDir != "" && t.name == "agent_ready" {
		dir := filepath.Join(keepDir, corpus, t.name)
		if err := os.MkdirAll(dir, 0o755); err == nil {
			for i, md := range outs {
				_ = os.WriteFile(filepath.Join(dir, strings.ReplaceAll(names[i], "/", "_")+".md"), md, 0o644)
			}
		}
	}
	return outs, how, errs, mbps
}

// heapText is maxAlloc for the tools that run in this process.
func heapText(t tool, inputs [][]byte, u func(int) *url.URL) string {
	if t.peer {
		return "— (own process)"
	}
	return maxAlloc(t, inputs, u)
}
