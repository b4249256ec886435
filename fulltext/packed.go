package fulltext

import (
	"bytes"
	"encoding/binary"

	"github.com/klauspost/compress/s2"
)

// Packed is a document's sections held compressed: each heading and text
// with its length (varints), the whole compressed with S2
// (github.com/klauspost/compress/s2). A documentation site's text packs to
// about a third of its size and unpacks at several GB/s, so an index holds
// it packed and unpacks a page's sections only to build the index or cut a
// result's snippet. The zero value holds no sections.
type Packed struct {
	b        []byte // the S2 block of the encoded sections
	n        int    // bytes of heading and text, unpacked
	sections int
}

// PackSections packs secs; the result shares no memory with them.
func PackSections(secs []Section) Packed {
	if len(secs) == 0 {
		return Packed{}
	}
	var raw []byte
	n := 0
	for _, s := range secs {
		raw = binary.AppendUvarint(raw, uint64(len(s.Heading)))
		raw = append(raw, s.Heading...)
		raw = binary.AppendUvarint(raw, uint64(len(s.Text)))
		raw = append(raw, s.Text...)
		n += len(s.Heading) + len(s.Text)
	}
	// EncodeBetter writes into a buffer of the worst case's size: only the
	// block's own bytes are kept.
	return Packed{b: bytes.Clone(s2.EncodeBetter(nil, raw)), n: n, sections: len(secs)}
}

// TextBytes is the length of the sections' headings and texts, unpacked.
func (p Packed) TextBytes() int { return p.n }

// Sections unpacks the sections: new strings, sharing one allocation.
func (p Packed) Sections() []Section {
	if p.sections == 0 {
		return nil
	}
	raw, err := s2.Decode(nil, p.b)
	if err != nil {
		return nil // only a corrupted block fails, and PackSections made each
	}
	all := string(raw) // the strings below share this one copy
	out := make([]Section, 0, p.sections)
	pos := 0
	next := func() (string, bool) {
		l, k := binary.Uvarint(raw[pos:])
		if k <= 0 || uint64(len(raw)-pos-k) < l {
			return "", false
		}
		start := pos + k
		pos = start + int(l)
		return all[start:pos], true
	}
	for pos < len(raw) {
		h, ok1 := next()
		t, ok2 := next()
		if !ok1 || !ok2 {
			break
		}
		out = append(out, Section{Heading: h, Text: t})
	}
	return out
}
