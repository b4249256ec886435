// Package documents serves the documents generated from a site's YAML
// (package manifest) and hands out the HTML annotations of its pages, for
// every origin the site is served under.
//
// A [Set] generates a site's [manifest.Bundle] once per origin (the
// configured site.origin, else the scheme and host each request was
// addressed to, at most maxOrigins of them) and answers the generated
// documents from memory: the content type, a strong ETag, Last-Modified
// and Cache-Control, 304 on a matching conditional request and HEAD
// without a body (RFC 9110 §13, through http.ServeContent), and
// X-Content-Type-Options: nosniff. A document the origin may override
// (documents.*: origin), and /sitemap.xml, are asked of the origin first
// and served only where it answers 404. /robots.txt is the origin's file
// with the site's additions merged in; an origin file too large or
// malformed to merge is served as the origin sent it.
//
// [Set.Injection] is the negotiate.Handler Inject hook: the site's
// annotations (JSON-LD, <link rel="ard">, <html lang>, WebMCP attributes on
// forms) and, when configured, the page's canonical link.
//
// The package is plain net/http: the caller passes the next handler as a
// negotiate.Next, and says through [Options] how its errors tell a
// missing document and how to read the URL a client asked for.
package documents
