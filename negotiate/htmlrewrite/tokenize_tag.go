package htmlrewrite

import (
	"bytes"

	nethtml "golang.org/x/net/html"
)

// The read methods of a tag: what follows a '<' in text, the tag's name,
// its attributes and their values, up to the '>' that completes it.

// readTagOpen reads what follows a '<' in text: a letter starts a start
// tag, "</" and a letter an end tag, "<!" a comment or doctype, "<?" a
// bogus comment. Anything else makes the '<' part of the text.
func (z *tokenizer) readTagOpen(p []byte, base int64, i int) (int, bool) {
	for ; i < len(p); i++ {
		c := p[i]
		class := byteClass[c]
		if z.st == sEndTagOpen {
			switch {
			case c == '>':
				// "</>" is no token for x/net/html; its raw bytes come out
				// as an empty comment.
				return i + 1, z.emitComment(base, i+1)
			case class&letter != 0:
				z.startTag(nethtml.EndTagToken)
				return z.readTagName(p, base, i)
			}
			z.st = sBogus
			return z.readMarkup(p, base, i)
		}
		if class&opensTag == 0 {
			z.st = sData // reconsume c: it may be the next '<'
			return i, false
		}
		if z.lt > z.start {
			// The text before the '<' is a token of its own.
			if !z.quiet {
				return i, z.emit(nethtml.TextToken, z.lt, base, i)
			}
			z.start = z.lt
		}
		switch c {
		case '/':
			z.st = sEndTagOpen
		case '!':
			z.st = sMarkup
			return z.readMarkup(p, base, i+1)
		case '?':
			z.st = sBogus // reconsume, so "<?>" ends at its '>'
			return z.readMarkup(p, base, i)
		default:
			z.startTag(nethtml.StartTagToken)
			return z.readTagName(p, base, i) // c is the first byte of the name
		}
	}
	return i, false
}

// readTagName reads a tag's name, which runs to white space (consumed),
// '/' or '>', then the rest of the tag.
func (z *tokenizer) readTagName(p []byte, base int64, i int) (int, bool) {
	i = z.scanName(p, i)
	if i == len(p) {
		return i, false
	}
	z.st = sBeforeAttr
	switch {
	case p[i] == '>':
		return i + 1, z.endTag(base, i+1) // a tag without attributes
	case isHTMLSpace(p[i]):
		i++
	}
	return z.readAttrs(p, base, i)
}

// scanName adds the bytes of a tag's name from p[i] on to z.name and
// returns the index of the byte that ends it, or len(p).
func (z *tokenizer) scanName(p []byte, i int) int {
	n := z.nameLen
	for ; i < len(p) && byteClass[p[i]]&endsName == 0; i++ {
		if n < len(z.name) {
			z.name[n] = p[i] | lowerBit(p[i])
		}
		n++
	}
	z.nameLen = n
	return i
}

// readAttrs reads a tag's attributes, their keys here and their values
// with readValue, up to the tag's '>', which completes the tag.
func (z *tokenizer) readAttrs(p []byte, base int64, i int) (int, bool) {
	for i < len(p) {
		c := p[i]
		switch z.st {
		case sBeforeAttr:
			switch c {
			case ' ', '\n', '\r', '\t', '\f':
			case '>':
				return i + 1, z.endTag(base, i+1)
			default:
				z.attrs = append(z.attrs, attrSpan{k0: z.rel(base, i)})
				z.st = sAttrKey
				if c == '=' {
					// WHATWG 13.2.5.32: an '=' that starts a name is part of it.
					i++
				}
				continue
			}
		case sAttrKey:
			for i < len(p) && byteClass[p[i]]&endsKey == 0 {
				i++
			}
			if i == len(p) {
				continue
			}
			a := &z.attrs[len(z.attrs)-1]
			a.k1 = z.rel(base, i)
			a.v0, a.v1 = a.k1, a.k1
			z.st = sAfterKey
			continue
		case sAfterKey:
			switch c {
			case ' ', '\n', '\r', '\t', '\f':
			case '/':
				z.st = sBeforeAttr
			case '=':
				z.st = sBeforeValue
			default:
				z.st = sBeforeAttr
				continue
			}
		default:
			i = z.readValue(p, base, i)
			continue
		}
		i++
	}
	return i, false
}

// readValue reads the value of the current attribute after its '=':
// quoted, to its closing quote, or bare, to white space or '>'.
func (z *tokenizer) readValue(p []byte, base int64, i int) int {
	a := &z.attrs[len(z.attrs)-1]
	for ; i < len(p); i++ {
		switch c := p[i]; z.st {
		case sBeforeValue:
			switch c {
			case ' ', '\n', '\r', '\t', '\f':
			case '>':
				z.st = sBeforeAttr
				return i
			case '"', '\'':
				z.quote = c
				a.v0 = z.rel(base, i+1)
				z.st = sValueQuoted
			default:
				a.v0 = z.rel(base, i)
				z.st = sValueBare
			}
		case sValueQuoted:
			j := bytes.IndexByte(p[i:], z.quote)
			if j < 0 {
				return len(p)
			}
			i += j
			a.v1 = z.rel(base, i)
			z.st = sBeforeAttr
			return i + 1
		default: // sValueBare
			for i < len(p) && byteClass[p[i]]&endsValue == 0 {
				i++
			}
			if i < len(p) {
				a.v1 = z.rel(base, i)
				z.st = sBeforeAttr
			}
			return i // white space and '>' are read again
		}
	}
	return i
}
