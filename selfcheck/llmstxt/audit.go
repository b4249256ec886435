package llmstxt

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Lighthouse's llms-txt messages.
const (
	MsgMissingH1    = `File is missing a required H1 header (e.g., "# Title").`
	MsgMissingLinks = "File does not appear to contain any links."
	MsgTooShort     = "File is suspiciously short."
	// ExplanationFetchFailed is the explanation when no status came back.
	ExplanationFetchFailed = "Fetch of llms.txt failed"
)

// jsSpace is JavaScript's \s class (it includes line breaks).
const jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

var (
	// Lighthouse's /^#\s+.+/m and /\[.+\]\(.+\)/ over text whose line
	// terminators are normalised to \n, so that "." is [^\n] as in JavaScript.
	lighthouseH1   = regexp.MustCompile(`(?m)^#[` + jsSpace + `]+[^\n]+`)
	lighthouseLink = regexp.MustCompile(`\[[^\n]+\]\([^\n]+\)`)
	lineBreaks     = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n")
)

// minChars is Lighthouse's "suspiciously short" threshold (UTF-16 code units).
const minChars = 50

// Result is Lighthouse's llms-txt verdict. Score is 1 or 0; NotApplicable
// (with Score 1) for a 4xx. Errors lists the failed content checks.
type Result struct {
	Score         float64  `json:"score"`
	NotApplicable bool     `json:"notApplicable,omitempty"`
	Explanation   string   `json:"explanation,omitempty"`
	DisplayValue  string   `json:"displayValue,omitempty"`
	Errors        []string `json:"errors,omitempty"`
}

// Audit scores an llms.txt fetch as Lighthouse does. status is 0 when no
// response arrived; content is nil when no body was read. Where Lighthouse
// throws (a non-error status without content) the result is a 0 with the
// thrown message as explanation.
func Audit(status int, content []byte) Result {
	switch {
	case status == 0:
		return Result{Explanation: ExplanationFetchFailed}
	case status >= 500:
		return Result{DisplayValue: "Failed with HTTP status " + strconv.Itoa(status)}
	case status >= 400:
		return Result{Score: 1, NotApplicable: true}
	case content == nil:
		return Result{Explanation: "Status " + strconv.Itoa(status) + " was valid, but content was null"}
	}
	text := lineBreaks.Replace(string(bytes.TrimPrefix(content, bom)))
	var errs []string
	if !lighthouseH1.MatchString(text) {
		errs = append(errs, MsgMissingH1)
	}
	if !lighthouseLink.MatchString(text) {
		errs = append(errs, MsgMissingLinks)
	}
	if utf16Len(string(bytes.TrimPrefix(content, bom))) < minChars {
		errs = append(errs, MsgTooShort)
	}
	if len(errs) > 0 {
		return Result{Errors: errs}
	}
	return Result{Score: 1}
}

// bom is the UTF-8 byte order mark Lighthouse strips first.
var bom = []byte("\uFEFF")

// utf16Len is JavaScript's string length.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
