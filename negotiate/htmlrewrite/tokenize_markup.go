package htmlrewrite

import "bytes"

// The read methods of comments, doctypes and processing instructions, all
// of which the rewriter reports as comments.

// readMarkup reads what follows "<!": the "--" that starts a comment, or
// else a doctype or bogus comment, which runs to the next '>' (as one
// after "<?", or after "</" and no letter, does).
func (z *tokenizer) readMarkup(p []byte, base int64, i int) (int, bool) {
	for ; i < len(p) && z.st != sBogus; i++ {
		if p[i] != '-' {
			z.st = sBogus // reconsume: "<!>" ends at its '>'
			break
		}
		if z.st == sMarkup {
			z.st = sMarkupDash
			continue
		}
		z.st, z.dashes, z.begin = sComment, 0, true
		return z.readComment(p, base, i+1)
	}
	j := bytes.IndexByte(p[i:], '>')
	if j < 0 {
		return len(p), false
	}
	i += j + 1
	return i, z.emitComment(base, i)
}

// readComment reads a comment after its "<!--", up to the "-->" or "--!>"
// that ends it (or the '>' of "<!-->" and "<!--->").
func (z *tokenizer) readComment(p []byte, base int64, i int) (int, bool) {
	for ; i < len(p); i++ {
		c := p[i]
		if z.st == sCommentBang {
			switch c {
			case '>':
				return i + 1, z.emitComment(base, i+1)
			case '-':
				z.dashes, z.begin, z.st = 1, false, sComment
			default:
				z.dashes, z.begin, z.st = 0, false, sComment // c is consumed unexamined
			}
			continue
		}
		if z.dashes == 0 && !z.begin && c != '-' {
			// Only a '-' can start the end of the comment.
			j := bytes.IndexByte(p[i:], '-')
			if j < 0 {
				return len(p), false
			}
			i += j
			c = '-'
		}
		switch {
		case c == '-':
			z.dashes++
		case c == '>' && (z.dashes >= 2 || z.begin):
			return i + 1, z.emitComment(base, i+1)
		case c == '!' && z.dashes >= 2:
			z.st = sCommentBang
		default:
			z.dashes, z.begin = 0, false
		}
	}
	return i, false
}
