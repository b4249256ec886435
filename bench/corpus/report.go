package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Targets from the conversion issue.
const (
	targetRecall    = 0.98
	targetPrecision = 0.93
	targetMBPerSec  = 20.0
)

// report is everything one run measured; it is printed as text or JSON.
type report struct {
	Machine   machine                 `json:"machine"`
	Corpus    string                  `json:"corpus"`
	Pages     int                     `json:"pages"`
	Summaries []summary               `json:"summaries"`
	Results   map[string][]pageResult `json:"results"`
}

func (r *report) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// writeText prints the per-page table of the first tool (when perPage), the
// summary table of all tools in Markdown, the first tool's worst decile and
// the targets.
func (r *report) writeText(w io.Writer, perPage bool) {
	m := r.Machine
	fmt.Fprintf(w, "date: %s\nmachine: %d CPUs (%d usable), %s, %s, %s, loadavg %s\ncorpus: %s (%d pages)\n\n",
		m.Date, m.CPUs, m.Usable, m.CPUModel, m.GoVersion, m.Platform, m.LoadAvg, r.Corpus, r.Pages)
	first := r.Summaries[0].Name
	if perPage {
		fmt.Fprintf(w, "%s, per page:\n", first)
		writePages(w, r.Results[first])
		fmt.Fprintln(w)
	}
	writeSummaryTable(w, r.Summaries)
	fmt.Fprintf(w, "\n%s, worst decile by F1:\n", first)
	writePages(w, worst(r.Results[first], max(1, r.Pages/10)))
	fmt.Fprintln(w)
	r.writeTargets(w)
	if m.MaxRSSBytes > 0 {
		fmt.Fprintf(w, "\nrunner peak RSS: %.1f MB\n", float64(m.MaxRSSBytes)/1e6)
	}
}

func writePages(w io.Writer, results []pageResult) {
	line := func(format string, args ...any) {
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf(format, args...), " "))
	}
	line("%-44s %9s %9s %6s %6s %6s %6s %6s %9s  %-18s %s",
		"page", "html B", "out B", "bytes", "tokens", "recall", "prec", "F1", "alloc KB", "extraction", "error")
	for _, p := range results {
		line("%-44s %9d %9d %6.3f %6.3f %6.3f %6.3f %6.3f %9.0f  %-18s %s",
			p.Page, p.HTMLBytes, p.OutBytes, p.ByteRatio, p.TokenRatio,
			p.Recall, p.Precision, p.F1, float64(p.AllocBytes)/1024, p.Extraction, p.Err)
	}
}

// writeSummaryTable prints one Markdown table row per tool.
func writeSummaryTable(w io.Writer, sums []summary) {
	fmt.Fprintln(w, "| tool | MB/s (CPU) | MB/s (wall) | output bytes | median recall | median precision | median F1 | p10 F1 | worst-decile mean F1 | median bytes out/in | median tokens out/in | heap per conversion |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, s := range sums {
		alloc := "—"
		if s.MaxAllocBytes > 0 {
			alloc = fmt.Sprintf("≤ %.1f MB, median %.1f MB", float64(s.MaxAllocBytes)/1e6, s.MedianAllocBytes/1e6)
			if s.MaxAllocPerHTMLByte > 0 {
				alloc += fmt.Sprintf(", ≤ %.0f× page", s.MaxAllocPerHTMLByte)
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %s |\n",
			s.Name, rate(s.MBPerSecCPU), rate(s.MBPerSecWall), s.OutputBytes,
			s.MedianRecall, s.MedianPrecision, s.MedianF1, s.P10F1, s.WorstDecileF1,
			s.MedianByteRatio, s.MedianTokenRatio, alloc)
	}
}

func rate(v float64) string {
	if v == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f", v)
}

// writeTargets checks the first tool against the targets; the
// worst-decile target needs the baseline in the same run.
func (r *report) writeTargets(w io.Writer) {
	ours := r.Summaries[0]
	check := func(ok bool) string {
		if ok {
			return "met"
		}
		return "MISSED"
	}
	fmt.Fprintf(w, "targets for %s:\n", ours.Name)
	fmt.Fprintf(w, "  median recall    %.3f (≥ %.2f) %s\n", ours.MedianRecall, targetRecall, check(ours.MedianRecall >= targetRecall))
	fmt.Fprintf(w, "  median precision %.3f (≥ %.2f) %s\n", ours.MedianPrecision, targetPrecision, check(ours.MedianPrecision >= targetPrecision))
	if ours.MBPerSecCPU > 0 {
		fmt.Fprintf(w, "  throughput       %.1f MB/s per CPU second, one core (≥ %.0f) %s\n", ours.MBPerSecCPU, targetMBPerSec, check(ours.MBPerSecCPU >= targetMBPerSec))
	}
	for _, s := range r.Summaries[1:] {
		if strings.HasPrefix(s.Name, baselineName) {
			fmt.Fprintf(w, "  worst-decile F1  %.3f vs %s %.3f (mean of worst tenth; p10 %.3f vs %.3f) %s\n",
				ours.WorstDecileF1, s.Name, s.WorstDecileF1, ours.P10F1, s.P10F1, check(ours.WorstDecileF1 > s.WorstDecileF1))
		}
	}
}
