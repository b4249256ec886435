package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"

	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
)

// newOurs returns the module's whole conversion pipeline as the handler runs
// it on a 200 text/html response: decode the body (identity coding here,
// within negotiate.DefaultMaxSize), convert it to UTF-8 by the response's
// contentType (or sniffing when it names no charset), then
// convert.Converter.Convert, which extracts the main content, converts it,
// prepends front matter and counts tokens. Options are the defaults with
// front matter on and no JSON-LD block (what is measured is the content),
// plus extraPrune selectors after convert.DefaultPrune.
func newOurs(contentType string, extraPrune []string) (converterFunc, error) {
	opts := convert.Options{FrontMatter: true, Settings: convert.Settings{Prune: extraPrune, JSONLDBlock: convert.Bool(false)}}
	conv, err := convert.New(opts)
	if err != nil {
		return nil, err
	}
	header := http.Header{"Content-Type": {contentType}}
	return func(html []byte, u *url.URL) (output, error) {
		body, err := negotiate.Decode(bytes.NewReader(html), "", negotiate.DefaultMaxSize)
		if err != nil {
			return output{}, err
		}
		if body, err = negotiate.ToUTF8(body, contentType); err != nil {
			return output{}, err
		}
		res, err := conv.Convert(body, u, header)
		if err != nil {
			return output{}, fmt.Errorf("convert: %w", err)
		}
		return output{md: res.Markdown, how: res.Extraction}, nil
	}, nil
}
