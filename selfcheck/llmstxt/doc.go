// Package llmstxt is everything the scanner knows about /llms.txt. It judges
// the file twice: as Lighthouse's `llms-txt` audit does (Audit: an H1, a link,
// at least 50 characters), and by this project's stricter rule set for the
// `llms_txt` check (Evaluate: 200 text, an H1, at least one Markdown link, and
// direct plain instructions, UAIX `llms_minimal_instruction_required`;
// Describe names a missing rule in a receipt's words). Inspect reads the facts
// both rest on, including the contact line the human_handoff check reads;
// PolicyLine finds the usage-policy line access_policy_declared reads.
//
// The package judges over HTTP results only and imports none of the project's
// other packages.
package llmstxt
