package convert

import (
	"net/http"
	"net/url"
)

// dryRunPage is the page DryRun converts: the smallest one with a title
// and main content.
const dryRunPage = "<html><head><title>t</title></head><body><main><p>ok</p></main></body></html>"

// DryRun converts one tiny page, so that a configuration whose converter
// cannot convert fails when it is checked rather than on its first page
// (html-to-markdown reports plugin errors only on a first conversion).
func (c *Converter) DryRun() error {
	_, err := c.Convert([]byte(dryRunPage), &url.URL{Scheme: "http", Host: "localhost", Path: "/"}, http.Header{})
	return err
}
