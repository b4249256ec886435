package htmlrewrite

import (
	"bytes"

	nethtml "golang.org/x/net/html"
)

// next is the tokenizer's entry: a dispatch loop over the read methods of
// the tokenize_*.go files. The tokenizer's type, its states and how a token
// completes are in tokenizer.go.

// next scans the chunk p, whose first byte is at stream offset base, from
// where the last call stopped. It returns at the first token that
// completes, as its type and its offsets [start, end), or ok false once p
// is used up. A returned start tag may be a self-closing one: see
// selfClosing. Comments, doctypes and processing instructions are all
// CommentToken; the content of a raw-text element is a TextToken.
//
// Each group of states has its read method. It reads from p[i] while the
// state stays in its group and returns the index of the next byte to read
// and whether a token completed (it is then in z.tok, and z.off is where
// the next call resumes). Where the state moves on to a later group (from
// text to a tag's name, its attributes, its '>'), a read method hands over
// to that group's method itself, so a token is read in one pass; a state
// that goes back (to text after a tag) returns here. Hand-overs only go
// forward (text, '<', name, attributes; "<!", comment; the end tag of raw
// text or a script to its name), so the calls nest a few deep at most. The
// hot loops jump with bytes.IndexByte inside their method: text, quoted
// values, comments.
func (z *tokenizer) next(p []byte, base int64) (tt nethtml.TokenType, start, end int64, ok bool) {
	i := int(z.off - base)
	for i < len(p) {
		var done bool
		switch z.st {
		case sData, sRaw, scData:
			i, done = z.readText(p, base, i)
		case sTagOpen, sEndTagOpen:
			i, done = z.readTagOpen(p, base, i)
		case sTagName:
			i, done = z.readTagName(p, base, i)
		case sBeforeAttr, sAttrKey, sAfterKey, sBeforeValue, sValueQuoted, sValueBare:
			i, done = z.readAttrs(p, base, i)
		case sMarkup, sMarkupDash, sBogus:
			i, done = z.readMarkup(p, base, i)
		case sComment, sCommentBang:
			i, done = z.readComment(p, base, i)
		case sRawLT, sRawEnd, sPlaintext:
			i, done = z.readRaw(p, base, i)
		case scLT, scEndOpen, scEscEndOpen, scEscStart, scEscStartDash:
			i, done = z.readScript(p, base, i)
		default: // scEsc to scDblEnd
			i = z.readScriptEscaped(p, base, i)
		}
		if done {
			return z.tok.tt, z.tok.start, z.tok.end, true
		}
	}
	z.off = base + int64(len(p))
	return 0, 0, 0, false
}

// readText skips text, raw text or script data to the next '<': only a
// '<' can change their state.
func (z *tokenizer) readText(p []byte, base int64, i int) (int, bool) {
	if z.quiet && z.st == sData && !z.noSkim {
		return z.skim(p, base, i)
	}
	j := bytes.IndexByte(p[i:], '<')
	if j < 0 {
		return len(p), false
	}
	i += j
	z.lt = base + int64(i)
	switch z.st {
	case sData:
		z.st = sTagOpen
		return z.readTagOpen(p, base, i+1)
	case sRaw:
		z.st = sRawLT
		return z.readRaw(p, base, i+1)
	}
	z.st = scLT
	return z.readScript(p, base, i+1)
}
