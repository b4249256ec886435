// Package sitecorpus reads the search benchmark's documentation sites and
// question files, and holds its yardstick, a plain BM25 over each page's
// text: what bench/search and bench/search/dense must read the same way
// for their numbers to be comparable.
package sitecorpus
