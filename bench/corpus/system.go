package main

import (
	"net/url"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"github.com/agentready/caddy-agentready/internal/o200k"
)

// converterFunc turns one page's HTML into Markdown (or text) in process.
type converterFunc func(html []byte, u *url.URL) (output, error)

// output is one conversion: the Markdown, and how the content was chosen
// when the tool says (convert.Result.Extraction).
type output struct {
	md  []byte
	how string
}

// system is one tool under test. In-process tools have convert set and are
// timed and measured here; external tools (peers) come with their outputs and
// timings already written to a directory.
type system struct {
	name    string
	convert converterFunc
	// outputs and timing hold an external tool's results, keyed by page name.
	outputs map[string][]byte
	timing  *timing
}

// timing is how long a tool took over the whole corpus, and on what.
type timing struct {
	WallSeconds float64 `json:"wall_seconds"`
	CPUSeconds  float64 `json:"cpu_seconds"`
	Bytes       int64   `json:"html_bytes"`
	Rounds      int     `json:"rounds"`
	// Note says what the time covers when it is not the conversion alone.
	Note string `json:"note,omitempty"`
}

// newMarkdownConverter builds the html-to-markdown converter both Go
// pipelines share: base, CommonMark and GFM tables.
func newMarkdownConverter() *converter.Converter {
	return converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(),
	))
}

// newTokenCounter returns an o200k_base token counter, the encoding the
// module's x-markdown-tokens uses.
func newTokenCounter() (func([]byte) int, error) {
	tk, err := o200k.Tokenizer()
	if err != nil {
		return nil, err
	}
	return func(b []byte) int { return len(tk.EncodeOrdinary(string(b))) }, nil
}
