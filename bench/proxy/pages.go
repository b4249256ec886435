package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"

	"github.com/agentready/caddy-agentready/internal/benchpage"
)

// articlePage returns an HTML article of exactly size bytes (when size is at
// least a few hundred bytes): a head with metadata, navigation and footer
// chrome, and a <main> of sections with headings, paragraphs with links,
// lists, a table and a code block, the shapes a converter spends its time on.
func articlePage(title string, size int) []byte {
	const tail = "</main>\n<footer><p>© Acme Widgets</p></footer>\n</body>\n</html>\n"
	var b bytes.Buffer
	b.Grow(size)
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"+
		"<title>%s</title>\n<meta name=\"description\" content=\"A generated page for the proxy benchmarks.\">\n"+
		"<link rel=\"canonical\" href=\"/%s\">\n</head>\n<body>\n"+
		"<nav><a href=\"/\">Home</a> <a href=\"/pricing\">Pricing</a> <a href=\"/docs/getting-started\">Docs</a></nav>\n"+
		"<main>\n<h1>%s</h1>\n", title, title, title)
	for i := 0; b.Len()+len(tail) < size; i++ {
		b.WriteString(benchpage.Section(i))
	}
	// Trim the last section back so the page ends exactly at size, then
	// pad with a comment; the result stays well-formed enough for any
	// HTML5 parser (a cut element is closed by </main>).
	if over := b.Len() + len(tail) - size; over > 0 {
		b.Truncate(max(0, b.Len()-over))
		if i := bytes.LastIndexByte(b.Bytes(), '<'); i > 0 {
			b.Truncate(i)
		}
	}
	switch pad := size - b.Len() - len(tail); {
	case pad >= 7:
		b.WriteString("<!--" + strings.Repeat(" ", pad-7) + "-->")
	case pad > 0:
		b.WriteString(strings.Repeat("\n", pad))
	}
	b.WriteString(tail)
	return b.Bytes()
}

// gzipBomb returns a gzip stream that inflates to size bytes of HTML: a
// <p> that never ends, the compressible worst case (about 1000:1).
func gzipBomb(size int64) ([]byte, error) {
	var out bytes.Buffer
	zw, err := gzip.NewWriterLevel(&out, gzip.BestCompression)
	if err != nil {
		return nil, fmt.Errorf("gzip bomb: %w", err)
	}
	const head = "<!DOCTYPE html><html><head><title>bomb</title></head><body><p>"
	if _, err := io.WriteString(zw, head); err != nil {
		return nil, fmt.Errorf("gzip bomb: %w", err)
	}
	chunk := bytes.Repeat([]byte("a"), 64<<10)
	for left := size - int64(len(head)); left > 0; left -= int64(len(chunk)) {
		if _, err := zw.Write(chunk[:min(left, int64(len(chunk)))]); err != nil {
			return nil, fmt.Errorf("gzip bomb: %w", err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("gzip bomb: %w", err)
	}
	return out.Bytes(), nil
}
