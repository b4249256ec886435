package selfcheck

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/agentready/caddy-agentready/selfcheck/internal/parse"
)

func init() {
	register(map[string]checkFunc{
		"web_actions_declared":     checkWebActionsDeclared,
		"tool_form_quality":        checkToolFormQuality,
		"surface_coverage":         checkSurfaceCoverage,
		"tools_permissions_policy": checkToolsPermissionsPolicy,
	})
}

// visibleForms returns the forms a visitor can see.
func visibleForms(f *parse.Page) []parse.Form {
	var out []parse.Form
	for _, fm := range f.Forms {
		if !fm.Hidden {
			out = append(out, fm)
		}
	}
	return out
}

// checkWebActionsDeclared: pages with forms declare them as WebMCP tools
// (toolname + tooldescription, or document.modelContext.registerTool()).
// N/A on a route with no form or action control.
func checkWebActionsDeclared(ctx context.Context, s *site) outcome {
	const expected = `forms carry toolname + tooldescription, or the page calls document.modelContext.registerTool()`
	return s.perRoute(ctx, expected, nil, func(p *page) routeOutcome {
		forms := visibleForms(p.facts)
		if len(forms) == 0 && len(p.facts.Surfaces) == 0 {
			return routeNA("no form or action control")
		}
		full, name, hyphen := 0, 0, 0
		for _, f := range forms {
			switch {
			case f.ToolName != "" && strings.TrimSpace(f.ToolDescription) != "":
				full++
			case f.ToolName != "":
				name++
			case f.Hyphenated:
				hyphen++
			}
		}
		got := fmt.Sprintf("%d form(s): %d with toolname+tooldescription, %d toolname only, %d tool-name only; registerTool: %t; navigator.modelContext: %t",
			len(forms), full, name, hyphen, p.facts.Register, p.facts.Navigator)
		switch {
		case full > 0 || p.facts.Register:
			return routePass(got)
		case name > 0:
			ro := routeFraction(0.5, got, "tooldescription on the annotated form").because(CauseToolDescriptionMissing)
			ro.fix = webmcpSnippet(forms)
			return ro
		case hyphen > 0 || p.facts.Navigator:
			return routeFraction(0.5, got, "toolname/tooldescription (hyphenated tool-name or navigator.modelContext only)").because(CauseToolHyphenated)
		}
		ro := routeFraction(0, got, "a WebMCP declaration for the page's forms").because(CauseFormsUnannotated)
		ro.fix = webmcpSnippet(forms)
		return ro
	})
}

// snakeCase matches a snake_case tool name.
var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// checkToolFormQuality: annotated forms have a snake_case toolname, a
// tooldescription of ≥ 10 characters, fields with name and <label>, and
// toolparamdescription on inputs. A route FAILs outright when a form's
// tooldescription is a fix snippet's placeholder (PlaceholderToolDescription:
// it says nothing about the form) or two forms share a toolname (an agent
// cannot tell them apart). N/A without annotated forms.
func checkToolFormQuality(ctx context.Context, s *site) outcome {
	const expected = "annotated forms: unique snake_case toolnames, a tooldescription of ≥ 10 characters that is not a placeholder, every field named and labelled, toolparamdescription on every input"
	return s.perRoute(ctx, expected, nil, func(p *page) routeOutcome {
		met, total := 0, 0
		var missing, placeholder, dup []string
		seen := map[string]int{}
		forms := visibleForms(p.facts)
		for _, f := range forms {
			if !f.Annotated() {
				continue
			}
			label := f.ToolName
			if label == "" {
				label = "form " + f.ID
			}
			if f.ToolName != "" {
				if seen[f.ToolName]++; seen[f.ToolName] == 2 {
					dup = append(dup, f.ToolName)
				}
			}
			if isPlaceholder(f.ToolDescription) {
				placeholder = append(placeholder, label)
			}
			total += 4
			ok := func(cond bool, what string) {
				if cond {
					met++
				} else if len(missing) < 8 {
					missing = append(missing, label+": "+what)
				}
			}
			ok(snakeCase.MatchString(f.ToolName), "snake_case toolname")
			ok(len(strings.TrimSpace(f.ToolDescription)) >= 10, "tooldescription ≥ 10 characters")
			named, described := true, true
			for _, fld := range f.Fields {
				named = named && fld.Name != "" && fld.Labelled
				described = described && fld.ParamDesc
			}
			ok(named, "name and <label> on every field")
			ok(described, "toolparamdescription on every input")
		}
		if total == 0 {
			return routeNA("no annotated form")
		}
		got := fmt.Sprintf("%d of %d criteria met on %d form(s)", met, total, total/4)
		var ro routeOutcome
		switch {
		case len(placeholder) > 0:
			ro = routeFraction(0, got, "a tooldescription of its own on "+strings.Join(placeholder, ", ")+" (the fix snippet's placeholder describes nothing)").because(CausePlaceholderDescription)
		case len(dup) > 0:
			ro = routeFraction(0, got, "a distinct toolname per form ("+strings.Join(dup, ", ")+" names more than one)").because(CauseDuplicateToolName)
		default:
			ro = routeFraction(float64(met)/float64(total), got, strings.Join(missing, "; ")).because(CauseFormCriteria)
		}
		ro.fix = webmcpSnippet(forms)
		return ro
	})
}

// checkSurfaceCoverage: ≥ 50% of visible forms, search inputs and action
// controls are covered by tool annotations (hidden, inert and <template>
// content not counted). N/A with no interactive surface.
func checkSurfaceCoverage(ctx context.Context, s *site) outcome {
	const expected = "≥ 50% of visible forms, search inputs and action controls carry tool annotations"
	return s.perRoute(ctx, expected, nil, func(p *page) routeOutcome {
		total, covered := 0, 0
		for _, f := range visibleForms(p.facts) {
			total++
			if f.Annotated() {
				covered++
			}
		}
		for _, sf := range p.facts.Surfaces {
			total++
			if sf.Annotated {
				covered++
			}
		}
		if total == 0 {
			return routeNA("no interactive surface")
		}
		ratio := float64(covered) / float64(total)
		got := fmt.Sprintf("%d of %d surface(s) annotated", covered, total)
		ro := routeFraction(ratio/0.5, got, fmt.Sprintf("annotations on at least half the surfaces (%d of %d)", covered, total)).because(CauseCoverageLow)
		ro.fix = webmcpSnippet(visibleForms(p.facts))
		return ro
	})
}

// toolsPolicy reads the "tools" member of a Permissions-Policy header, a
// structured-field dictionary (RFC 8941 §3.2; W3C Permissions Policy §5).
// present is false when no member names it.
func toolsPolicy(values []string) (allowlist string, present bool) {
	for _, v := range values {
		for _, member := range splitTopLevel(v) {
			k, val, _ := strings.Cut(strings.TrimSpace(member), "=")
			if strings.EqualFold(strings.TrimSpace(k), "tools") {
				allowlist, present = strings.TrimSpace(val), true
			}
		}
	}
	return allowlist, present
}

// splitTopLevel splits a structured-field dictionary on commas outside
// parentheses and quotes.
func splitTopLevel(v string) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth <= 0:
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	return append(out, v[start:])
}

// checkToolsPermissionsPolicy: no Permissions-Policy entry for tools (the
// default allowlist is the own origin: PASS, rule 7), or one that allows
// self. FAIL when it disables page tools.
func checkToolsPermissionsPolicy(ctx context.Context, s *site) outcome {
	const expected = "no Permissions-Policy member for tools (default: own origin), or tools=(self …) / tools=*"
	return s.perRoute(ctx, expected, []string{"Permissions-Policy"}, func(p *page) routeOutcome {
		allow, present := toolsPolicy(p.resp.header.Values("Permissions-Policy"))
		if !present {
			return routePass("no tools member: default allowlist (self) applies")
		}
		got := "tools=" + allow
		items := strings.Fields(strings.Trim(allow, "()"))
		for _, it := range items {
			if it == "self" || it == "*" || allow == "*" {
				return routePass(got)
			}
		}
		return routeFraction(0, got, "tools allowlist includes self (it disables page tools)").because(CauseToolsDisabled)
	})
}
