// Package browser holds the browser tests of the agent_ready pages a person
// opens: the self-score report and the Agents view, loaded in headless
// Chromium through a Caddy that runs in the test's process.
//
// It is a module of its own (with a replace to the repository root) so that
// the browser driver, chromedp, and its protocol bindings stay out of the
// module a Caddy build imports: `go mod graph` at the root does not list
// them. Run its tests from this directory: `go test ./...`.
package browser
