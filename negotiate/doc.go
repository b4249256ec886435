// Package negotiate decides and produces the representation of a page: it
// parses Accept (RFC 9110 §12.5.1), chooses between the HTML and the Markdown
// form, rewrites the validators and the Vary and Link headers that go with
// each form, decodes the origin body (Content-Encoding and charset) and hands
// the HTML to a converter.
//
// The package is plain net/http: Handler.ServeHTTP wraps any next handler
// (Caddy's shape: it returns an error), so it runs the same under Caddy, under
// a net/http mux or in a test.
//
// # Which form
//
// Markdown is served only when the client names text/markdown with q > 0
// and does not rank it below text/html, a tie included (see
// PrefersMarkdown), or asks for the page's suffix URL
// (/pricing/md), and only for a 200 HTML answer to a GET within
// Options.MaxSize. Everything else streams through without buffering: the
// HTML form gains headers and, when configured, small head injections
// (package htmlrewrite; a page in one content coding is decoded on the way
// and sent as identity, for a compressing middleware in front to encode
// again); other responses are untouched. Requests with another method
// or asking for a protocol upgrade go to next with the client's own
// ResponseWriter. A request or response with Cache-Control: no-transform is
// never converted or rewritten (RFC 9111 §5.2.1.6, §5.2.2.6); 206 and 1xx
// responses are never touched.
//
// # Vary
//
// Vary: Accept is added to every response of a negotiable request (GET or
// HEAD, no upgrade) whose content could have depended on Accept: both forms
// of a 200 page (including HTML sent because the page was over the cap or
// the conversion failed), every 304 (RFC 9110 §15.4.5: it carries the Vary
// the 200 would), and any other status whose body is HTML or Markdown (a 404
// page's form depends on Accept just as much). It is not added to other
// media types (images, JSON, event streams), to 206 and 1xx responses, to a
// response marked no-transform (we did not and could not negotiate it), nor
// to other methods. An existing "Vary: *" is left alone.
//
// # Validators
//
// The Markdown form's entity tag is the origin's with "-md" inside the quotes
// (MarkdownETag). On the way in, If-None-Match is split (SplitIfNoneMatch):
// for an HTML request our tags are removed; for a Markdown request only our
// tags are forwarded, turned back into the origin's, so an origin 304 means
// the client's Markdown is current and an HTML tag never validates the
// Markdown form. Range and If-Range are removed from Markdown requests. An
// HTML page the rewriter changed keeps a weak form of the origin's tag.
//
// # Failing open
//
// Any failure in decoding, charset conversion or conversion (error, panic,
// or a conversion over its budget: Options.ConvertTimeout,
// Options.MaxMarkdownSize) sends the origin's bytes, still encoded, with the
// origin's headers plus Vary and Link, and reports it to Observer.FailOpen.
// A conversion whose client went away stops (its context is the request's)
// and nothing is written. A response is never cut short or emptied: a
// compressed page is decoded in full before any of it is sent. A browser
// never gets more bytes than the origin sent: a compressed HTML page of at
// most 256 KiB is annotated in its own coding and sent so only if that is
// not larger than the origin's bytes, which otherwise, and for a larger
// page, go out as they came. An error returned by next is returned
// unchanged; a buffered body is then dropped unwritten, so an error
// handler can still answer.
package negotiate
