package selfcheck

import (
	"context"
	"fmt"
	"strings"
)

// checkLLMSTxt: /llms.txt is 200 text with an H1, ≥ 1 Markdown link and
// direct plain instructions (UAIX llms_minimal_instruction_required).
func checkLLMSTxt(ctx context.Context, s *site) outcome {
	const expected = "200 text/plain or text/markdown with an H1, ≥ 1 Markdown link, and direct plain instructions"
	r := s.llmsTxt(ctx)
	rec := s.receiptOf(r, expected)
	scope := []string{"/llms.txt"}
	switch {
	case r.unreachable():
		o := s.couldNotCheck(r, expected)
		o.scope = scope
		return o
	case !r.ok():
		return outcome{verdict: Fail, missing: fmt.Sprintf("no llms.txt (%d)", r.status), receipt: rec, scope: scope}
	case isHTMLish(r):
		return outcome{verdict: Fail, missing: "/llms.txt answers an HTML page", receipt: rec, scope: scope}
	}
	f := inspectLLMS(r.body)
	have := 0
	var missing []string
	part := func(ok bool, what string) {
		if ok {
			have++
		} else {
			missing = append(missing, what)
		}
	}
	part(llmsUsable(r), "a text/plain or text/markdown Content-Type")
	part(f.h1 != "", "an H1 title")
	part(f.links > 0, "a Markdown link")
	part(f.instructions, "direct plain instructions (not only links)")
	rec.Note = fmt.Sprintf("H1 %q, %d link(s), instructions: %t, %d bytes", f.h1, f.links, f.instructions, len(r.body))
	o := fromFraction(float64(have)/4, strings.Join(missing, "; "))
	o.receipt, o.scope = rec, scope
	return o
}
