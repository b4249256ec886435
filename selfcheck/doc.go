// Package selfcheck is the scanner of the agent-readiness standard
// (STANDARD.md, revision 1.2): it judges any website over HTTP only, runs the
// 35 checks of the catalogue (27 scored, 8 optional), scores them out of 100
// across six sections, and keeps a receipt behind every verdict.
//
// One scan produces one [Report]; the report renders itself as JSON
// ([Report.JSON]), Markdown ([Report.Markdown]) and a self-contained HTML page
// ([Report.HTML]), so the three forms always agree (rule 2 of the standard).
//
// The scanner never signs in, never calls a tool, and never records
// credentials: request and response headers that carry them, and token-like
// query parameters, are redacted before they reach a receipt.
//
// # Layout
//
// A scan runs in stages: fetch, parse, judge (one lens after another), score,
// render. The files of this package are named by stage, and everything about
// one protocol or format lives in one folder.
//
//   - scan.go: [Scan], from the target to the finished report; [Options]
//     and their defaults; the state one scan shares between checks (the
//     routes, each page fetched and parsed once: parse.HTML, parse.JSONLD).
//   - fetch.go: the scan's one HTTP client (bounded concurrency, timeouts,
//     body cap, redirect limits, a memoising cache: every answer is fetched
//     once and shared by every check), and what a receipt may never show
//     (credential headers and parameters redacted).
//   - documents.go: the site's documents, each fetched and parsed once:
//     robots.txt, sitemap, agents.json (both addresses), JSON documents, the
//     MCP server card, llms.txt, the MCP endpoint and its probe, whether the
//     site offers a backend at all (R9 and the interface checkpoints are
//     NOT_APPLICABLE when it does not), the OpenAPI document and how its
//     operations are judged.
//   - lens.go: a lens is a catalogue of checkpoints with verdicts of its own,
//     run over the one shared site; the 100-point lens and how its checks
//     run. catalogue.go lists its 35 checks (ids, sections, weights);
//     checks_content.go implements the sections discover, read and
//     understand, checks_interact.go act, connect, trust and the optional
//     checks (their tests in checks_test.go); routes.go picks the routes and
//     is how a page-level check decides, one route at a time.
//   - report.go: the one result object, its verdicts, the score that weighs
//     them and the receipts, the evidence behind every verdict.
//   - render.go: its renderings (JSON, Markdown, HTML, and the receipt text
//     and verdict symbols the Markdown and HTML forms share); render_ci.go:
//     the SARIF 2.1.0 and JUnit renderings for CI.
//   - plan.go: the fix-first plan the report opens with, and the causes a
//     check records when it does not pass.
//   - standard.go: docs/standard.md, generated from the catalogues.
//   - cli.go: the `scan` command line (flags, output format, exit codes).
//
// Folders:
//
//   - ard/: the ARD (ard.json) audit, as Lighthouse's ard-schema runs it.
//   - llmstxt/: everything about /llms.txt: Lighthouse's llms-txt audit, the
//     llms_txt rule set, the facts (H1, links, instructions, contact and
//     policy lines) other checks read.
//   - mcpprobe/: everything about MCP: the Streamable HTTP probe, where a site
//     names its endpoint, what a probe result means, the server card schema.
//   - internal/parse/: the formats pages and documents come in (HTML facts,
//     JSON-LD, Link headers, robots.txt, sitemaps), bounded and fuzzed.
//   - internal/golden/: the golden-file helper of the tests (-update).
//
// The further lenses report beside the score and never change it:
//
//   - protocol_catalogue.go: the protocol lens, the 28 agent-protocol
//     checkpoints of STANDARD.md §11 with their fix and verify command, and
//     the interface checkpoints; protocol_discovery.go the discovery and
//     commerce checkpoints (lens_test.go holds their table as data).
//   - lint_rules.go: the lint lens, the 20 UAIX agent-compatibility rules of
//     §12 and the L0–L7 executability ladder.
//
// A lens holds its catalogue, its run and where its findings go in the
// [Report], and is appended to lenses. Checkpoints read the same site
// documents (documents.go) and the same scored outcomes (site.scored) as the
// scored checks, so where both judge the same thing they agree
// (TestLensesAgree). Only the 100-point lens changes the score.
package selfcheck
