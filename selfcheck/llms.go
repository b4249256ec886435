package selfcheck

import (
	"context"
	"regexp"
	"strings"
)

// llmsFacts are what the checks read from an llms.txt.
type llmsFacts struct {
	h1           string
	links        int
	instructions bool
	contact      bool
	policy       bool
}

// mdLink matches a Markdown inline link [text](url).
var mdLink = regexp.MustCompile(`\[[^\]\n]*\]\([^)\s]+[^)\n]*\)`)

// contactLine and policyLine recognise a contact line and a usage-policy
// line in llms.txt (rule 12; access_policy_declared).
var (
	contactLine = regexp.MustCompile(`(?i)(mailto:|\bcontact\b|\be-?mail\b|\bsupport@|\bhelp@|\bphone\b)`)
	policyLine  = regexp.MustCompile(`(?i)(\bpolicy\b|\bterms\b|\busage\b|\blicen[cs]e\b|\bpermitted\b|\ballowed\b|\bmay (not )?(use|quote|train|cite)\b|\bcontent-signal\b)`)
)

// inspectLLMS reads the facts of an llms.txt body.
func inspectLLMS(body []byte) llmsFacts {
	var f llmsFacts
	for n, line := range strings.Split(string(body), "\n") {
		if n > 20000 {
			break
		}
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "# ") && f.h1 == "":
			f.h1 = strings.TrimSpace(t[2:])
		case strings.HasPrefix(t, "#"):
		default:
			links := mdLink.FindAllStringIndex(t, -1)
			f.links += len(links)
			prose := strings.TrimSpace(strings.TrimLeft(mdLink.ReplaceAllString(t, ""), "-*>:0123456789. "))
			// A direct instruction is prose, not only a list of links: a
			// sentence of at least five words outside any link.
			if len(strings.Fields(prose)) >= 5 {
				f.instructions = true
			}
		}
		if contactLine.MatchString(t) {
			f.contact = true
		}
		if policyLine.MatchString(t) {
			f.policy = true
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
