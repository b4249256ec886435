package main

import (
	"bytes"
	"net/url"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
)

// newOurs returns the module's conversion pipeline.
//
// Interim: until negotiate/convert lands this converts the whole document
// with html-to-markdown and counts tokens, with no extraction.
func newOurs() (converterFunc, error) {
	conv := newMarkdownConverter()
	count, err := newTokenCounter()
	if err != nil {
		return nil, err
	}
	return func(html []byte, u *url.URL) ([]byte, error) {
		md, err := conv.ConvertReader(bytes.NewReader(html), converter.WithDomain(u.String()))
		if err != nil {
			return nil, err
		}
		_ = count(md)
		return md, nil
	}, nil
}
