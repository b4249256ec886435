package main

import (
	"fmt"
	"io"
)

// writeKinds prints a Markdown table of per-kind results.
func writeKinds(w io.Writer, res *loadResult) {
	fmt.Fprintln(w, "| request | count | errors | p50 ms | p99 ms | max ms |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	for _, k := range res.Kinds {
		fmt.Fprintf(w, "| %s | %d | %d | %.2f | %.2f | %.2f |\n", k.Name, k.Count, k.Errors,
			ms(k.Lat.percentile(50)), ms(k.Lat.percentile(99)), ms(k.Lat.percentile(100)))
	}
	for _, k := range res.Kinds {
		if k.FirstError != "" {
			fmt.Fprintf(w, "\nfirst error of %s: %s\n", k.Name, k.FirstError)
		}
	}
}
