package fulltext

import (
	"encoding/binary"
	"slices"
	"sort"
	"strings"

	"github.com/blevesearch/snowballstem"
)

// Field is one of the fields of a document that BM25F weighs apart.
type Field int

// The fields of a document.
const (
	Title    Field = iota // the page title and description
	Headings              // every section heading
	Path                  // the words of the URL path
	Body                  // the headings and the text of every section
	numFields
)

// Section is one part of a document: a heading ("" before the first) and
// the text under it.
type Section struct {
	Heading string
	Text    string
}

// Document is one page to index.
type Document struct {
	// Title is the page title.
	Title string
	// Description is the page's own summary (its meta description), "" when
	// it has none; it counts as part of the title. A page without one that
	// is a manual page, with a section headed NAME, has that section's
	// text counted instead: its one-line summary by convention
	// ("git-stash - Stash the changes in a dirty working directory away",
	// man-pages(7)).
	Description string
	// Path is the page's URL path; its words ("git-commit" in
	// /docs/git-commit.html) are a field of their own.
	Path string
	// Sections are the page's text, in order.
	Sections []Section
	// Packed is the page's text packed (PackSections), read when Sections
	// is nil: a caller that holds its pages' text packed hands it over as
	// it is. Build packs Sections into it (see Build).
	Packed Packed
}

// sections returns the document's sections, unpacking them when they are
// only held packed.
func (d *Document) sections() []Section {
	if d.Sections != nil {
		return d.Sections
	}
	return d.Packed.Sections()
}

// summary is the text that counts with the title: the description, else
// the NAME section of a manual page (in secs, the document's sections).
func (d *Document) summary(secs []Section) string {
	if d.Description != "" {
		return d.Description
	}
	for _, s := range secs {
		if strings.EqualFold(s.Heading, "name") {
			return s.Text
		}
	}
	return ""
}

// sectionGap is the position gap between sections, so that words of two
// sections never count as close together.
const sectionGap = 8

// Index is an immutable full-text index of documents. The zero value is an
// empty index.
type Index struct {
	an       *analyzer
	docs     []Document
	lens     [][numFields]uint32 // terms per field of each document
	starts   [][]uint32          // body position of each section of each document
	avg      [numFields]float64  // mean of lens over the documents
	terms    []string            // sorted
	df       []uint32            // documents holding each term
	postings [][]byte            // of each term, slices of one arena
}

// Build indexes docs for a site in language (a BCP 47 tag, "" for
// English). The index keeps docs and their strings; the caller must not
// change them afterwards. It holds each document's text packed (a
// document given with Sections is packed into a copy; docs is not
// modified). Results name documents by their position in docs.
func Build(docs []Document, language string) *Index {
	x := &Index{an: newAnalyzer(language), docs: make([]Document, len(docs)), lens: make([][numFields]uint32, len(docs)), starts: make([][]uint32, len(docs))}
	b := newBuilder(x.an)
	for i := range docs {
		d := docs[i]
		secs := d.sections()
		x.lens[i], x.starts[i] = b.add(i, &d, secs)
		if d.Sections != nil {
			d.Packed, d.Sections = PackSections(d.Sections), nil
		}
		x.docs[i] = d
	}
	for i := range x.lens {
		for f := range numFields {
			x.avg[f] += float64(x.lens[i][f])
		}
	}
	for f := range numFields {
		x.avg[f] /= float64(max(len(docs), 1))
	}
	x.terms, x.df, x.postings = b.finish()
	return x
}

// Len is the number of documents.
func (x *Index) Len() int { return len(x.docs) }

// Doc returns document i as it was indexed (its text packed).
func (x *Index) Doc(i int) *Document { return &x.docs[i] }

// Size is the memory the index holds besides the documents' own strings,
// in bytes (postings, term list and per-document counts), approximately.
func (x *Index) Size() int64 {
	n := int64(len(x.lens))*int64(numFields)*4 + int64(len(x.docs))*48
	for i, t := range x.terms {
		n += int64(len(t)) + 16 + 4 + 24 + int64(len(x.postings[i]))
	}
	return n
}

// termAcc accumulates one term's occurrences in the document being added.
type termAcc struct {
	tf  [numFields]uint32
	pos []uint32
}

// builder collects postings document by document.
type builder struct {
	an    *analyzer
	env   *snowballstem.Env
	stems map[string]string // word → term, so each distinct word is stemmed once
	acc   map[string]*termAcc
	lists map[string]*list
}

type list struct {
	buf  []byte
	last int // last document added, -1 before the first
	df   uint32
}

func newBuilder(an *analyzer) *builder {
	return &builder{an: an, env: snowballstem.NewEnv(""), stems: map[string]string{},
		acc: map[string]*termAcc{}, lists: map[string]*list{}}
}

// term is the analyzer's term of word, cached; a compound is its lower
// case.
func (b *builder) term(word string, compound bool) string {
	if compound {
		return lower(word)
	}
	if t, ok := b.stems[word]; ok {
		return t
	}
	if len(b.stems) >= 1<<20 {
		return b.an.term(word, b.env)
	}
	// A copy: word is a slice of a page's text (unpacked for the build),
	// which a key, or a term the stemmer left as it was, would keep alive.
	word = strings.Clone(word)
	t := b.an.term(word, b.env)
	b.stems[word] = t
	return t
}

// add indexes document id, whose sections are secs, and returns its field
// lengths and the body position each section starts at.
func (b *builder) add(id int, d *Document, secs []Section) ([numFields]uint32, []uint32) {
	var lens [numFields]uint32
	starts := make([]uint32, len(secs))
	count := func(f Field) func(string, int, int, bool) {
		return func(w string, _, _ int, compound bool) {
			if t := b.term(w, compound); t != "" {
				b.at(t).tf[f]++
				lens[f]++
			}
		}
	}
	tokens(d.Title, count(Title))
	tokens(d.summary(secs), count(Title))
	tokens(d.Path, count(Path))
	for _, s := range secs {
		tokens(s.Heading, count(Headings))
	}
	pos := 0
	for i := range secs {
		starts[i] = uint32(pos)
		pos = sectionWords(&secs[i], pos, func(w string, p, _, _ int, compound bool) {
			if t := b.term(w, compound); t != "" {
				a := b.at(t)
				a.tf[Body]++
				a.pos = append(a.pos, uint32(p))
				lens[Body]++
			}
		}) + sectionGap
	}
	for t, a := range b.acc {
		l := b.lists[t]
		if l == nil {
			l = &list{last: -1}
			// The dictionary's terms are the index's: a copy, not a slice
			// of a page's text (a compound's is one), which would keep
			// the whole text alive with the index.
			b.lists[strings.Clone(t)] = l
		}
		l.buf = binary.AppendUvarint(l.buf, uint64(id-l.last))
		l.last = id
		l.df++
		for _, n := range a.tf {
			l.buf = binary.AppendUvarint(l.buf, uint64(n))
		}
		prev := uint32(0)
		for _, p := range a.pos {
			l.buf = binary.AppendUvarint(l.buf, uint64(p-prev))
			prev = p
		}
	}
	clear(b.acc)
	return lens, starts
}

func (b *builder) at(t string) *termAcc {
	a := b.acc[t]
	if a == nil {
		a = &termAcc{}
		b.acc[t] = a
	}
	return a
}

// finish returns the sorted terms, their document frequencies and their
// postings, copied into one arena.
func (b *builder) finish() ([]string, []uint32, [][]byte) {
	terms := make([]string, 0, len(b.lists))
	size := 0
	for t, l := range b.lists {
		terms = append(terms, t)
		size += len(l.buf)
	}
	slices.Sort(terms)
	arena := make([]byte, 0, size)
	df := make([]uint32, len(terms))
	postings := make([][]byte, len(terms))
	for i, t := range terms {
		l := b.lists[t]
		start := len(arena)
		arena = append(arena, l.buf...)
		postings[i] = arena[start:len(arena):len(arena)]
		df[i] = l.df
	}
	return terms, df, postings
}

// sectionWords calls f for each word of a section of the body (its
// heading, then its text) with its position, whether it is in the heading
// (1) or the text (0), and its byte offset there, and for each compound.
// Positions count every word, stop words included, from pos, the
// section's first; a compound has the position of its first word. It
// returns the position after the section's last word; Build leaves
// sectionGap between sections, so words of two sections never count as
// close together.
func sectionWords(s *Section, pos int, f func(w string, pos, inHeading, start int, compound bool)) int {
	each := func(text string, inHeading int) {
		tokens(text, func(w string, start, _ int, compound bool) {
			f(w, pos, inHeading, start, compound)
			if !compound {
				pos++
			}
		})
	}
	each(s.Heading, 1)
	each(s.Text, 0)
	return pos
}

// lookup returns the index of term t, or -1.
func (x *Index) lookup(t string) int {
	i := sort.SearchStrings(x.terms, t)
	if i < len(x.terms) && x.terms[i] == t {
		return i
	}
	return -1
}

// entry is one document's part of a postings list.
type entry struct {
	doc int
	tf  [numFields]uint32
	pos []byte // the varint position gaps, tf[Body] of them
}

// eachEntry decodes a postings list; f returns false to stop.
func eachEntry(p []byte, f func(e *entry) bool) {
	var e entry
	doc := -1
	for len(p) > 0 {
		gap, n := binary.Uvarint(p)
		p = p[n:]
		doc += int(gap)
		e.doc = doc
		for i := range e.tf {
			v, n := binary.Uvarint(p)
			e.tf[i] = uint32(v)
			p = p[n:]
		}
		start := p
		for range e.tf[Body] {
			_, n := binary.Uvarint(p)
			p = p[n:]
		}
		e.pos = start[:len(start)-len(p)]
		if !f(&e) {
			return
		}
	}
}

// positions decodes the position gaps of an entry, appending to dst.
func positions(dst []uint32, gaps []byte) []uint32 {
	prev := uint32(0)
	for len(gaps) > 0 {
		v, n := binary.Uvarint(gaps)
		gaps = gaps[n:]
		prev += uint32(v)
		dst = append(dst, prev)
	}
	return dst
}
