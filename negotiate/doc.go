// Package negotiate decides and produces the representation of a page: it
// parses Accept (RFC 9110 §12.5.1), chooses between the HTML and the Markdown
// form, rewrites the validators and the Vary and Link headers that go with
// each form, decodes the origin body (Content-Encoding and charset) and hands
// the HTML to a converter.
//
// The package is plain net/http: Handler.ServeHTTP wraps any next handler,
// so it runs the same under Caddy, under net/http's ServeMux or in a test.
//
// The rules it follows:
//
//   - Markdown is served only when the client ranks text/markdown strictly
//     above text/html (see PrefersMarkdown) or asks for the page's Markdown
//     suffix URL, and only for a 200 HTML response within Options.MaxSize.
//   - Every other response is streamed, never buffered; the HTML form gains
//     headers and, when configured, small head injections (see NewRewriter).
//   - Any failure in decoding or conversion fails open: the origin's bytes go
//     out unchanged and Observer.FailOpen says why.
package negotiate
