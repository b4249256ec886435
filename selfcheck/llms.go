package selfcheck

import (
	"context"
	"regexp"
	"strings"

	"github.com/agentready/caddy-agentready/selfcheck/llmstxt"
)

// policyLine recognises a usage-policy line in llms.txt
// (access_policy_declared).
var policyLine = regexp.MustCompile(`(?i)(\bpolicy\b|\bterms\b|\busage\b|\blicen[cs]e\b|\bpermitted\b|\ballowed\b|\bmay (not )?(use|quote|train|cite)\b|\bcontent-signal\b)`)

// llmsFacts are what the Trust checks read from an llms.txt besides the
// llms_txt rule set: a contact line (rule 12) and a policy line.
type llmsFacts struct {
	contact string
	policy  string
}

// llmsLineLimit bounds the lines scanned for a policy line.
const llmsLineLimit = 20000

// inspectLLMS reads the contact and policy lines of an llms.txt body; the
// contact line is llmstxt.Inspect's.
func inspectLLMS(body []byte) llmsFacts {
	f := llmsFacts{contact: llmstxt.Inspect(body).ContactLine}
	for n, line := range strings.SplitN(string(body), "\n", llmsLineLimit) {
		if n >= llmsLineLimit-1 {
			break
		}
		if policyLine.MatchString(line) {
			f.policy = strings.TrimSpace(line)
			break
		}
	}
	return f
}

// llmsTxt fetches /llms.txt once.
func (s *site) llmsTxt(ctx context.Context) *response {
	return s.llmsDoc.get(func() *response {
		return s.f.get(ctx, s.abs("/llms.txt"), "text/plain, text/markdown;q=0.9, */*;q=0.1")
	})
}

// llmsUsable reports a 200 text answer that is not an HTML page.
func llmsUsable(r *response) bool {
	mt := r.mediaType()
	return r.ok() && !isHTMLish(r) && (strings.HasPrefix(mt, "text/") || mt == "")
}
