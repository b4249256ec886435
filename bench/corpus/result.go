package main

import (
	"sort"

	"github.com/agentready/caddy-agentready/bench/score"
)

// ratioMinBytes is the smallest page counted in MaxAllocPerHTMLByte.
const ratioMinBytes = 64 << 10

// pageResult is one tool's output for one page, scored.
type pageResult struct {
	Page       string  `json:"page"`
	HTMLBytes  int     `json:"html_bytes"`
	OutBytes   int     `json:"output_bytes"`
	ByteRatio  float64 `json:"byte_ratio"`
	HTMLTokens int     `json:"html_tokens"`
	OutTokens  int     `json:"output_tokens"`
	TokenRatio float64 `json:"token_ratio"`
	score.Result
	// Extraction says how the tool chose the content, when it says.
	Extraction string `json:"extraction,omitempty"`
	// AllocBytes bounds the peak heap of this one conversion (in-process
	// tools only; see measureAlloc).
	AllocBytes uint64 `json:"alloc_bytes,omitempty"`
	Err        string `json:"error,omitempty"`
}

// summary aggregates one tool's results over the corpus.
type summary struct {
	Name            string  `json:"name"`
	Pages           int     `json:"pages"`
	Errors          int     `json:"errors"`
	HTMLBytes       int64   `json:"html_bytes"`
	OutputBytes     int64   `json:"output_bytes"`
	MedianRecall    float64 `json:"median_recall"`
	MedianPrecision float64 `json:"median_precision"`
	MedianF1        float64 `json:"median_f1"`
	// P10F1 is the F1 below which the worst tenth of pages falls.
	P10F1 float64 `json:"p10_f1"`
	// WorstDecileF1 is the mean F1 of the worst tenth of pages.
	WorstDecileF1    float64 `json:"worst_decile_mean_f1"`
	MedianByteRatio  float64 `json:"median_byte_ratio"`
	MedianTokenRatio float64 `json:"median_token_ratio"`
	// MBPerSecCPU is HTML megabytes (10^6 bytes) per CPU second, the figure
	// least disturbed by other load on a shared machine; MBPerSecWall is per
	// elapsed second.
	MBPerSecCPU  float64 `json:"mb_per_s_cpu,omitempty"`
	MBPerSecWall float64 `json:"mb_per_s_wall,omitempty"`
	Timing       *timing `json:"timing,omitempty"`
	// MaxAllocBytes bounds the peak heap of a single conversion over the
	// corpus; MaxAllocPerHTMLByte bounds it relative to the page's size, over
	// pages of at least ratioMinBytes (below that a fixed cost dominates).
	MaxAllocBytes       uint64  `json:"max_alloc_bytes,omitempty"`
	MaxAllocPerHTMLByte float64 `json:"max_alloc_per_html_byte,omitempty"`
	MedianAllocBytes    float64 `json:"median_alloc_bytes,omitempty"`
}

// scorePage scores one output against the page's expected words.
func scorePage(p *page, o output, err error, countTokens func([]byte) int) pageResult {
	out := o.md
	r := pageResult{
		Page:       p.name,
		Extraction: o.how,
		HTMLBytes:  len(p.html),
		OutBytes:   len(out),
		HTMLTokens: p.htmlToks,
		OutTokens:  countTokens(out),
		Result:     score.Compare(p.expected, score.Words(score.MarkdownText(out))),
	}
	if err != nil {
		r.Err = err.Error()
	}
	if r.HTMLBytes > 0 {
		r.ByteRatio = float64(r.OutBytes) / float64(r.HTMLBytes)
	}
	if r.HTMLTokens > 0 {
		r.TokenRatio = float64(r.OutTokens) / float64(r.HTMLTokens)
	}
	return r
}

// summarize aggregates per-page results and the tool's timing.
func summarize(name string, results []pageResult, t *timing) summary {
	s := summary{Name: name, Pages: len(results), Timing: t}
	var rec, prec, f1, br, tr, alloc []float64
	for _, r := range results {
		if r.Err != "" {
			s.Errors++
		}
		s.HTMLBytes += int64(r.HTMLBytes)
		s.OutputBytes += int64(r.OutBytes)
		rec = append(rec, r.Recall)
		prec = append(prec, r.Precision)
		f1 = append(f1, r.F1)
		br = append(br, r.ByteRatio)
		tr = append(tr, r.TokenRatio)
		if r.AllocBytes > 0 {
			alloc = append(alloc, float64(r.AllocBytes))
			s.MaxAllocBytes = max(s.MaxAllocBytes, r.AllocBytes)
			if r.HTMLBytes >= ratioMinBytes {
				s.MaxAllocPerHTMLByte = max(s.MaxAllocPerHTMLByte, float64(r.AllocBytes)/float64(r.HTMLBytes))
			}
		}
	}
	s.MedianRecall, s.MedianPrecision, s.MedianF1 = median(rec), median(prec), median(f1)
	s.P10F1, s.WorstDecileF1 = quantile(f1, 0.1), worstDecileMean(f1)
	s.MedianByteRatio, s.MedianTokenRatio = median(br), median(tr)
	if len(alloc) > 0 {
		s.MedianAllocBytes = median(alloc)
	}
	if t != nil {
		mb := float64(t.Bytes) / 1e6
		if t.CPUSeconds > 0 {
			s.MBPerSecCPU = mb / t.CPUSeconds
		}
		if t.WallSeconds > 0 {
			s.MBPerSecWall = mb / t.WallSeconds
		}
	}
	return s
}

// worst returns the n results with the lowest F1, worst first.
func worst(results []pageResult, n int) []pageResult {
	s := append([]pageResult(nil), results...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].F1 < s[j].F1 })
	return s[:min(n, len(s))]
}
