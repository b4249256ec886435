package selfcheck

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentready/caddy-agentready/selfcheck/llmstxt"
)

// llmsRuleText names each llmstxt rule id in a receipt's words.
var llmsRuleText = map[string]string{
	llmstxt.RuleStatus200:    "a 200 answer",
	llmstxt.RuleNotEmpty:     "content (the file is empty)",
	llmstxt.RuleNotHTML:      "a text file (an HTML page answered)",
	llmstxt.RuleTextType:     "a text/plain or text/markdown Content-Type",
	llmstxt.RuleH1:           "an H1 title",
	llmstxt.RuleMarkdownLink: "a Markdown link",
	llmstxt.RuleInstructions: "direct plain instructions, not only links (llms_minimal_instruction_required)",
}

// llmsPartialRules are the rules a present llms.txt can miss: each is a
// quarter of the weight.
const llmsPartialRules = 4

// checkLLMSTxt: /llms.txt is 200 text with an H1, ≥ 1 Markdown link and
// direct plain instructions (UAIX llms_minimal_instruction_required). The
// rule set is llmstxt.Evaluate's; Lighthouse's own llms-txt audit rides
// along in the receipt's details.
func checkLLMSTxt(ctx context.Context, s *site) outcome {
	const expected = "200 text/plain or text/markdown with an H1, ≥ 1 Markdown link, and direct plain instructions"
	r := s.llmsTxt(ctx)
	scope := []string{"/llms.txt"}
	if r.unreachable() {
		o := s.couldNotCheck(r, expected)
		o.scope = scope
		return o
	}
	rec := s.receiptOf(r, expected)
	ev := llmstxt.Evaluate(r.status, r.header.Get("Content-Type"), r.body)
	lh := llmstxt.Audit(r.status, r.body)
	rec.Details = map[string]any{"missing_rules": ev.Missing, "lighthouse_llms_txt": lh}
	var missing []string
	for _, id := range ev.Missing {
		missing = append(missing, llmsRuleText[id])
	}
	f := ev.Facts
	rec.Note = fmt.Sprintf("H1 %q, %d link(s), instructions: %t, %d bytes", f.H1, len(f.Links), f.HasInstructions, f.Size)
	var o outcome
	switch ev.Verdict {
	case llmstxt.VerdictPass:
		o = outcome{verdict: Pass, fraction: 1}
	case llmstxt.VerdictPartial:
		o = fromFraction(float64(llmsPartialRules-len(ev.Missing))/llmsPartialRules, strings.Join(missing, "; "))
	default:
		o = outcome{verdict: Fail, missing: strings.Join(missing, "; ")}
		if r.status != 200 {
			o.missing = fmt.Sprintf("no llms.txt (%d)", r.status)
		}
	}
	o.receipt, o.scope = rec, scope
	return o
}
