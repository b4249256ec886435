package htmlrewrite

import nethtml "golang.org/x/net/html"

// The read methods of raw text, RCDATA and script data after a '<' (the
// text itself is readText's): the end tag that ends the element, and the
// escaped and double-escaped states of x/net/html's readScript.

// readRaw reads what follows a '<' in raw text or RCDATA: "</" and the
// element's name end the text; anything else is more text. The text of a
// plaintext element never ends.
func (z *tokenizer) readRaw(p []byte, base int64, i int) (int, bool) {
	if z.st == sPlaintext {
		return len(p), false
	}
	for ; i < len(p); i++ {
		if z.st == sRawLT {
			if p[i] != '/' {
				z.st = sRaw
				return i, false
			}
			z.st, z.match = sRawEnd, 0
			continue
		}
		switch z.matchName(p[i], z.rawTag) {
		case matchFailed:
			z.st = sRaw
			return i, false
		case matchDone:
			return z.rawEnd(p, base, i)
		}
	}
	return i, false
}

// rawEnd ends the raw text at the "</" found at z.lt, and reads the end
// tag that follows from its name's delimiter p[i] on. The raw text, unless
// empty, is a token of its own: the end tag is then read by the next call.
func (z *tokenizer) rawEnd(p []byte, base int64, i int) (int, bool) {
	start, end := z.start, z.lt
	z.tt, z.st, z.attrs = nethtml.EndTagToken, sTagName, z.attrs[:0]
	z.nameLen = copy(z.name[:], z.rawTag)
	z.rawTag, z.start, z.off = "", end, base+int64(i)
	if end > start && !z.quiet {
		z.tok = token{tt: nethtml.TextToken, start: start, end: end}
		return i, true
	}
	return z.readTagName(p, base, i)
}

// readScript reads what follows a '<' in script data: "</script" ends the
// script, "<!--" starts escaped script data; and "</script" in escaped
// script data.
func (z *tokenizer) readScript(p []byte, base int64, i int) (int, bool) {
	for ; i < len(p); i++ {
		c := p[i]
		switch z.st {
		case scLT:
			switch c {
			case '/':
				z.st, z.match = scEndOpen, 0
			case '!':
				z.st = scEscStart
			default:
				z.st = scData
				return i, false
			}
		case scEndOpen, scEscEndOpen:
			switch z.matchName(c, "script") {
			case matchFailed:
				if z.st == scEndOpen {
					z.st = scData
				} else {
					z.st = scEsc
				}
				return i, false
			case matchDone:
				return z.rawEnd(p, base, i)
			}
		default: // scEscStart, scEscStartDash: after "<!" and "<!-"
			if c != '-' {
				z.st = scData
				return i, false
			}
			if z.st == scEscStartDash {
				z.st = scEscDashDash
				return z.readScriptEscaped(p, base, i+1), false
			}
			z.st = scEscStartDash
		}
	}
	return i, false
}

// readScriptEscaped reads escaped and double-escaped script data, each
// with its states after one and two '-' (consecutive constants), and what
// follows a '<' in them.
func (z *tokenizer) readScriptEscaped(p []byte, base int64, i int) int {
	for i < len(p) {
		c := p[i]
		switch z.st {
		case scEsc, scEscDash, scEscDashDash, scDbl, scDblDash, scDblDashDash:
			first, lt := scEsc, scEscLT
			if z.st >= scDbl {
				first, lt = scDbl, scDblLT
			}
			switch {
			case c == '-':
				z.st = min(z.st+1, first+2)
			case c == '<':
				z.lt, z.st = base+int64(i), lt
			case c == '>' && z.st == first+2:
				z.st = scData
				return i + 1
			default:
				z.st = first
			}
		case scEscLT:
			switch {
			case c == '/':
				z.st, z.match = scEscEndOpen, 0
				return i + 1
			case 'a' <= c|0x20 && c|0x20 <= 'z':
				z.st, z.match = scDblStart, 0
				continue
			}
			z.st = scData // x/net/html goes back to script data here, not to the escaped state
			return i
		default: // scDblStart, scDblLT, scDblEnd
			i = z.readScriptDoubleEscape(p, i)
			continue
		}
		i++
	}
	return i
}

// readScriptDoubleEscape reads "script" after "<" in escaped script data,
// which starts the double escape, and "</script" in the double escape,
// which ends it; it returns in escaped or double-escaped script data.
func (z *tokenizer) readScriptDoubleEscape(p []byte, i int) int {
	for ; i < len(p); i++ {
		c := p[i]
		switch z.st {
		case scDblStart:
			switch z.matchName(c, "script") {
			case matchFailed:
				z.st = scEsc
				return i
			case matchDone:
				z.st = scDbl
				return i + 1
			}
		case scDblLT:
			if c != '/' {
				z.st = scDbl
				return i
			}
			z.st, z.match = scDblEnd, 0
		default: // scDblEnd
			switch z.matchName(c, "script") {
			case matchFailed:
				z.st = scDbl
				return i
			case matchDone:
				z.st = scEsc // "</script>" inside the double escape: consumed
				return i + 1
			}
		}
	}
	return i
}

// Results of matchName.
const (
	matchMore   = iota // c matched the next byte of the name: consume it
	matchFailed        // c does not go on the name: reconsume it elsewhere
	matchDone          // the whole name matched and c is a delimiter after it
)

// matchName matches c against the next byte of name (ASCII lower case,
// compared case-insensitively as x/net/html's readRawEndTag does), then
// against the delimiter that must follow it; z.match counts the bytes
// matched so far.
func (z *tokenizer) matchName(c byte, name string) int {
	switch {
	case z.match < len(name) && c|lowerBit(c) == name[z.match]:
		z.match++
		return matchMore
	case z.match == len(name) && byteClass[c]&endsName != 0:
		return matchDone
	}
	return matchFailed
}
