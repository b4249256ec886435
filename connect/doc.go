// Package connect serves a site's own content to outside agents: a built-in,
// read-only MCP endpoint (streamable HTTP, the official go-sdk) and an NLWeb
// /ask endpoint, both answered from one full-text index (bleve) of the pages a
// [Source] lists and fetches.
//
// The package is plain net/http: it imports neither Caddy nor the scanner.
// The caller supplies a Source, usually an [HTTPSource] (the pages package
// discover finds, each fetched as Markdown over HTTP; in the Caddy module
// through the site's own handler chain, which converts them), calls
// [Server.Start] to index in the background, and routes the paths
// [Server.Handles] claims to [Server.ServeHTTP]. The Source is also asked
// for "<origin>/llms.txt" on each refresh; when it answers, the text is
// offered as an MCP resource as-is, so a Source should pass that file
// through unconverted.
//
// The index is filled by refreshes: at Start, every [Options.Refresh], and,
// after a refresh fails (the origin down, say), again with capped, jittered
// exponential backoff ([Options.RetryMin], [Options.RetryMax]). A failed
// refresh keeps the last good pages; [Stats.State] says whether the index is
// ok, stale, empty or refreshing. Until it has loaded once, the tools and
// /ask say that it is not ready (/ask: 503 with Retry-After) rather than
// answer an empty result. A host that replaces its Server, as Caddy does on a
// config reload, keeps the index by creating a [Store] and handing it to each
// Server in turn through [Options.Store].
//
// MCP tools (all readOnlyHint): search_site, get_page, list_pages and ask.
// Resources: a template covering every page (text/markdown with front
// matter) and llms.txt. The endpoint is stateless and answers JSON, so no
// per-client session state accumulates.
//
// Everything an anonymous client can trigger is bounded: a token bucket per
// client address (with RateLimit and RateLimit-Policy headers), request body
// and query length caps, JSON-RPC batch caps, result caps, per-request
// timeouts, and an index held within a page and byte budget. Access is public
// by default; with [OAuth] set, every request needs a JWT access token signed
// with a key from the authorization server's JWKS, and each tool may require
// its own scopes. [Server.Tools] states which, for the documents that
// declare the endpoint.
package connect
