package main

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentready/caddy-agentready/bench/score"
)

func countBytes(b []byte) int { return len(b) }

func TestScorePage(t *testing.T) {
	p := &page{name: "p", html: make([]byte, 1000), htmlToks: 200, expected: score.Words("alpha beta gamma delta")}
	tests := []struct {
		name                  string
		out                   string
		err                   error
		recall, precision, f1 float64
		byteRatio, tokenRatio float64
		wantErr               bool
	}{
		{name: "exact text in markdown", out: "# Alpha beta\n\n[gamma](https://x.example) *delta*",
			recall: 1, precision: 1, f1: 1, byteRatio: 0.048, tokenRatio: 0.24},
		{name: "chrome added", out: "home alpha beta gamma delta menu login footer",
			recall: 1, precision: 0.5, f1: 2.0 / 3, byteRatio: 0.045, tokenRatio: 0.225},
		{name: "failed conversion", err: errors.New("boom"), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := scorePage(p, output{md: []byte(tt.out)}, tt.err, countBytes)
			if (r.Err != "") != tt.wantErr {
				t.Errorf("Err = %q, want error %v", r.Err, tt.wantErr)
			}
			near := func(a, b float64) bool { return math.Abs(a-b) < 1e-3 }
			if !near(r.Recall, tt.recall) || !near(r.Precision, tt.precision) || !near(r.F1, tt.f1) ||
				!near(r.ByteRatio, tt.byteRatio) || !near(r.TokenRatio, tt.tokenRatio) {
				t.Errorf("got recall %.3f precision %.3f F1 %.3f bytes %.3f tokens %.3f", r.Recall, r.Precision, r.F1, r.ByteRatio, r.TokenRatio)
			}
		})
	}
}

func TestSummarize(t *testing.T) {
	var results []pageResult
	for i := range 10 {
		f := float64(i+1) / 10 // 0.1 … 1.0
		results = append(results, pageResult{
			Page: string(rune('a' + i)), HTMLBytes: 1000, OutBytes: 100,
			Result:     score.Result{Recall: f, Precision: 1, F1: f},
			AllocBytes: uint64(1000 * (i + 1)),
		})
	}
	results[3].Err = "failed"
	s := summarize("x", results, &timing{WallSeconds: 2, CPUSeconds: 1, Bytes: 40e6})
	want := summary{Name: "x", Pages: 10, Errors: 1, HTMLBytes: 10000, OutputBytes: 1000,
		MedianRecall: 0.55, MedianPrecision: 1, MedianF1: 0.55, WorstDecileF1: 0.1,
		MBPerSecCPU: 40, MBPerSecWall: 20, MaxAllocBytes: 10000, MaxAllocPerHTMLByte: 10}
	if s.Pages != want.Pages || s.Errors != want.Errors || s.HTMLBytes != want.HTMLBytes ||
		s.OutputBytes != want.OutputBytes || s.MaxAllocBytes != want.MaxAllocBytes {
		t.Errorf("counts: got %+v", s)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"median recall", s.MedianRecall, want.MedianRecall},
		{"median F1", s.MedianF1, want.MedianF1},
		{"worst decile", s.WorstDecileF1, want.WorstDecileF1},
		{"MB/s cpu", s.MBPerSecCPU, want.MBPerSecCPU},
		{"MB/s wall", s.MBPerSecWall, want.MBPerSecWall},
		{"alloc per byte (pages too small to count)", s.MaxAllocPerHTMLByte, 0},
	} {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	big := append(results, pageResult{Page: "big", HTMLBytes: 100 << 10, AllocBytes: 3 * 100 << 10})
	if got := summarize("x", big, nil).MaxAllocPerHTMLByte; got != 3 {
		t.Errorf("alloc per byte with a 100 KiB page = %v, want 3", got)
	}
	if w := worst(results, 2); w[0].Page != "a" || w[1].Page != "b" {
		t.Errorf("worst = %v, %v; want a, b", w[0].Page, w[1].Page)
	}
}

func TestLoadPeers(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pandoc/page-1.md", "# One")
	write("pandoc/timing.json", `{"wall_seconds": 2.5, "cpu_seconds": 2, "html_bytes": 100, "rounds": 1}`)
	write("turndown/page-1.md", "one")
	write("stray.txt", "not a tool")

	peers, err := loadPeers(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(peers) != 2 || peers[0].name != "pandoc" || peers[1].name != "turndown" {
		t.Fatalf("peers = %v", peers)
	}
	if got := string(peers[0].outputs["page-1"]); got != "# One" {
		t.Errorf("pandoc output = %q", got)
	}
	if tm := peers[0].timing; tm == nil || tm.WallSeconds != 2.5 || tm.Bytes != 100 {
		t.Errorf("pandoc timing = %+v", tm)
	}
	if peers[1].timing != nil {
		t.Errorf("turndown has no timing.json but got %+v", peers[1].timing)
	}

	write("broken/timing.json", "{")
	if _, err := loadPeers(dir); err == nil {
		t.Error("want an error for a malformed timing.json")
	}
}
