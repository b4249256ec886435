package htmlrewrite

import (
	"bytes"

	nethtml "golang.org/x/net/html"
)

// skim is readText for text in quiet mode, the state of most of a long
// page once its head is done. The tags quiet mode skips need not go
// through the state machine: skim jumps from '<' to '<' and steps over
// every tag that is not one the rewriter wants (annotatable) or one that
// starts raw text (isRawTextName), as <p>, </td>, <a href="…">, reading
// only what finds its end (skipAttrs). Any other '<' (a tag named so,
// "<!", "<?", "</>", a tag cut by the end of p) goes to readTagOpen from
// its '<', as readText would send it, so the tokens reported and the
// state left are the same (TestSkimMatchesSlowPath, FuzzSkim).
//
// Measured with bench/instructions.sh on BenchmarkRewriterLargePage
// (a 1 MiB article page, 78k tags, no form): the rewriter ran 26.8M
// instructions a page without skim, 12.2M with it.
func (z *tokenizer) skim(p []byte, base int64, i int) (int, bool) {
	for {
		// A '<' right after the last tag (</td><td>) is taken without a
		// call to IndexByte: 15.9M -> 14.3M instructions a page.
		if i < len(p) && p[i] != '<' {
			j := bytes.IndexByte(p[i:], '<')
			if j < 0 {
				return len(p), false
			}
			i += j
		} else if i == len(p) {
			return i, false
		}
		k := i + 1 // the first byte of the name
		if k < len(p) && p[k] == '/' {
			k++
		}
		if k == len(p) || byteClass[p[k]]&letter == 0 {
			if k == i+1 && k < len(p) && byteClass[p[k]]&opensTag == 0 {
				i++ // "<" then no tag: text, as readTagOpen finds it
				continue
			}
			break
		}
		n := k + 1
		for n < len(p) && byteClass[p[n]]&endsName == 0 {
			n++
		}
		// Names shorter than any listed (p, a, li, td) skip the call to
		// skippable: 17.4M -> 15.9M instructions a page.
		if n == len(p) || n-k >= shortestListed && !skippable(p[k:n]) {
			break
		}
		// A tag like <p> or </p>: readTagOpen would read it, report
		// nothing and leave text to read after it. Stepping over these
		// without the state machine: 26.8M -> 17.4M instructions a page.
		end := n + 1
		if p[n] != '>' {
			// One with attributes, as <a href="…">, to the '>' that ends
			// it (skipAttrs): 13.7M -> 12.2M instructions a page.
			if end = skipAttrs(p, n); end < 0 {
				break // the tag goes on in the next chunk
			}
		}
		i = end
		z.start = base + int64(i)
	}
	z.lt, z.st = base+int64(i), sTagOpen
	return z.readTagOpen(p, base, i+1)
}

// skipAttrs reads the attributes of a tag from p[i], the byte after its
// name, as readAttrs and readValue do, without keeping them: it returns
// the index after the '>' that ends the tag, or -1 when p ends first. A
// '>' ends the tag anywhere but in a quoted value, and a quote opens one
// only where a value may start: after a key's '=' and white space.
func skipAttrs(p []byte, i int) int {
	for i < len(p) {
		// Before an attribute (sBeforeAttr).
		c := p[i]
		switch {
		case isHTMLSpace(c):
			i++
			continue
		case c == '>':
			return i + 1
		}
		// A key (sAttrKey): its first byte whatever it is ('=' included;
		// a '/' makes an empty key, consumed after it), then up to white
		// space, '/', '=' or '>'.
		i++
		if c == '/' {
			continue
		}
		for i < len(p) && byteClass[p[i]]&endsKey == 0 {
			i++
		}
		// After the key (sAfterKey): '=' starts a value; anything else is
		// read again before an attribute (a '/' is consumed there).
		for i < len(p) && isHTMLSpace(p[i]) {
			i++
		}
		if i == len(p) || p[i] != '=' {
			continue
		}
		// Before the value (sBeforeValue): a quote opens a quoted value,
		// anything else a bare one, up to white space or '>' (empty when
		// '>' comes first).
		for i++; i < len(p) && isHTMLSpace(p[i]); i++ {
		}
		if i < len(p) && (p[i] == '"' || p[i] == '\'') {
			j := bytes.IndexByte(p[i+1:], p[i])
			if j < 0 {
				return -1
			}
			i += j + 2
			continue
		}
		for i < len(p) && byteClass[p[i]]&endsValue == 0 {
			i++
		}
	}
	return -1
}

// The shortest and the longest name of isRawTextName's and annotatable's
// lists: "xmp" and "plaintext" (TestSkippableKnowsTheLists).
const shortestListed, longestListed = 3, 9

// skippable reports whether quiet mode may step over a tag named name (as
// it is in the page, any case) without reading it: the rewriter does not
// want it and it starts no raw text.
func skippable(name []byte) bool {
	if len(name) < shortestListed || len(name) > longestListed {
		return true
	}
	// The names of both lists are lower-case ASCII letters, so ORing 0x20
	// into each byte is enough to compare with them: a byte becomes a
	// lower-case letter only if it is that letter in either case.
	// Branch-free, unlike lowerBit: 14.3M -> 13.7M instructions a page.
	var lower [longestListed]byte
	l := lower[:len(name)]
	for k, c := range name {
		l[k] = c | 0x20
	}
	return !isRawTextName(l) && !annotatable(nethtml.StartTagToken, l) && !annotatable(nethtml.EndTagToken, l)
}
