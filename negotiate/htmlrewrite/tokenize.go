package htmlrewrite

import (
	"bytes"

	nethtml "golang.org/x/net/html"
)

// tokenizer finds the tokens of an HTML stream for the rewriter. It is
// golang.org/x/net/html's Tokenizer turned inside out: the caller pushes
// the stream in chunks of any size and the tokenizer, which keeps its
// state between them, reports each token as it completes, by its offsets
// in the stream. It never copies or buffers bytes: the caller keeps what
// it needs of an incomplete token (holdFrom says from where).
//
// The token boundaries, the tag names, the attribute spans and the
// raw-text rules (script with its escapes, style, textarea, title, xmp,
// iframe, noembed, noframes, noscript, plaintext) are those of
// x/net/html's Tokenizer, state for state; the differential tests and
// FuzzTokenizer check it against that Tokenizer on every input. Where
// x/net/html reads the stream byte by byte, this one jumps to the next
// byte that can change its state (bytes.IndexByte), which makes the
// rewriter's pass over a page cheap next to the proxying itself.
type tokenizer struct {
	st    tstate
	off   int64 // stream offset of the next byte to scan
	start int64 // stream offset where the current token began
	lt    int64 // offset of the '<' that may end the current text token

	tt      nethtml.TokenType // the tag being read: StartTagToken or EndTagToken
	name    [16]byte          // the tag name, lower-cased (its first 16 bytes)
	nameLen int               // the full length of the tag name
	attrs   []attrSpan        // the tag's attributes, offsets from its '<'
	quote   byte              // the quote of the value being read

	// quiet: report only the tags rewriteState.needs may want once the head
	// is done (see annotatable); others are skipped.
	quiet bool

	rawTag string // the raw-text element whose end tag ends the text; "" for none
	match  int    // bytes of rawTag (or "script") matched after "</"
	dashes int    // comment: '-' seen in a row
	begin  bool   // comment: nothing but '-' seen since "<!--"
}

// attrSpan locates one attribute of a tag, as offsets from the tag's '<'.
// An attribute without a value has an empty value span where the
// x/net/html Tokenizer puts it (right after the key).
type attrSpan struct{ k0, k1, v0, v1 int }

type tstate uint8

const (
	sData       tstate = iota // text
	sTagOpen                  // after '<' in text
	sEndTagOpen               // after "</"
	sTagName                  // in a start or end tag's name
	sBeforeAttr               // in a tag, before an attribute or its '>'
	sAttrKey
	sAfterKey    // after a key: '=', '/' or the next attribute
	sBeforeValue // after '='
	sValueQuoted
	sValueBare
	sMarkup     // after "<!"
	sMarkupDash // after "<!-"
	sComment    // after "<!--"
	sCommentBang
	sBogus     // a doctype, bogus comment or processing instruction: up to '>'
	sRaw       // raw text or RCDATA (rawTag)
	sRawLT     // after '<' in raw text
	sRawEnd    // after "</" in raw text, matching rawTag
	sPlaintext // everything to the end is text

	// Script data, with the escape states of x/net/html's readScript.
	scData
	scLT
	scEndOpen
	scEscStart
	scEscStartDash
	scEsc
	scEscDash
	scEscDashDash
	scEscLT
	scEscEndOpen
	scDblStart
	scDbl
	scDblDash
	scDblDashDash
	scDblLT
	scDblEnd
)

// next scans the chunk p, whose first byte is at stream offset base, from
// where the last call stopped. It returns at the first token that
// completes, as its type and its offsets [start, end), or ok false once p
// is used up. A returned start tag may be a self-closing one: see
// selfClosing. Comments, doctypes and processing instructions are all
// CommentToken; the content of a raw-text element is a TextToken.
func (z *tokenizer) next(p []byte, base int64) (tt nethtml.TokenType, start, end int64, ok bool) {
	i := int(z.off - base)
	for i < len(p) {
		c := p[i]
		switch z.st {
		case sData, sRaw, scData:
			// Text, raw text and script data: only a '<' can change the state.
			j := bytes.IndexByte(p[i:], '<')
			if j < 0 {
				i = len(p)
				continue
			}
			i += j
			z.lt = base + int64(i)
			switch z.st {
			case sData:
				z.st = sTagOpen
			case sRaw:
				z.st = sRawLT
			default:
				z.st = scLT
			}
		case sTagOpen:
			isLetter := 'a' <= c|0x20 && c|0x20 <= 'z'
			if !isLetter && c != '/' && c != '!' && c != '?' {
				z.st = sData // reconsume c: it may be the next '<'
				continue
			}
			if z.lt > z.start {
				// The text before the '<' is a token of its own.
				if z.quiet {
					z.start = z.lt
				} else {
					return z.emit(nethtml.TextToken, z.lt, base, i)
				}
			}
			switch {
			case isLetter:
				z.startTag(nethtml.StartTagToken)
				continue // c is the first byte of the name
			case c == '/':
				z.st = sEndTagOpen
			case c == '!':
				z.st = sMarkup
			default:
				z.st = sBogus // "<?": reconsume, so "<?>" ends at its '>'
				continue
			}
		case sEndTagOpen:
			switch {
			case c == '>':
				// "</>" is no token for x/net/html; its raw bytes come out
				// as an empty comment.
				if tt, start, end, ok := z.comment(base, i+1); ok {
					return tt, start, end, ok
				}
				i++
				continue
			case 'a' <= c|0x20 && c|0x20 <= 'z':
				z.startTag(nethtml.EndTagToken)
			default:
				z.st = sBogus
			}
			continue
		case sTagName:
			// The name runs to white space (consumed), '/' or '>'.
			for ; i < len(p); i++ {
				c = p[i]
				if isHTMLSpace(c) || c == '/' || c == '>' {
					break
				}
				if z.nameLen < len(z.name) {
					z.name[z.nameLen] = c | lowerBit(c)
				}
				z.nameLen++
			}
			if i == len(p) {
				continue
			}
			z.st = sBeforeAttr
			if c == '/' || c == '>' {
				continue
			}
		case sBeforeAttr:
			switch c {
			case ' ', '\n', '\r', '\t', '\f':
			case '>':
				if tt, start, end, ok := z.endTag(base, i+1); ok {
					return tt, start, end, ok
				}
				i++
				continue
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
			for i < len(p) && !isKeyEnd(p[i]) {
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
		case sBeforeValue:
			switch c {
			case ' ', '\n', '\r', '\t', '\f':
			case '>':
				z.st = sBeforeAttr
				continue
			case '"', '\'':
				z.quote = c
				z.attrs[len(z.attrs)-1].v0 = z.rel(base, i+1)
				z.st = sValueQuoted
			default:
				z.attrs[len(z.attrs)-1].v0 = z.rel(base, i)
				z.st = sValueBare
			}
		case sValueQuoted:
			j := bytes.IndexByte(p[i:], z.quote)
			if j < 0 {
				i = len(p)
				continue
			}
			i += j
			z.attrs[len(z.attrs)-1].v1 = z.rel(base, i)
			z.st = sBeforeAttr
		case sValueBare:
			for i < len(p) && !isHTMLSpace(p[i]) && p[i] != '>' {
				i++
			}
			if i == len(p) {
				continue
			}
			z.attrs[len(z.attrs)-1].v1 = z.rel(base, i)
			z.st = sBeforeAttr
			if p[i] == '>' {
				continue
			}
		case sMarkup:
			if c != '-' {
				z.st = sBogus
				continue
			}
			z.st = sMarkupDash
		case sMarkupDash:
			if c != '-' {
				z.st = sBogus
				continue
			}
			z.st, z.dashes, z.begin = sComment, 0, true
		case sComment:
			if z.dashes == 0 && !z.begin && c != '-' {
				// Only a '-' can start the end of the comment.
				j := bytes.IndexByte(p[i:], '-')
				if j < 0 {
					i = len(p)
					continue
				}
				i += j
				c = '-'
			}
			switch {
			case c == '-':
				z.dashes++
			case c == '>' && (z.dashes >= 2 || z.begin):
				if tt, start, end, ok := z.comment(base, i+1); ok {
					return tt, start, end, ok
				}
				i++
				continue
			case c == '!' && z.dashes >= 2:
				z.st = sCommentBang
			default:
				z.dashes, z.begin = 0, false
			}
		case sCommentBang:
			switch c {
			case '>':
				if tt, start, end, ok := z.comment(base, i+1); ok {
					return tt, start, end, ok
				}
				i++
				continue
			case '-':
				z.dashes, z.begin, z.st = 1, false, sComment
			default:
				z.dashes, z.begin, z.st = 0, false, sComment // c is consumed unexamined
			}
		case sBogus:
			j := bytes.IndexByte(p[i:], '>')
			if j < 0 {
				i = len(p)
				continue
			}
			i += j
			if tt, start, end, ok := z.comment(base, i+1); ok {
				return tt, start, end, ok
			}
			i++
			continue
		case sRawLT:
			if c != '/' {
				z.st = sRaw
				continue
			}
			z.st, z.match = sRawEnd, 0
		case sRawEnd:
			switch z.matchName(c, z.rawTag) {
			case matchMore:
				break
			case matchFailed:
				z.st = sRaw
				continue
			case matchDone:
				if tt, start, end, ok := z.rawEnd(base, i); ok {
					return tt, start, end, ok
				}
				continue
			}
		case sPlaintext:
			i = len(p)
			continue

		case scLT:
			switch c {
			case '/':
				z.st, z.match = scEndOpen, 0
			case '!':
				z.st = scEscStart
			default:
				z.st = scData
				continue
			}
		case scEndOpen, scEscEndOpen:
			switch z.matchName(c, "script") {
			case matchMore:
				break
			case matchFailed:
				if z.st == scEndOpen {
					z.st = scData
				} else {
					z.st = scEsc
				}
				continue
			case matchDone:
				if tt, start, end, ok := z.rawEnd(base, i); ok {
					return tt, start, end, ok
				}
				continue
			}
		case scEscStart, scEscStartDash:
			if c != '-' {
				z.st = scData
				continue
			}
			if z.st == scEscStart {
				z.st = scEscStartDash
			} else {
				z.st = scEscDashDash
			}
		case scEsc, scEscDash, scEscDashDash, scDbl, scDblDash, scDblDashDash:
			// The escaped and the double-escaped script data, each with its
			// states after one and two '-' (consecutive constants).
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
			default:
				z.st = first
			}
		case scEscLT:
			switch {
			case c == '/':
				z.st, z.match = scEscEndOpen, 0
			case 'a' <= c|0x20 && c|0x20 <= 'z':
				z.st, z.match = scDblStart, 0
				continue
			default:
				z.st = scData // x/net/html goes back to script data here, not to the escaped state
				continue
			}
		case scDblStart:
			switch z.matchName(c, "script") {
			case matchMore:
			case matchFailed:
				z.st = scEsc
				continue
			case matchDone:
				z.st = scDbl
			}
		case scDblLT:
			if c != '/' {
				z.st = scDbl
				continue
			}
			z.st, z.match = scDblEnd, 0
		case scDblEnd:
			switch z.matchName(c, "script") {
			case matchMore:
			case matchFailed:
				z.st = scDbl
				continue
			case matchDone:
				z.st = scEsc // "</script>" inside the double escape: consumed
			}
		}
		i++
	}
	z.off = base + int64(len(p))
	return 0, 0, 0, false
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
	case z.match == len(name) && isEndTagDelim(c):
		return matchDone
	}
	return matchFailed
}

// lowerBit is what ORs an ASCII upper-case letter into lower case.
func lowerBit(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return 0x20
	}
	return 0
}

// isKeyEnd reports whether c ends an attribute's key.
func isKeyEnd(c byte) bool {
	switch c {
	case '=', ' ', '\n', '\r', '\t', '\f', '/', '>':
		return true
	}
	return false
}

func isEndTagDelim(c byte) bool {
	switch c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		return true
	}
	return false
}

// rel is the offset of p[i] from the '<' of the current tag.
func (z *tokenizer) rel(base int64, i int) int { return int(base + int64(i) - z.start) }

// emit ends the current token at end and continues scanning at p[i].
func (z *tokenizer) emit(tt nethtml.TokenType, end, base int64, i int) (nethtml.TokenType, int64, int64, bool) {
	start := z.start
	z.start, z.off = end, base+int64(i)
	if z.st != sTagOpen {
		z.st = sData
	}
	return tt, start, end, true
}

// comment ends a comment-like token at p[i-1]; ok is false in quiet mode.
func (z *tokenizer) comment(base int64, i int) (nethtml.TokenType, int64, int64, bool) {
	tt, start, end, ok := z.emit(nethtml.CommentToken, base+int64(i), base, i)
	return tt, start, end, ok && !z.quiet
}

// startTag begins reading a tag whose '<' is at z.start.
func (z *tokenizer) startTag(tt nethtml.TokenType) {
	z.tt, z.st, z.nameLen, z.attrs = tt, sTagName, 0, z.attrs[:0]
}

// endTag completes the tag whose '>' is p[i-1], and sets up the raw-text
// state a start tag may call for (x/net/html does so for self-closing
// tags too). ok is false for a tag skipped in quiet mode.
func (z *tokenizer) endTag(base int64, i int) (tt nethtml.TokenType, start, end int64, ok bool) {
	tt, start, end, _ = z.emit(z.tt, base+int64(i), base, i)
	if tt == nethtml.StartTagToken {
		switch raw := z.rawName(); raw {
		case "":
		case "script":
			z.rawTag, z.st = raw, scData
		case "plaintext":
			z.rawTag, z.st = raw, sPlaintext
		default:
			z.rawTag, z.st = raw, sRaw
		}
	}
	return tt, start, end, !z.quiet || annotatable(tt, z.tagName())
}

// tagName is the lower-cased name of the tag just completed, nil when it
// is longer than any the rewriter looks for.
func (z *tokenizer) tagName() []byte {
	if z.nameLen > len(z.name) {
		return nil
	}
	return z.name[:z.nameLen]
}

// rawName is the tag's name when it starts a raw-text element.
func (z *tokenizer) rawName() string {
	if z.nameLen > len(z.name) {
		return ""
	}
	switch n := z.name[:z.nameLen]; string(n) {
	case "iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "textarea", "title", "xmp":
		return string(n) // no allocation: the compiler interns these
	}
	return ""
}

// rawEnd ends the raw text at the "</" found at z.lt: the end tag that
// follows is read as a tag from its name's delimiter p[i] on. The raw text,
// unless empty, is returned as a token.
func (z *tokenizer) rawEnd(base int64, i int) (nethtml.TokenType, int64, int64, bool) {
	start, end := z.start, z.lt
	z.tt, z.st, z.attrs = nethtml.EndTagToken, sTagName, z.attrs[:0]
	z.nameLen = copy(z.name[:], z.rawTag)
	z.rawTag, z.start, z.off = "", end, base+int64(i)
	return nethtml.TextToken, start, end, end > start && !z.quiet
}

// eof ends the stream at offset end: the type of the last, incomplete
// token [z.start, end), as x/net/html's Tokenizer reports it at EOF, or
// ErrorToken for an incomplete tag (whose bytes are written as they are).
// ok is false when nothing is left.
func (z *tokenizer) eof(end int64) (tt nethtml.TokenType, start int64, ok bool) {
	if end <= z.start {
		return 0, 0, false
	}
	switch z.st {
	case sTagName, sBeforeAttr, sAttrKey, sAfterKey, sBeforeValue, sValueQuoted, sValueBare:
		return nethtml.ErrorToken, z.start, true
	case sMarkup, sMarkupDash, sComment, sCommentBang, sBogus:
		return nethtml.CommentToken, z.start, true
	}
	// Text, "<" or "</" at the end (text for x/net/html), raw text.
	return nethtml.TextToken, z.start, true
}

// holdFrom is the offset from which the bytes of the current incomplete
// token may still be needed whole: a tag (to read its attributes or change
// it), the "</" of what may become the end tag of raw text, a '<' that may
// start a tag, or, with text, the text itself. Bytes before it can be
// written out as they come.
func (z *tokenizer) holdFrom(withText bool, end int64) int64 {
	switch z.st {
	case sData:
		if withText {
			return z.start
		}
		return end
	case sTagOpen, sEndTagOpen:
		if withText {
			return z.start
		}
		return z.lt
	case sTagName, sBeforeAttr, sAttrKey, sAfterKey, sBeforeValue, sValueQuoted, sValueBare:
		return z.start
	case sRawLT, sRawEnd, scLT, scEndOpen, scEscLT, scEscEndOpen:
		return z.lt
	}
	return end
}
