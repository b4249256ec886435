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
package selfcheck
