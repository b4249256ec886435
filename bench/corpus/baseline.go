package main

import (
	"bytes"
	"fmt"
	"net/url"

	readability "codeberg.org/readeck/go-readability/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
)

// newBaseline returns the comparison pipeline the issue names: plain
// go-readability extraction, then html-to-markdown on the article node, run
// separately with default options and no front matter or token count. When
// readability finds no article, the output is empty.
func newBaseline() converterFunc {
	conv := newMarkdownConverter()
	return func(html []byte, u *url.URL) (output, error) {
		article, err := readability.FromReader(bytes.NewReader(html), u)
		if err != nil {
			return output{}, fmt.Errorf("readability: %w", err)
		}
		if article.Node == nil {
			return output{how: "none"}, nil
		}
		md, err := conv.ConvertNode(article.Node, converter.WithDomain(u.String()))
		if err != nil {
			return output{}, fmt.Errorf("html-to-markdown: %w", err)
		}
		return output{md: md, how: "readability"}, nil
	}
}
