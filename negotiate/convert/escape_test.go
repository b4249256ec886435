package convert

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
)

// TestMinimalEscaping converts paragraphs and checks both the Markdown
// (no backslash that guards nothing) and its meaning: a CommonMark parser
// (goldmark) must read it back to the same HTML.
func TestMinimalEscaping(t *testing.T) {
	c := mustNew(t, Options{})
	tests := []struct {
		html, md string
	}{
		{`<p><strong>Bold</strong><em>Italic</em></p>`, `**Bold***Italic*`},
		{`<p><em>Italic</em><strong>Bold</strong></p>`, `*Italic***Bold**`},
		{`<p>LARGE_PAGE_END_TOKEN_1M</p>`, `LARGE_PAGE_END_TOKEN_1M`},
		{`<p>snake_case and user_id_2 and café_crème</p>`, `snake_case and user_id_2 and café_crème`},
		{`<p>the footnote [1] and [citation needed].</p>`, `the footnote [1] and [citation needed].`},
		{`<p>__init__ is a method</p>`, `\_\_init\__ is a method`},
		{`<p>Literal *stars* and _under_ x</p>`, `Literal \*stars* and \_under_ x`},
		{`<p>2*3*4</p>`, `2\*3\*4`},
		{`<p>a [fake](link) here</p>`, `a \[fake](link) here`},
		{`<p>a [ref][x] here</p>`, `a \[ref][x] here`},
		{`<p>[def]: /url</p>`, `\[def]: /url`},
		{`<p>1. not a list</p>`, `1\. not a list`},
		{`<p># not a heading</p>`, `\# not a heading`},
		{`<p>x <code>a_b</code> y</p>`, "x `a_b` y"},
	}
	for _, tt := range tests {
		t.Run(tt.html, func(t *testing.T) {
			res, err := c.Convert([]byte(tt.html), testURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.TrimSpace(string(res.Markdown))
			if got != tt.md {
				t.Errorf("Markdown = %q, want %q", got, tt.md)
			}
			var back bytes.Buffer
			if err := goldmark.Convert(res.Markdown, &back); err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(back.String()) != tt.html {
				t.Errorf("CommonMark reads %q back as %q", got, strings.TrimSpace(back.String()))
			}
		})
	}
}

func TestMinimalEscapesPlaceholders(t *testing.T) {
	m := string(escapeMark)
	tests := []struct{ in, want string }{
		{"a" + m + "_b", "a_b"},
		{m + "_b", m + "_b"},
		{"a" + m + "_", "a" + m + "_"},
		{"a" + m + "_" + m + "_b", "a" + m + "_" + m + "_b"},
		{m + "[1" + m + "] x", "[1" + m + "] x"},
		{m + "[1" + m + "]", m + "[1" + m + "]"},
		{m + "[a" + m + "]" + m + "(b)", m + "[a" + m + "]" + m + "(b)"},
		{m + "[" + m + "] x", m + "[" + m + "] x"},
		{m + "[a `b`] x", m + "[a `b`] x"},
		{"no marks", "no marks"},
		{"ends in " + m, "ends in " + m},
	}
	for _, tt := range tests {
		if got := minimalEscapes(tt.in); got != tt.want {
			t.Errorf("minimalEscapes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestCodeInQuote: a code block inside a quote keeps every line in the
// quote, so CommonMark reads it back as one code block.
func TestCodeInQuote(t *testing.T) {
	c := mustNew(t, Options{})
	in := "<blockquote><p>As an example:</p><pre><code>class Base:\n    a: int = 3\n\nprint(Base)</code></pre><p>after</p></blockquote>"
	res, err := c.Convert([]byte(in), testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	var back bytes.Buffer
	if err := goldmark.Convert(res.Markdown, &back); err != nil {
		t.Fatal(err)
	}
	want := "<blockquote>\n<p>As an example:</p>\n<pre><code>class Base:\n    a: int = 3\n\nprint(Base)\n</code></pre>\n<p>after</p>\n</blockquote>\n"
	if back.String() != want {
		t.Errorf("Markdown %q reads back as\n%s\nwant\n%s", res.Markdown, back.String(), want)
	}
}
