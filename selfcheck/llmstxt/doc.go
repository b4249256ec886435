// Package llmstxt judges a site's /llms.txt twice: as Lighthouse's `llms-txt`
// audit does (Audit: an H1, a link, at least 50 characters), and by this
// project's stricter rule set for the `llms_txt` check (Evaluate: 200 text, an
// H1, at least one Markdown link, and direct plain instructions, UAIX
// `llms_minimal_instruction_required`). Inspect reads the facts both rest on.
//
// The package judges over HTTP results only and imports none of the project's
// other packages.
package llmstxt
