// Package htmlrewrite adds small things to an HTML page as it streams
// through: a lang attribute on <html>, elements at the end of the head,
// attributes on forms and their fields (an Injection). Every byte of the
// page goes out as it came, in order; the rewrite only inserts.
//
// A Rewriter (New) is an io.Writer: each Write passes on at once all but
// the incomplete tag it ends with, so a page streams as it arrives, in
// bounded memory and without a goroutine. It finds the tags on
// a push-driven port of golang.org/x/net/html's tokenizer, which the tests
// and FuzzTokenizer hold to x/net/html's tokens, byte for byte, however the
// input is cut.
//
// RewritePage rewrites a page held whole and, given a PlanCache, records
// where it inserted bytes, so that the same page with the same Injection
// is next rewritten by copying, without reading it as HTML again.
//
// The package reads HTML only: decoding a content coding or a charset is
// the caller's (package negotiate decodes in front of the Rewriter).
package htmlrewrite
