// Package manifest reads the site configuration (site.yaml) and generates
// every discovery document from it: /llms.txt, /agents.json and its
// /.well-known twin, /.well-known/ard.json, the robots.txt additions and
// merge, /sitemap.xml, the RFC 9727 api-catalog, RFC 9116 security.txt, the
// MCP server card, the A2A agent card, the agent-skills index with sha256
// digests, RFC 9728 protected resource metadata, and the data the HTML
// rewriter injects (lang, canonical, JSON-LD, WebMCP attributes, rel=ard).
//
// Load or Parse validate a configuration completely, reporting every problem
// as "file:line: field: message" (see Errors); Default is the configuration
// of an empty file. Site.Generate renders a Bundle for one Env: the caller
// serves its Documents with the content type and Cache-Control they carry,
// serves Sitemap only when the origin has none, merges the origin's
// robots.txt with Bundle.MergeRobots and applies Inject to HTML pages.
//
// The package is plain Go: it imports no Caddy package and does no network
// I/O. The schema is documented in docs/configuration.md.
package manifest
