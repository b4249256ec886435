package negotiate

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// The Link header's Markdown alternate (markdownLink) is kept per page:
// every HTML page and every Markdown answer carries one, and making it
// escapes the page's address byte by byte and allocates it (about 900
// instructions of every response). The kept links are a fixed table of
// slots read without a lock (every request reads it; a lock would be
// taken by all of them): a slot holds the last link made for a page its
// hash picks, with that page's path and query, which a request compares
// with its own, so pages sharing a slot each get their own link, made as
// before.

// linkSlots is the number of kept links (a power of two).
const linkSlots = 1024

// maxLinkPage bounds the escaped path and query of a page whose link is
// kept: the table holds at most linkSlots entries of a few times that
// (about 1 MiB).
const maxLinkPage = 256

// linkEntry is a page's address and the Link value of its Markdown
// alternate.
type linkEntry struct {
	path, query, link string
}

// linkCache keeps the Markdown alternates' Link values of a handler (its
// suffix is fixed). Safe for concurrent use; a nil one keeps nothing.
type linkCache struct {
	seed  maphash.Seed
	slots [linkSlots]atomic.Pointer[linkEntry]
	// seen is, per slot, the hash of the last page found missing there: a
	// page is kept the second time it is missed (a doorkeeper), so a
	// crawler that fetches each page once costs a hash, not an entry.
	seen [linkSlots]atomic.Uint64
}

func newLinkCache() *linkCache { return &linkCache{seed: maphash.MakeSeed()} }

// hash is the page's hash; its low bits pick its slot.
func (c *linkCache) hash(path, query string) uint64 {
	h := maphash.String(c.seed, path)
	if query != "" {
		h ^= maphash.String(c.seed, query) * 0x9e3779b97f4a7c15
	}
	return h
}

// slot is where the link of the page at path (escaped) and query is kept.
func (c *linkCache) slot(path, query string) *atomic.Pointer[linkEntry] {
	return &c.slots[c.hash(path, query)&(linkSlots-1)]
}

// get returns the Link value kept for the page at path and query, and
// its slot; ok is false when none is, and slot nil when the page's is not
// to be kept (rw.h.links nil, a long address, or a page missed for the
// first time: see seen).
func (c *linkCache) get(path, query string) (link string, slot *atomic.Pointer[linkEntry], ok bool) {
	if c == nil || len(path)+len(query) > maxLinkPage {
		return "", nil, false
	}
	h := c.hash(path, query)
	i := h & (linkSlots - 1)
	slot = &c.slots[i]
	if e := slot.Load(); e != nil && e.path == path && e.query == query {
		return e.link, slot, true
	}
	if c.seen[i].Swap(h) != h {
		return "", nil, false
	}
	return "", slot, false
}

// keepLink keeps link, the value for path and query, in slot.
func keepLink(slot *atomic.Pointer[linkEntry], path, query, link string) {
	// The address is copied: the request's strings may be substrings of
	// its whole request line (a long absolute-form host), which the entry
	// would otherwise keep alive.
	detach(&path, &query)
	slot.Store(&linkEntry{path: path, query: query, link: link})
}

// detach replaces each of parts with a copy, all in one allocation: a
// string of a request may share the memory of its whole request line, and
// an entry kept past the request must keep only its own bytes. (A
// concatenation with an empty string is no copy.)
func detach(parts ...*string) {
	n := 0
	for _, p := range parts {
		n += len(*p)
	}
	if n == 0 {
		return
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range parts {
		b.WriteString(*p)
	}
	all := b.String()
	for _, p := range parts {
		l := len(*p)
		*p, all = all[:l], all[l:]
	}
}
