// Package score measures how much of an expected text a converter's output
// keeps, and how much it adds, on multisets of lowercase word tokens.
//
// Both sides are reduced to plain text first: the expected side with
// [HTMLText], a converter's Markdown with [MarkdownText] (front matter, link
// targets, bare URLs, image syntax, code-fence info strings and raw tags
// removed). [Words] then splits the text into lowercase tokens: runs of
// letters, digits and combining marks, with every Han, Hiragana and Katakana
// character a token of its own, since those scripts put no spaces between
// words. [Compare] intersects the two multisets.
//
// The package is shared by the Go corpus runner (bench/corpus) and, through
// its -score-dir flag, by the peer converters that bench/peers.sh runs, so
// every tool is scored by the same code.
package score
