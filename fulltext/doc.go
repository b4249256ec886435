// Package fulltext is a small in-memory full-text index for the pages of one
// site: a few thousand documents, built at once and then only read.
//
// A [Document] has a title, a description, a URL path and sections (a
// heading and its text). [Build] tokenizes them (runs of letters and
// digits, lower-cased, and runs joined by '.', '-' or '_' also whole: 3.11,
// os.path, git-commit), drops English stop words and stems each word with
// the Snowball stemmer of the site's language, and keeps, per term, one
// compact postings list: varint-coded document gaps, the term's frequency
// in each field (title with description, headings, path, body) and its
// positions in the body. The index holds the documents' strings as given
// (no copy), so its own cost is the postings, about half the text.
//
// A page without a description that is a manual page has its NAME line
// counted as one (see Document.Description).
//
// [Index.Search] ranks with BM25F (Robertson, Zaragoza and Taylor, "Simple
// BM25 extension to multiple weighted fields", CIKM 2004): each field's term
// frequency is normalised by the field's length and weighted, the sum is
// saturated once per term, so a word in the title counts more than one in
// the body without a page full of it winning. The matching pages are also
// ranked by query likelihood with Dirichlet smoothing over the same
// weighted fields, and the two rankings are merged by weighted reciprocal
// rank fusion (fusion.go): BM25F's order decides where the two disagree
// by little. Each result carries the
// heading of its best-matching section (where the query's terms of most
// weight stand closest together) and a snippet of the text there. A
// proximity boost to the score (BM25TP), a field for a page's first words,
// each section scored as a document of its own, and the text of links to
// a page, pseudo-relevance feedback (RM3), a minimal-distance proximity,
// DFR's DPH and the section ranking fused as a third were tried and left
// out: each helped one development site and hurt another, or hurt all
// (docs/benchmarks.md).
//
// An Index is immutable and safe for concurrent use: a caller that wants
// fresh results builds a new one and swaps it in.
package fulltext
