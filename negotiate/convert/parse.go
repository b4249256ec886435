package convert

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// MaxDepth is the deepest element nesting Convert accepts. The HTML parser
// itself refuses more than 512 open elements; conversion and readability
// recurse over the tree, so the limit is checked again on the parsed tree.
const MaxDepth = 512

// Errors Convert returns; the caller answers with the original HTML.
var (
	// ErrTooDeep means the page nests elements deeper than MaxDepth.
	ErrTooDeep = errors.New("convert: markup nested too deeply")
	// ErrNoContent means the page is a script-only application shell: it
	// has scripts and no text to convert, not even in a <noscript>. (An
	// empty page without scripts converts to its front matter and an
	// empty body.) Its FailOpenReason is "no_content".
	ErrNoContent error = &reasonError{
		msg:    "convert: page has no content: no text in its HTML outside scripts (an application shell that renders its content with JavaScript)",
		reason: "no_content",
	}
)

// reasonError is an error that names the fail-open reason the proxy counts
// it under (negotiate reads it through a FailOpenReason method, without
// importing this package).
type reasonError struct{ msg, reason string }

func (e *reasonError) Error() string { return e.msg }

// FailOpenReason is the reason the proxy reports when it answers with the
// page's HTML because of this error.
func (e *reasonError) FailOpenReason() string { return e.reason }

// parse parses the page (made valid UTF-8 first: the parser and the
// converter assume it) and checks the tree's depth.
func parse(page []byte) (*html.Node, error) {
	if !utf8.Valid(page) {
		page = bytes.ToValidUTF8(page, []byte("\uFFFD"))
	}
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		if strings.Contains(err.Error(), "exceeds") {
			return nil, fmt.Errorf("%w: %v", ErrTooDeep, err)
		}
		return nil, fmt.Errorf("convert: parsing html: %w", err)
	}
	if depthExceeds(doc, MaxDepth) {
		return nil, ErrTooDeep
	}
	return doc, nil
}

// depthExceeds reports whether the tree under n is deeper than limit,
// without recursion.
func depthExceeds(n *html.Node, limit int) bool {
	depth := 0
	for n != nil {
		if n.FirstChild != nil {
			n = n.FirstChild
			if depth++; depth > limit {
				return true
			}
			continue
		}
		for n != nil && n.NextSibling == nil {
			n = n.Parent
			depth--
		}
		if n != nil {
			n = n.NextSibling
		}
	}
	return false
}
