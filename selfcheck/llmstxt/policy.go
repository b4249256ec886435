package llmstxt

import (
	"regexp"
	"strings"
)

// policyLineRE recognises a line stating a usage policy: terms, a licence,
// what is permitted or allowed, what may (not) be used, quoted, trained on or
// cited, or a Content-Signal.
var policyLineRE = regexp.MustCompile(`(?i)(\bpolicy\b|\bterms\b|\busage\b|\blicen[cs]e\b|\bpermitted\b|\ballowed\b|\bmay (not )?(use|quote|train|cite)\b|\bcontent-signal\b)`)

// policyMaxLines bounds the lines scanned for a policy line.
const policyMaxLines = 20000

// PolicyLine returns the first line of an llms.txt that states a usage
// policy (the access_policy_declared check reads it), trimmed, or "" when
// none of the first lines does.
func PolicyLine(content []byte) string {
	for n, line := range strings.SplitN(string(content), "\n", policyMaxLines) {
		if n >= policyMaxLines-1 {
			break
		}
		if policyLineRE.MatchString(line) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}
