package htmlrewrite

import (
	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
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

	tok token // the token next reports

	tt      nethtml.TokenType // the tag being read: StartTagToken or EndTagToken
	name    [16]byte          // the tag name, lower-cased (its first 16 bytes)
	nameLen int               // the full length of the tag name
	attrs   []attrSpan        // the tag's attributes, offsets from its '<'
	quote   byte              // the quote of the value being read

	// quiet: report only the tags rewriteState.needs may want once the head
	// is done (see annotatable); others are skipped.
	quiet bool
	// noSkim makes quiet mode read text as readText does, without skim:
	// the slow path, which the tests compare skim against.
	noSkim bool

	rawTag string // the raw-text element whose end tag ends the text; "" for none
	match  int    // bytes of rawTag (or "script") matched after "</"
	dashes int    // comment: '-' seen in a row
	begin  bool   // comment: nothing but '-' seen since "<!--"
}

// token is a token next reports: its type and its stream offsets [start,
// end).
type token struct {
	tt         nethtml.TokenType
	start, end int64
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

// rel is the offset of p[i] from the '<' of the current tag.
func (z *tokenizer) rel(base int64, i int) int { return int(base + int64(i) - z.start) }

// emit completes the current token at end, puts it in z.tok and resumes
// the scan at p[i]; it returns true, for the read methods to return.
func (z *tokenizer) emit(tt nethtml.TokenType, end, base int64, i int) bool {
	z.tok = token{tt: tt, start: z.start, end: end}
	z.start, z.off = end, base+int64(i)
	if z.st != sTagOpen {
		z.st = sData
	}
	return true
}

// emitComment completes a comment-like token at p[i-1]; it is not reported
// in quiet mode.
func (z *tokenizer) emitComment(base int64, i int) bool {
	return z.emit(nethtml.CommentToken, base+int64(i), base, i) && !z.quiet
}

// startTag begins reading a tag whose '<' is at z.start.
func (z *tokenizer) startTag(tt nethtml.TokenType) {
	z.tt, z.st, z.nameLen, z.attrs = tt, sTagName, 0, z.attrs[:0]
}

// endTag completes the tag whose '>' is p[i-1], and sets up the raw-text
// state a start tag may call for (x/net/html does so for self-closing
// tags too). It is not reported when skipped in quiet mode.
func (z *tokenizer) endTag(base int64, i int) bool {
	z.emit(z.tt, base+int64(i), base, i)
	if z.tt == nethtml.StartTagToken {
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
	return !z.quiet || annotatable(z.tt, z.tagName())
}

// tagName is the lower-cased name of the tag just completed, nil when it
// is longer than any the rewriter looks for.
func (z *tokenizer) tagName() []byte {
	if z.nameLen > len(z.name) {
		return nil
	}
	return z.name[:z.nameLen]
}

// rawName is the tag's name when it starts a raw-text element
// (isRawTextName), "" otherwise. It returns the atom's string, a constant:
// string(name) would allocate. Only a raw-text tag (script, style, title…)
// is looked up; any other costs the one switch.
func (z *tokenizer) rawName() string {
	if z.nameLen > len(z.name) || !isRawTextName(z.name[:z.nameLen]) {
		return ""
	}
	return atom.Lookup(z.name[:z.nameLen]).String()
}

// isRawTextName reports whether a lower-cased tag name names a raw-text
// element: one whose content x/net/html's Tokenizer reads as text, up to
// its end tag (or, for plaintext, to the end of the stream). The one list
// of them: the tokenizer finds the end of their text by it (rawName), the
// rewrite state knows the text that follows is not the body's start
// (isRawText). Generic so that the tokenizer's bytes are switched on as
// they are, without a copy into a string.
func isRawTextName[T string | []byte](name T) bool {
	switch string(name) {
	case "iframe", "noembed", "noframes", "noscript", "plaintext",
		"script", "style", "textarea", "title", "xmp":
		return true
	}
	return false
}

// isRawText is isRawTextName for an atom.
func isRawText(a atom.Atom) bool { return isRawTextName(a.String()) }

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

// annotatable reports whether, once the head is done, a token of type tt
// named name may gain anything or change what later ones gain: the start
// tags of html, form and a form's fields, and </form>. The tokenizer's
// quiet mode reports only these.
func annotatable(tt nethtml.TokenType, name []byte) bool {
	switch string(name) {
	case "form":
		return tt == nethtml.StartTagToken || tt == nethtml.EndTagToken
	case "html", "input", "select", "textarea":
		return tt == nethtml.StartTagToken
	}
	return false
}
