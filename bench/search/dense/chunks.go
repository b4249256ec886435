package main

import (
	"strings"

	"github.com/agentready/caddy-agentready/fulltext"
)

// chunk is one window of a page's text as the model reads it: the page
// title and a section heading, then as much text as fits.
type chunk struct {
	doc int
	ids []int // framed by [CLS] and [SEP]
}

// chunks cuts each page's sections (the text fulltext indexes) into
// windows of at most window tokens, [CLS] and [SEP] included. A window
// starts with the page title and the heading of its first section; short
// sections are packed together (each with its heading inline) until the
// window is full; a long section is cut into windows that each repeat the
// title and its heading. maxPerPage > 0 keeps only a page's first windows.
func chunks(docs []fulltext.Document, tk *wordPiece, window, maxPerPage int) []chunk {
	var out []chunk
	for d := range docs {
		out = append(out, pageChunks(d, &docs[d], tk, window, maxPerPage)...)
	}
	return out
}

func pageChunks(d int, doc *fulltext.Document, tk *wordPiece, window, maxPerPage int) []chunk {
	title := tk.encode(doc.Title)
	var out []chunk
	var cur []int
	flush := func() {
		if len(cur) > 0 && (maxPerPage <= 0 || len(out) < maxPerPage) {
			ids := append([]int{tk.cls}, cur...)
			out = append(out, chunk{doc: d, ids: append(ids, tk.sep)})
		}
		cur = nil
	}
	room := window - 2
	for _, s := range doc.Sections {
		head := tk.encode(s.Heading)
		text := tk.encode(strings.TrimSpace(s.Text))
		if len(head)+len(text) == 0 {
			continue
		}
		if len(cur) > 0 && len(cur)+len(head)+len(text) <= room {
			cur = append(append(cur, head...), text...)
			continue
		}
		flush()
		prefix := append(append([]int(nil), title...), head...)
		if len(prefix) > room/2 {
			prefix = prefix[:room/2]
		}
		step := room - len(prefix)
		for len(text) > step {
			cur = append(append([]int(nil), prefix...), text[:step]...)
			flush()
			text = text[step:]
		}
		cur = append(append([]int(nil), prefix...), text...)
	}
	flush()
	if len(out) == 0 && len(title) > 0 {
		cur = title
		flush()
	}
	return out
}
