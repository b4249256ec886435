package connect

import (
	"bytes"

	"github.com/klauspost/compress/s2"
)

// packed is a page's Markdown as the index holds it: compressed with S2
// (github.com/klauspost/compress/s2, already in every Caddy build, so it
// adds nothing to the binary), which holds a documentation site's Markdown
// in under a third of its size and decodes it at several GB/s when a page is
// served. zstd's fastest level packs it a fifth smaller again but keeps
// encoder and decoder state of its own; see docs/scaling.md "Content index
// memory". Pages that do not shrink by an eighth are kept as they came.
type packed struct {
	b   []byte // the S2 block, or the Markdown itself when raw
	n   int    // length of the Markdown
	raw bool
}

// pack compresses md; the result does not share md's memory.
func pack(md []byte) packed {
	// EncodeBetter writes into a buffer of the worst case's size: the
	// block is copied out of it so that only its own bytes stay held.
	if c := s2.EncodeBetter(nil, md); len(c) < len(md)-len(md)/8 {
		return packed{b: bytes.Clone(c), n: len(md)}
	}
	return packed{b: append([]byte(nil), md...), n: len(md), raw: true}
}

// bytes returns the Markdown: a new slice the caller may keep, or for a raw
// page the held one, which must not be modified.
func (p packed) bytes() []byte {
	if p.raw {
		return p.b
	}
	md, err := s2.Decode(make([]byte, 0, p.n), p.b)
	if err != nil {
		// Only a corrupted block fails, and pack made every block.
		return nil
	}
	return md
}
