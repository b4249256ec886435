package selfcheck

import (
	"net/http"
	"slices"
	"testing"
)

// interfaceCheckpoints are the checkpoints that apply only when a backend
// interface exists: where R9 is NOT_APPLICABLE, so are they.
var interfaceCheckpoints = []string{"ia.a2a-agent-card", "ia.mcp-server-card", "ia.mcp-live", "ia.mcp-apps", "ia.openapi", "ia.openapi-quality",
	"ia.openapi-live", "ia.api-errors", "ia.api-rate-limits", "ia.api-catalog", "ia.developer-docs-link", "ia.docs-answer", "ia.sdk-cli"}

// TestLensesAgree scans sites of every kind and holds the lenses together
// where they judge the same fact: a checkpoint's Agrees check, and R9's
// applicability.
func TestLensesAgree(t *testing.T) {
	sites := map[string]func(t testing.TB) http.Handler{
		"agent-ready":       ready(),
		"bare":              bare(),
		"OpenAPI only":      bare(withOpenAPI, apiStatus("application/json", nil)),
		"MCP only":          bare(replace("/mcp", fakeMCP("ok"))),
		"declared, missing": bare(card(`{"interfaces":[{"type":"openapi","url":"/api/openapi.json"}],"authentication":{}}`)),
		"forms":             bare(htmlAt("/", `<form tool-name="x"><input name="q"></form><form><input name="r"></form>`)),
	}
	for name, site := range sites {
		t.Run(name, func(t *testing.T) {
			r := scanHandler(t, site(t), Options{})
			for _, cpr := range r.Checkpoints {
				if cpr.Agrees == "" {
					continue
				}
				c := r.checkByID(cpr.Agrees)
				if !agree(*c, cpr) {
					t.Errorf("%s is %s (found %v) but %s is %s (%s)", c.ID, c.Verdict, foundOf(*c), cpr.ID, cpr.Verdict, cpr.Missing)
				}
			}
			if r9 := r.checkByID("backend_interface_declared"); r9.Verdict == NotApplicable {
				for _, id := range interfaceCheckpoints {
					if v := r.checkpointByID(id).Verdict; v != NotApplicable {
						t.Errorf("R9 is NOT_APPLICABLE but %s is %s", id, v)
					}
				}
				for _, id := range []string{"mcp_transport", "access_documented", "signin_discovery", "openapi_quality"} {
					if v := r.checkByID(id).Verdict; v != NotApplicable {
						t.Errorf("R9 is NOT_APPLICABLE but %s is %s", id, v)
					}
				}
			}
		})
	}
}

// foundOf reads an optional check's found flag.
func foundOf(c CheckResult) any {
	if c.Found == nil {
		return nil
	}
	return *c.Found
}

// agree reports whether a scored check and the checkpoint judging the
// same fact tell the same story.
func agree(c CheckResult, cpr CheckpointResult) bool {
	in := func(vs ...Verdict) bool { return slices.Contains(vs, cpr.Verdict) }
	if c.Verdict == CouldNotCheck {
		return in(CouldNotCheck, NotApplicable, Fail)
	}
	if c.Verdict == Optional {
		if c.Found != nil && !*c.Found {
			return in(Fail, NotApplicable, CouldNotCheck)
		}
		return true // found: the checkpoint judges its content
	}
	switch c.Verdict {
	case Pass:
		return in(Pass, Partial)
	case Partial:
		return in(Partial, Pass, Fail)
	case Fail:
		return in(Fail, Partial)
	case NotApplicable:
		return in(NotApplicable, Pass)
	}
	return false
}
