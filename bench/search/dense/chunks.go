package main

import (
	"strings"

	"github.com/agentready/caddy-agentready/fulltext"
)

// chunk is one window of a page's text as the model reads it: the page
// title and a section heading, then as much text as fits. The ONNX model
// reads ids, the embedding script (node:) reads text.
type chunk struct {
	doc  int
	ids  []int  // framed by [CLS] and [SEP]; nil for a text window
	text string // words joined by spaces; empty for a window of ids
}

// size is the window's length in its own units, tokens or words.
func (c chunk) size() int {
	if c.ids != nil {
		return len(c.ids)
	}
	return len(strings.Fields(c.text))
}

// chunks cuts each page's sections (the text fulltext indexes) into
// windows of at most window tokens, [CLS] and [SEP] included, as
// packWindows does.
func chunks(docs []fulltext.Document, tk *wordPiece, window, maxPerPage int) []chunk {
	var out []chunk
	for d := range docs {
		for _, w := range packWindows(&docs[d], tk.encode, window-2, maxPerPage) {
			ids := append([]int{tk.cls}, w...)
			out = append(out, chunk{doc: d, ids: append(ids, tk.sep)})
		}
	}
	return out
}

// textChunks cuts each page's sections into windows of at most window
// words (split at white space), as packWindows does, for a model that
// tokenizes its input itself.
func textChunks(docs []fulltext.Document, window, maxPerPage int) []chunk {
	var out []chunk
	for d := range docs {
		for _, w := range packWindows(&docs[d], strings.Fields, window, maxPerPage) {
			out = append(out, chunk{doc: d, text: strings.Join(w, " ")})
		}
	}
	return out
}

// packWindows cuts a page's sections into windows of at most room units
// of encode. A window starts with the page title and the heading of its
// first section; short sections are packed together (each with its
// heading inline) until the window is full; a long section is cut into
// windows that each repeat the title and its heading. maxPerPage > 0 keeps
// only the page's first windows. A page without text is one window of its
// title.
func packWindows[T any](doc *fulltext.Document, encode func(string) []T, room, maxPerPage int) [][]T {
	title := encode(doc.Title)
	var out [][]T
	var cur []T
	flush := func() {
		if len(cur) > 0 && (maxPerPage <= 0 || len(out) < maxPerPage) {
			out = append(out, cur)
		}
		cur = nil
	}
	for _, s := range doc.Sections {
		head := encode(s.Heading)
		text := encode(strings.TrimSpace(s.Text))
		if len(head)+len(text) == 0 {
			continue
		}
		if len(cur) > 0 && len(cur)+len(head)+len(text) <= room {
			cur = append(append(cur, head...), text...)
			continue
		}
		flush()
		prefix := append(append([]T(nil), title...), head...)
		if len(prefix) > room/2 {
			prefix = prefix[:room/2]
		}
		step := room - len(prefix)
		for len(text) > step {
			cur = append(append([]T(nil), prefix...), text[:step]...)
			flush()
			text = text[step:]
		}
		cur = append(append([]T(nil), prefix...), text...)
	}
	flush()
	if len(out) == 0 && len(title) > 0 {
		cur = title
		flush()
	}
	return out
}
