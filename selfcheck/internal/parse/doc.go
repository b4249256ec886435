// Package parse reads the formats a scanned site answers in, each in one
// bounded pass that never fails on garbage: an HTML page's facts (html.go:
// language, title, head links, JSON-LD blocks, visible text, forms and their
// WebMCP annotations, search surfaces, contact links), JSON-LD nodes
// (jsonld.go), Link header fields and reference resolution (link.go, RFC 8288
// and RFC 3986), robots.txt groups, Sitemap and Content-Signal lines
// (robots.go, RFC 9309), and sitemaps and sitemap indexes (sitemap.go).
//
// The parsers know nothing of HTTP, checks or verdicts: selfcheck fetches,
// parses once per scan, and judges. Every limit (depth, nodes, links, locs,
// lines) is a constant beside the parser it bounds, and each parser has a
// fuzz target beside its tests.
package parse
