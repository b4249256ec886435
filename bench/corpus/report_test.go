package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentready/caddy-agentready/bench/score"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fixedReport is a small report with every column filled, two tools, and the
// baseline present so the worst-decile target line is printed.
func fixedReport() *report {
	ours := []pageResult{
		{Page: "good", HTMLBytes: 1000, OutBytes: 100, ByteRatio: 0.1, HTMLTokens: 300, OutTokens: 30, TokenRatio: 0.1,
			Result: score.Result{Expected: 10, Output: 10, Common: 10, Recall: 1, Precision: 1, F1: 1}, Extraction: "landmark:main", AllocBytes: 40960},
		{Page: "chrome", HTMLBytes: 2000, OutBytes: 400, ByteRatio: 0.2, HTMLTokens: 600, OutTokens: 120, TokenRatio: 0.2,
			Result: score.Result{Expected: 10, Output: 20, Common: 10, Recall: 1, Precision: 0.5, F1: 2.0 / 3}, Extraction: "landmark:article", AllocBytes: 81920},
		{Page: "failed", HTMLBytes: 500, Result: score.Result{Expected: 5}, Err: "convert: page has no content", AllocBytes: 1024},
	}
	base := []pageResult{
		{Page: "good", HTMLBytes: 1000, OutBytes: 90, Result: score.Result{Recall: 1, Precision: 1, F1: 1}},
		{Page: "chrome", HTMLBytes: 2000, OutBytes: 200, Result: score.Result{Recall: 1, Precision: 1, F1: 1}},
		{Page: "failed", HTMLBytes: 500, OutBytes: 50, Result: score.Result{Recall: 1, Precision: 1, F1: 1}},
	}
	t := &timing{WallSeconds: 0.2, CPUSeconds: 0.1, Bytes: 3500000, Rounds: 1}
	return &report{
		Machine: machine{Date: "2026-11-29T17:00:00Z", CPUs: 2, Usable: 1, CPUModel: "Test CPU", GoVersion: "go1.26.8",
			Platform: "linux/amd64", LoadAvg: "0.00 0.00 0.00 1/1 1", MaxRSSBytes: 50e6},
		Corpus: "/corpus", Pages: 3,
		Summaries: []summary{summarize(oursName, ours, t), summarize(baselineName, base, nil)},
		Results:   map[string][]pageResult{oursName: ours, baselineName: base},
	}
}

func TestReportTextGolden(t *testing.T) {
	var buf bytes.Buffer
	fixedReport().writeText(&buf, true)
	golden := filepath.Join("testdata", "report.txt")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("reading golden file (run with -update to create it): %v", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("report differs from %s:\n%s", golden, buf.String())
	}
}

func TestReportJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := fixedReport().writeJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Summaries []summary               `json:"summaries"`
		Results   map[string][]pageResult `json:"results"`
	}
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatalf("report JSON does not parse: %v", err)
	}
	if len(back.Summaries) != 2 || back.Summaries[0].Name != oursName || back.Summaries[0].Errors != 1 {
		t.Errorf("summaries = %+v", back.Summaries)
	}
	if got := back.Results[oursName][1]; got.Extraction != "landmark:article" || got.Precision != 0.5 {
		t.Errorf("second page = %+v", got)
	}
}
