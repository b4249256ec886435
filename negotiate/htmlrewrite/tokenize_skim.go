package htmlrewrite

import (
	"bytes"

	nethtml "golang.org/x/net/html"
)

// skim is readText for text in quiet mode, the state of most of a long
// page once its head is done. The tags quiet mode skips need not be read
// byte by byte: skim jumps from '<' to '<' and steps over every tag that
// has no attributes and is not one the rewriter wants (annotatable) or one
// that starts raw text (isRawTextName), as <p>, </p>, <li>, </td>. Any
// other '<' (a tag with attributes, a tag named so, "<!", "<?", "</>", a
// tag cut by the end of p) goes to readTagOpen from its '<', as readText
// would send it, so the tokens reported and the state left are the same.
// It saves the per-tag state machine (readTagOpen, scanName, endTag) on
// the most common tags: on a 1 MiB article page, see
// BenchmarkRewriterLargePage.
func (z *tokenizer) skim(p []byte, base int64, i int) (int, bool) {
	for {
		j := bytes.IndexByte(p[i:], '<')
		if j < 0 {
			return len(p), false
		}
		i += j
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
		if n == len(p) || p[n] != '>' || !skippable(p[k:n]) {
			break
		}
		// A tag like <p> or </p>: readTagOpen would read it, report
		// nothing and leave text to read after it.
		i = n + 1
		z.start = base + int64(i)
	}
	z.lt, z.st = base+int64(i), sTagOpen
	return z.readTagOpen(p, base, i+1)
}

// skippable reports whether quiet mode may step over a tag named name (as
// it is in the page, any case) without reading it: the rewriter does not
// want it and it starts no raw text.
func skippable(name []byte) bool {
	// The shortest name of either list is "xmp", the longest "plaintext".
	if len(name) < 3 || len(name) > 9 {
		return true
	}
	var lower [9]byte
	for k, c := range name {
		lower[k] = c | lowerBit(c)
	}
	l := lower[:len(name)]
	return !isRawTextName(l) && !annotatable(nethtml.StartTagToken, l) && !annotatable(nethtml.EndTagToken, l)
}
