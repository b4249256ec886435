package frontmatter

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// writeScalar writes s as a YAML scalar that reads back as the string s:
// plain when that is unambiguous, double-quoted otherwise (YAML 1.2.2 §7.3.1).
func writeScalar(b *bytes.Buffer, s string) {
	if plainSafe(s) {
		b.WriteString(s)
		return
	}
	writeQuoted(b, s)
}

// isoDate matches a calendar date, written plain so front matter reads
// "updated: 2026-09-15" as in STANDARD.md §6.
var isoDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// yamlKeywords are the plain scalars that YAML 1.1 or 1.2 resolve to
// booleans or null (compared lowercased).
var yamlKeywords = map[string]bool{
	"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true,
	"true": true, "false": true, "null": true, "~": true,
}

// plainSafe reports whether s can be written as a plain scalar and still be
// read as the same string by YAML 1.1 and 1.2 parsers. It is deliberately
// conservative: anything doubtful is quoted.
func plainSafe(s string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	if isoDate.MatchString(s) {
		return true
	}
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	if !unicode.IsLetter(first) && !unicode.IsDigit(first) {
		return false
	}
	if last == ' ' || last == ':' {
		return false
	}
	if unicode.IsDigit(first) && !strings.Contains(s, " ") {
		return false // may resolve to a number, timestamp or base-60 value
	}
	if yamlKeywords[strings.ToLower(s)] {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) || needsEscape(r) {
			return false
		}
	}
	return true
}

// needsEscape reports whether r must be escaped inside a double-quoted YAML
// scalar written on one line: YAML's non-printable characters (YAML 1.2.2
// §5.1), line breaks (including the YAML 1.1 ones) and the byte order mark.
func needsEscape(r rune) bool {
	switch r {
	case '\u0085', '\u2028', '\u2029', '\uFEFF':
		return true
	}
	return !unicode.IsPrint(r) && r != ' '
}

// writeQuoted writes s as a double-quoted YAML scalar on one line, escaping
// quotes, backslashes and every character needsEscape names.
func writeQuoted(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case needsEscape(r):
			writeEscape(b, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// writeEscape writes r as a YAML \x, \u or \U escape (YAML 1.2.2 §5.7).
func writeEscape(b *bytes.Buffer, r rune) {
	var prefix string
	var width int
	switch {
	case r < 0x100:
		prefix, width = `\x`, 2
	case r < 0x10000:
		prefix, width = `\u`, 4
	default:
		prefix, width = `\U`, 8
	}
	hex := strconv.FormatInt(int64(r), 16)
	b.WriteString(prefix)
	b.WriteString(strings.Repeat("0", width-len(hex)))
	b.WriteString(hex)
}
