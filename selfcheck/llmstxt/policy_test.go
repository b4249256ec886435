package llmstxt

import (
	"strings"
	"testing"
)

func TestPolicyLine(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"terms line", "# Acme\n\n> Widgets.\n\n  Terms: quote with attribution.  \n", "Terms: quote with attribution."},
		{"may not train", "# Acme\nAgents may not train on these pages.\nLicense: CC-BY\n", "Agents may not train on these pages."},
		{"content signal", "# A\ncontent-signal: search=yes, ai-train=no\n", "content-signal: search=yes, ai-train=no"},
		{"whole words only", "# A\nPolicyholders and termsheets.\n", ""},
		{"none", "# A\n- [Docs](/docs): reference\n", ""},
		{"empty", "", ""},
		{"past the line bound", strings.Repeat("x\n", policyMaxLines) + "Usage: free\n", ""},
		{"just inside the line bound", strings.Repeat("x\n", policyMaxLines-2) + "Usage: free\n", "Usage: free"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PolicyLine([]byte(tt.content)); got != tt.want {
				t.Errorf("PolicyLine = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDescribeEveryRule(t *testing.T) {
	for _, id := range []string{RuleStatus200, RuleNotEmpty, RuleNotHTML, RuleTextType, RuleH1, RuleMarkdownLink, RuleInstructions} {
		if Describe(id) == "" {
			t.Errorf("rule %q has no description", id)
		}
	}
	if Describe("no_such_rule") != "" {
		t.Error("an unknown rule is described")
	}
}
