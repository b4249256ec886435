package htmlrewrite_test

import (
	"bytes"
	"fmt"
	"io"

	"github.com/agentready/caddy-agentready/negotiate/htmlrewrite"
)

// A lang attribute, a head element unless the page
// already has one like it, and WebMCP attributes on a form.
func ExampleNew() {
	var out bytes.Buffer
	w := htmlrewrite.New(&out, &htmlrewrite.Injection{
		Lang: "en",
		Head: []htmlrewrite.HeadElement{{
			HTML:   `<link rel="canonical" href="https://example.com/contact">`,
			SkipIf: htmlrewrite.TagMatch{Tag: "link", Attrs: map[string]string{"rel": "canonical"}},
		}},
		Forms: []htmlrewrite.FormAnnotation{{
			Selector: "form#contact",
			Attrs:    map[string]string{"toolname": "contact_us"},
			Fields:   map[string]map[string]string{"email": {"toolparamdescription": "Reply address"}},
		}},
	})
	io.WriteString(w, `<html><head><title>Contact</title></head>`)
	io.WriteString(w, `<body><form id="contact"><input name="email"></form></body></html>`)
	w.Close()
	fmt.Println(out.String())
	// Output:
	// <html lang="en"><head><title>Contact</title><link rel="canonical" href="https://example.com/contact"></head><body><form id="contact" toolname="contact_us"><input name="email" toolparamdescription="Reply address"></form></body></html>
}
