package llmstxt

import (
	"bytes"
	"mime"
	"strings"
)

// Rule ids of the strict llms_txt check, as receipts name what is missing.
const (
	RuleStatus200    = "status_200"
	RuleNotEmpty     = "not_empty"
	RuleNotHTML      = "not_html"
	RuleTextType     = "text_content_type"
	RuleH1           = "h1"
	RuleMarkdownLink = "markdown_link"
	// RuleInstructions is UAIX's llms_minimal_instruction_required: direct
	// plain instructions, not only links to complex specs.
	RuleInstructions = "llms_minimal_instruction_required"
)

// ruleText names each rule id in a receipt's words.
var ruleText = map[string]string{
	RuleStatus200:    "a 200 answer",
	RuleNotEmpty:     "content (the file is empty)",
	RuleNotHTML:      "a text file (an HTML page answered)",
	RuleTextType:     "a text/plain or text/markdown Content-Type",
	RuleH1:           "an H1 title",
	RuleMarkdownLink: "a Markdown link",
	RuleInstructions: "direct plain instructions, not only links (llms_minimal_instruction_required)",
}

// Describe names what a rule id asks for, in a receipt's words ("" for an
// unknown id).
func Describe(rule string) string { return ruleText[rule] }

// Verdicts of Evaluate.
const (
	VerdictPass    = "pass"
	VerdictPartial = "partial"
	VerdictFail    = "fail"
)

// Evaluation is the strict llms_txt verdict (STANDARD §7): PASS when the file
// is 200 text with an H1, a Markdown link and direct instructions; PARTIAL
// when it is there but misses some of these; FAIL when it is not there at all
// (not 200, empty, or an HTML page answering for a missing file).
type Evaluation struct {
	Verdict string `json:"verdict"`
	// Missing lists the rule ids that did not hold, in rule order.
	Missing []string `json:"missing,omitempty"`
	Facts   Facts    `json:"facts"`
}

// Evaluate judges an llms.txt fetch by this project's rule set. contentType
// is the response's Content-Type field value.
func Evaluate(status int, contentType string, content []byte) Evaluation {
	if status != 200 {
		return Evaluation{Verdict: VerdictFail, Missing: []string{RuleStatus200}}
	}
	f := Inspect(content)
	if len(bytes.TrimSpace(bytes.TrimPrefix(content, bom))) == 0 {
		return Evaluation{Verdict: VerdictFail, Missing: []string{RuleNotEmpty}, Facts: f}
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	// A catch-all route answering with the site's HTML page is not an
	// llms.txt, whatever its status.
	if mt == "text/html" || mt == "application/xhtml+xml" || looksLikeHTML(content) {
		return Evaluation{Verdict: VerdictFail, Missing: []string{RuleNotHTML}, Facts: f}
	}
	var missing []string
	if !strings.HasPrefix(mt, "text/") {
		missing = append(missing, RuleTextType)
	}
	if f.H1 == "" {
		missing = append(missing, RuleH1)
	}
	if len(f.Links) == 0 {
		missing = append(missing, RuleMarkdownLink)
	}
	if !f.HasInstructions {
		missing = append(missing, RuleInstructions)
	}
	v := VerdictPass
	if len(missing) > 0 {
		v = VerdictPartial
	}
	return Evaluation{Verdict: v, Missing: missing, Facts: f}
}

// looksLikeHTML sniffs an HTML document (WHATWG MIME sniffing §7.1 patterns,
// reduced to the two that matter here).
func looksLikeHTML(b []byte) bool {
	b = bytes.TrimLeft(bytes.TrimPrefix(b, bom), " \t\r\n\f")
	if len(b) > 14 {
		b = b[:14]
	}
	l := bytes.ToLower(b)
	return bytes.HasPrefix(l, []byte("<!doctype html")) || bytes.HasPrefix(l, []byte("<html"))
}
