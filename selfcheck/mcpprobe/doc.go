// Package mcpprobe is everything the scanner knows about MCP. Its core is the
// `mcp_transport` probe: it speaks the MCP Streamable HTTP transport
// (protocol revisions 2025-03-26, 2025-06-18 and 2025-11-25) directly, so the
// receipt can record what an SDK would hide: the version offered, returned and
// negotiated, the raw handshake (redacted), the session the server assigns,
// and how it announces sign-in (RFC 9728 protected-resource metadata, RFC 8414
// authorization-server metadata or its OpenID Connect fallback, PKCE methods,
// dynamic client registration).
//
// It only ever sends initialize, notifications/initialized, tools/list and a
// session DELETE: it never signs in and never calls a tool (STANDARD §5 rule 1),
// so tested execution is always reported as not tested.
//
// Around the probe: where a site names its endpoint (discover.go: a capability
// card's interfaces, a server card's remotes), what a result means for the
// checks (findings.go: unreachable, needs a token, the §4 summary lines), and
// the server card's v1 JSON Schema (servercard.go, schema/).
//
// Files: probe.go (the session), rpc.go and sse.go (JSON-RPC over JSON or an
// event stream), auth.go (sign-in discovery), redact.go (what a receipt may
// show), result.go (the receipt's shape).
package mcpprobe
