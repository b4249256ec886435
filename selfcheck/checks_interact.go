package selfcheck

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentready/caddy-agentready/internal/o200k"
	"github.com/agentready/caddy-agentready/selfcheck/ard"
	"github.com/agentready/caddy-agentready/selfcheck/internal/parse"
	"github.com/agentready/caddy-agentready/selfcheck/llmstxt"
	"github.com/agentready/caddy-agentready/selfcheck/mcpprobe"
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

func init() {
	register(map[string]checkFunc{
		"backend_interface_declared": checkBackendInterface,
		"mcp_transport":              checkMCPTransport,
		"access_documented":          checkAccessDocumented,
		"signin_discovery":           checkSigninDiscovery,
		"openapi_quality":            checkOpenAPIQuality,
	})
}

// declaresNoInterface reports a capability card that says, with an empty
// interfaces array, that the service offers no backend interface.
func declaresNoInterface(m manifestResult) bool {
	arr, ok := m.doc["interfaces"].([]any)
	return ok && len(arr) == 0 && len(m.interfaces()) == 0
}

// interfaceAnswers fetches a declared non-MCP interface: it answers when it
// gives any HTTP answer but 404/410 or 5xx (a GraphQL endpoint may well
// refuse a bare GET with 400 or 405).
func (s *site) interfaceAnswers(ctx context.Context, u string) (*response, bool) {
	resp := s.f.get(ctx, u, acceptJSON)
	return resp, !resp.unreachable() && resp.status != 404 && resp.status != 410
}

// checkBackendInterface: a live MCP endpoint, an OpenAPI 3.x document, a
// GraphQL schema, or an interface named in agents.json that answers (R9).
// R9 applies only "when the service offers any" (STANDARD.md §2): a site
// with nothing declared, nothing at the OpenAPI, MCP and A2A addresses and
// no API advertised by a link and no form that writes is NOT_APPLICABLE. A declared interface whose
// document does not resolve is never a pass: FAIL when nothing else
// answers, PARTIAL beside one that does, with its receipt either way.
func checkBackendInterface(ctx context.Context, s *site) outcome {
	const expected = "a live MCP endpoint, an OpenAPI 3.x document, or an interface named in agents.json that answers"
	m := s.manifest(ctx)
	oa := s.openapi(ctx)
	mc := s.mcp(ctx)
	b := s.backend(ctx)
	scope := []string{"/.well-known/agents.json", "/agents.json", pathOf(mc.url)}
	var also []Exchange
	for _, t := range oa.tried {
		also = append(also, s.also(t))
		scope = append(scope, pathOf(t.req.url))
	}
	var firstMissing *response
	var answering *declaredDoc
	for i, d := range b.declared {
		if !slicesContainsResp(oa.tried, d.resp) {
			also = append(also, s.also(d.resp))
		}
		if !d.resolves && !d.resp.unreachable() && firstMissing == nil {
			firstMissing = d.resp
		}
		if d.resolves && answering == nil {
			answering = &b.declared[i]
		}
	}
	done := func(o outcome, main *response, note string) outcome {
		o.receipt = s.receiptOf(main, expected)
		o.receipt.Also, o.receipt.Note, o.scope = also, note, scope
		if mc.found {
			o.receipt.Details = map[string]any{"mcp": mc.probe}
		}
		return o
	}
	missing := b.missingText()
	var pass *outcome
	var passResp *response
	var passNote string
	switch {
	case mc.probe.Initialize:
		pass, passResp, passNote = &outcome{verdict: Pass}, m.chosen, fmt.Sprintf("MCP endpoint %s (from %s) answers initialize", redactURL(mc.url), mc.source)
	case oa.version == "3.x":
		pass, passResp, passNote = &outcome{verdict: Pass}, oa.resp, "OpenAPI "+str(oa.doc, "openapi")+" document at "+redactURL(oa.resp.req.url)
	case a2aUsable(b.a2a.doc):
		pass, passResp, passNote = &outcome{verdict: Pass}, b.a2a.resp, "A2A agent card at "+redactURL(b.a2a.resp.req.url)
	case answering != nil:
		pass, passResp, passNote = &outcome{verdict: Pass}, answering.resp, fmt.Sprintf("%s interface named in agents.json answers %d", answering.kind, answering.resp.status)
	}
	if pass != nil {
		if missing != "" {
			// Something answers, but the card also promises a document
			// that is not there: the declaration is half true.
			return done(outcome{verdict: Partial, fraction: 0.5, missing: "declared interface documents that resolve: " + missing, cause: CauseInterfaceUnresolved}, firstMissing, passNote)
		}
		return done(*pass, passResp, passNote)
	}
	switch {
	case missing == "" && len(b.declared) > 0 && allDeclaredUnreachable(b.declared):
		return done(outcome{verdict: CouldNotCheck, missing: "no declared interface gave a usable answer: " + b.declared[0].resp.errText()}, b.declared[0].resp, "")
	case missing != "":
		return done(outcome{verdict: Fail, missing: "declared interface documents that resolve: " + missing, cause: CauseInterfaceUnresolved}, firstMissing, "")
	case oa.version == "2.0":
		return done(outcome{verdict: Partial, fraction: 0.5, missing: "the API is described by Swagger 2.0, not OpenAPI 3.x", cause: CauseSwagger2}, oa.resp, "")
	case mc.found && mc.probe.NeedsToken():
		return done(outcome{verdict: Partial, fraction: 0.5, missing: "the MCP endpoint needs a token even to initialize; nothing could be listed", cause: CauseMCPNeedsToken}, m.chosen, "MCP endpoint "+redactURL(mc.url))
	case mc.declared:
		return done(outcome{verdict: Fail, missing: "the declared MCP endpoint does not answer initialize" + errSuffix(mc.probe.Err), cause: CauseMCPNotAnswering}, m.chosen, "MCP endpoint "+redactURL(mc.url)+" (from "+mc.source+")")
	case declaresNoInterface(m) && !b.offered:
		return done(outcome{verdict: NotApplicable}, m.chosen, "agents.json declares an empty interfaces array: no backend interface offered")
	case oa.allUnreachable() && mc.probe.Unreachable() && m.wellKnown.unreachable():
		return done(outcome{verdict: CouldNotCheck, missing: "no candidate answered: " + oa.resp.errText()}, oa.resp, "")
	case !b.offered:
		return done(outcome{verdict: NotApplicable}, m.chosen, "no backend offered: nothing declared, nothing at the OpenAPI, MCP or A2A addresses, no API advertised by a link, no form that writes (R9 applies only when the service offers one)")
	}
	return done(outcome{verdict: Fail, missing: "no MCP endpoint, OpenAPI document or declared interface, though the site offers a backend: " + b.why, cause: CauseInterfaceMissing}, m.chosen, "")
}

// allDeclaredUnreachable reports declared documents none of which gave a
// usable answer.
func allDeclaredUnreachable(ds []declaredDoc) bool {
	for _, d := range ds {
		if !d.resp.unreachable() {
			return false
		}
	}
	return true
}

// a2aUsable reports an A2A card that names where the agent answers: 1.0
// supportedInterfaces or a 0.3 top-level url.
func a2aUsable(card map[string]any) bool {
	si, _ := card["supportedInterfaces"].([]any)
	return len(si) > 0 || str(card, "url") != ""
}

// slicesContainsResp reports whether list holds r.
func slicesContainsResp(list []*response, r *response) bool {
	for _, e := range list {
		if e == r {
			return true
		}
	}
	return false
}

// errSuffix formats an optional error for a missing line.
func errSuffix(e string) string {
	if e == "" {
		return ""
	}
	return " (" + e + ")"
}

// checkMCPTransport: the MCP endpoint answers initialize with a negotiated
// version and tools/list over streamable HTTP. N/A with no MCP.
func checkMCPTransport(ctx context.Context, s *site) outcome {
	const expected = "POST initialize → a negotiated protocol version, then tools/list answers (streamable HTTP, same origin); never a tool call"
	mc := s.mcp(ctx)
	rec := Receipt{Request: &RequestRecord{Method: "POST", URL: redactURL(mc.url), Header: map[string]string{"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}}, Expected: expected, Details: mc.probe}
	scope := []string{pathOf(mc.url)}
	rec.Note = "endpoint from " + mc.source + "\n" + mc.probe.Summary()
	o := outcome{receipt: rec, scope: scope}
	u, _ := url.Parse(mc.url)
	switch {
	case !mc.found && !mc.probe.Unreachable():
		o.verdict, o.receipt.Note = NotApplicable, "no MCP endpoint declared, and /mcp does not speak MCP"
	case !mc.found:
		o.verdict, o.receipt.Note = NotApplicable, "no MCP endpoint declared; the /mcp guess gave no answer"+errSuffix(mc.probe.Err)
	case mc.probe.Unreachable():
		o.verdict, o.missing = CouldNotCheck, "the MCP endpoint gave no usable answer"+errSuffix(mc.probe.Err)
	case mc.probe.Initialize && mc.probe.Protocol.Negotiated != "" && mc.probe.ToolsList:
		o.verdict, o.fraction = Pass, 1
	case mc.probe.Initialize && mc.probe.Protocol.Negotiated != "":
		o.verdict, o.fraction, o.missing = Partial, 0.5, "tools/list did not answer without a token"
	case mc.probe.NeedsToken():
		o.verdict, o.fraction, o.missing = Partial, 0.25, "initialize needs a token: the version and tools cannot be discovered anonymously"
	default:
		o.verdict, o.missing = Fail, "the endpoint does not answer initialize"+errSuffix(mc.probe.Err)
	}
	if o.verdict == Pass && u != nil && !sameOrigin(u, s.origin) {
		// The standard asks for the endpoint on the site's own origin.
		o.verdict, o.fraction, o.missing = Partial, 0.5, "the endpoint on the site's own origin (it is on "+u.Scheme+"://"+u.Host+")"
	}
	return o
}

// tokenNeeded tells whether any declared capability needs a token, and
// why: the MCP endpoint asks for one, the card names a scheme, or the
// OpenAPI document requires security.
func (s *site) tokenNeeded(ctx context.Context) (bool, string) {
	if mc := s.mcp(ctx); mc.found && mc.probe.NeedsToken() {
		return true, "the MCP endpoint answers 401 with WWW-Authenticate"
	}
	m := s.manifest(ctx)
	if a, ok := m.doc["authentication"].(map[string]any); ok {
		for _, k := range []string{"type", "scheme", "schemes", "oauth", "oauth2", "issuer", "authorizationServer", "authorization_servers"} {
			if v, ok := a[k]; ok && v != nil && !strings.EqualFold(fmt.Sprint(v), "none") {
				return true, "agents.json authentication names " + k
			}
		}
	}
	if oa := s.openapi(ctx); oa.doc != nil {
		if sec, ok := oa.doc["security"].([]any); ok && len(sec) > 0 {
			return true, "the OpenAPI document requires security"
		}
	}
	return false, ""
}

// checkAccessDocumented: the service states which capabilities need a token
// and which do not (capability card, server card or OpenAPI security).
func checkAccessDocumented(ctx context.Context, s *site) outcome {
	const expected = "agents.json authentication (or per-interface auth), an MCP server card's auth, or OpenAPI security / securitySchemes"
	m := s.manifest(ctx)
	rec := s.receiptOf(m.chosen, expected)
	scope := []string{"/.well-known/agents.json"}
	if authStated(m.doc["authentication"]) {
		rec.Note = "agents.json states authentication"
		return outcome{verdict: Pass, fraction: 1, receipt: rec, scope: scope}
	}
	for _, it := range m.interfaces() {
		if authStated(it["auth"]) || authStated(it["authentication"]) {
			rec.Note = "an agents.json interface states its auth"
			return outcome{verdict: Pass, fraction: 1, receipt: rec, scope: scope}
		}
	}
	if oa := s.openapi(ctx); oa.doc != nil && (oa.doc["security"] != nil || obj(obj(oa.doc, "components"), "securitySchemes") != nil || oa.doc["securityDefinitions"] != nil) {
		o := outcome{verdict: Pass, fraction: 1, receipt: s.receiptOf(oa.resp, expected), scope: []string{pathOf(oa.resp.req.url)}}
		o.receipt.Note = "the OpenAPI document states security"
		return o
	}
	if card := s.serverCard(ctx); card.doc != nil && (card.doc["authentication"] != nil || remotesHaveHeaders(card.doc)) {
		o := outcome{verdict: Pass, fraction: 1, receipt: s.receiptOf(card.resp, expected), scope: []string{pathOf(card.resp.req.url)}}
		o.receipt.Note = "the MCP server card states what its remotes require"
		return o
	}
	if m.doc == nil && m.wellKnown.unreachable() && m.root.unreachable() {
		o := s.couldNotCheck(m.chosen, expected)
		o.scope = scope
		return o
	}
	if b := s.backend(ctx); !b.offered {
		// Like R9 above it: no backend, nothing to document access to.
		rec.Note = "no backend interface offered"
		return outcome{verdict: NotApplicable, receipt: rec, scope: scope}
	}
	return outcome{verdict: Fail, missing: "no statement of which capabilities need a token", receipt: rec, scope: scope}
}

// remotesHaveHeaders reports server-card remotes that list required headers.
func remotesHaveHeaders(card map[string]any) bool {
	remotes, _ := card["remotes"].([]any)
	for _, r := range remotes {
		if o, ok := r.(map[string]any); ok && o["headers"] != nil {
			return true
		}
	}
	return false
}

// oauthMetadata resolves sign-in metadata on the site: RFC 9728
// protected-resource metadata, RFC 8414 authorization-server metadata, and
// the OpenID Connect fallback (OIDC Discovery §4).
func (s *site) oauthMetadata(ctx context.Context) (found bool, pkce []string, resp *response, also []*response) {
	pr := s.jsonDoc(ctx, "/.well-known/oauth-protected-resource")
	also = append(also, pr.tried...)
	var asBases []string
	if pr.doc != nil {
		servers, _ := pr.doc["authorization_servers"].([]any)
		for _, v := range servers {
			if sv, ok := v.(string); ok {
				asBases = append(asBases, sv)
			}
		}
	}
	paths := []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"}
	for _, b := range asBases {
		if u, err := url.Parse(b); err == nil && u.IsAbs() {
			// RFC 8414 §3.1: the well-known segment goes between host and path.
			paths = append([]string{u.Scheme + "://" + u.Host + "/.well-known/oauth-authorization-server" + strings.TrimSuffix(u.Path, "/")}, paths...)
		}
	}
	as := s.jsonDoc(ctx, paths...)
	also = append(also, as.tried...)
	if as.doc == nil {
		return pr.doc != nil, nil, as.resp, also
	}
	methods, _ := as.doc["code_challenge_methods_supported"].([]any)
	for _, m := range methods {
		if ms, ok := m.(string); ok {
			pkce = append(pkce, ms)
		}
	}
	return true, pkce, as.resp, also
}

// checkSigninDiscovery: where a token is needed, OAuth metadata (RFC 8414
// or RFC 9728) resolves and announces PKCE S256 (RFC 7636 §4.2). N/A when
// every capability is public.
func checkSigninDiscovery(ctx context.Context, s *site) outcome {
	const expected = "OAuth metadata (RFC 9728 protected resource, RFC 8414 authorization server) resolves with code_challenge_methods_supported including S256"
	need, why := s.tokenNeeded(ctx)
	mc := s.mcp(ctx)
	scope := []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server"}
	if !need {
		rec := Receipt{Expected: expected, Note: "no declared capability needs a token"}
		return outcome{verdict: NotApplicable, receipt: rec, scope: scope}
	}
	found, pkce, resp, also := s.oauthMetadata(ctx)
	if mc.probe.Auth.OAuthMetadata {
		found = true
		pkce = append(pkce, mc.probe.Auth.PKCE...)
	}
	rec := s.receiptOf(resp, expected)
	for _, a := range also {
		if a != resp {
			rec.Also = append(rec.Also, s.also(a))
		}
	}
	sort.Strings(pkce)
	rec.Note = why + fmt.Sprintf("; PKCE methods: %v", pkce)
	if mc.found && mc.probe.NeedsToken() {
		rec.Details = mc.probe
	}
	o := outcome{receipt: rec, scope: scope}
	switch {
	case found && slices.Contains(pkce, "S256"):
		o.verdict, o.fraction = Pass, 1
	case found:
		o.verdict, o.fraction, o.missing = Partial, 0.5, "PKCE S256 in code_challenge_methods_supported"
	case resp.unreachable():
		o.verdict, o.missing = CouldNotCheck, resp.errText()
	default:
		o.verdict, o.missing = Fail, "OAuth metadata that resolves"
	}
	return o
}

// checkOpenAPIQuality: every operation has operationId, a summary, typed
// parameters, a 2xx schema and an error model; an unknown path under the
// API base answers 404/410 with a JSON problem body (RFC 9457). N/A without
// OpenAPI.
func checkOpenAPIQuality(ctx context.Context, s *site) outcome {
	const expected = "every operation: operationId, summary, typed parameters, 2xx schema, error model; GET <api base>/" + missingProbe + " → 404/410 with a JSON problem body"
	oa := s.openapi(ctx)
	if oa.doc == nil {
		for _, t := range oa.tried {
			if t.unreachable() {
				o := s.couldNotCheck(t, expected)
				o.scope = []string{pathOf(t.req.url)}
				return o
			}
		}
		rec := Receipt{Expected: expected, Note: "no OpenAPI document found"}
		if oa.resp != nil {
			rec = s.receiptOf(oa.resp, expected)
			rec.Note = "no OpenAPI document found"
		}
		return outcome{verdict: NotApplicable, receipt: rec, scope: []string{"/openapi.json"}}
	}
	rec := s.receiptOf(oa.resp, expected)
	f := judgeOperations(oa.doc)
	probeURL := s.apiBase(oa) + missingProbe
	var probe *response
	if onOrigin(probeURL, s.origin) {
		probe = s.f.get(ctx, probeURL, acceptJSON)
		rec.Also = []Exchange{s.also(probe)}
	}
	probeOK := probe != nil && (probe.status == 404 || probe.status == 410) && isProblemBody(probe)
	missing := append([]string(nil), f.missing...)
	if !probeOK {
		missing = append(missing, "unknown API path → 404/410 with a JSON problem body")
	}
	rec.Note = fmt.Sprintf("%d operation(s), %d of %d criteria met; unknown-path probe ok: %t", f.ops, f.met, 5*f.ops, probeOK)
	if f.ops == 0 {
		return outcome{verdict: Fail, missing: "the document has no operations", receipt: rec, scope: []string{pathOf(oa.resp.req.url)}}
	}
	frac := 0.8 * float64(f.met) / float64(5*f.ops)
	if probeOK {
		frac += 0.2
	}
	o := fromFraction(frac, strings.Join(missing, "; "))
	o.receipt, o.scope = rec, []string{pathOf(oa.resp.req.url)}
	return o
}

func init() {
	register(map[string]checkFunc{
		"human_handoff":          checkHumanHandoff,
		"access_policy_declared": checkAccessPolicy,
		"security_contact":       checkSecurityContact,
	})
}

// checkHumanHandoff: a person is reachable (rule 12): a mailto link, a
// contact page, JSON-LD contactPoint, a contact line in llms.txt, or the
// card's contact.
func checkHumanHandoff(ctx context.Context, s *site) outcome {
	const expected = "a mailto link, a contact page link, JSON-LD contactPoint/email/telephone, a contact line in llms.txt, or agents.json contact"
	home := s.page(ctx, s.home)
	rec := s.receiptOf(home.resp, expected)
	scope := append([]string(nil), s.routes...)
	var found []string
	for _, r := range s.routes {
		p := s.page(ctx, r)
		if len(p.facts.Mailto) > 0 {
			found = append(found, "mailto link on "+pathOf(r)+": "+redactURL(p.facts.Mailto[0]))
		}
		if len(p.facts.Contact) > 0 {
			found = append(found, "contact link on "+pathOf(r)+": "+redactURL(p.facts.Contact[0]))
		}
		for _, n := range p.ld.Nodes {
			if n.Has("contactPoint") || n.Has("email") || n.Has("telephone") {
				found = append(found, "JSON-LD contact data on "+pathOf(r))
				break
			}
		}
	}
	if m := s.manifest(ctx); m.doc != nil && m.doc["contact"] != nil {
		found = append(found, "agents.json contact")
	}
	if l := s.llmsTxt(ctx); llmsUsable(l) && llmstxt.Inspect(l.body).ContactLine != "" {
		found = append(found, "contact line in llms.txt")
	}
	if len(found) > 0 {
		rec.Note = strings.Join(found, "; ")
		return outcome{verdict: Pass, fraction: 1, receipt: rec, scope: scope}
	}
	if s.allSourcesUnreachable(ctx) {
		o := s.couldNotCheck(home.resp, expected)
		o.scope = scope
		return o
	}
	return outcome{verdict: Fail, missing: "no way to reach a person", receipt: rec, scope: scope, cause: CauseNoHuman}
}

// allSourcesUnreachable reports that no route, no capability card and no
// llms.txt gave a usable answer: a missing finding is then a gap, not a FAIL.
func (s *site) allSourcesUnreachable(ctx context.Context) bool {
	for _, r := range s.routes {
		if !s.page(ctx, r).resp.unreachable() {
			return false
		}
	}
	m := s.manifest(ctx)
	return m.wellKnown.unreachable() && m.root.unreachable() && s.llmsTxt(ctx).unreachable()
}

// usagePolicyKeys are card fields that state a usage policy.
var usagePolicyKeys = []string{"policy", "usagePolicy", "usage_policy", "usage", "terms", "termsOfService", "terms_of_service", "license", "contentPolicy", "content_policy"}

// checkAccessPolicy: agents.json authentication (even "none") plus a usage
// policy line (agents.json, llms.txt or a Content-Signal).
func checkAccessPolicy(ctx context.Context, s *site) outcome {
	const expected = "agents.json authentication (even \"none\") and a usage policy line (agents.json, llms.txt, or a Content-Signal)"
	m := s.manifest(ctx)
	rec := s.receiptOf(m.chosen, expected)
	scope := []string{"/.well-known/agents.json", "/llms.txt", "/robots.txt"}
	// An empty object states nothing (STANDARD.md §9: {} passes nothing).
	auth := authStated(m.doc["authentication"])
	policy := ""
	for _, k := range usagePolicyKeys {
		if m.doc[k] != nil {
			policy = "agents.json " + k
			break
		}
	}
	l := s.llmsTxt(ctx)
	if policy == "" && llmsUsable(l) && llmstxt.PolicyLine(l.body) != "" {
		policy = "a policy line in llms.txt"
		rec.Also = append(rec.Also, s.also(l))
	}
	if policy == "" {
		if sig := s.contentSignal(ctx); sig != "" {
			policy = "Content-Signal: " + sig
		}
	}
	var missing []string
	if !auth {
		missing = append(missing, "agents.json authentication")
	}
	if policy == "" {
		missing = append(missing, "a usage policy line")
	}
	rec.Note = fmt.Sprintf("authentication stated: %t; policy: %s", auth, orNone(policy))
	if !auth && policy == "" && s.allSourcesUnreachable(ctx) {
		o := s.couldNotCheck(m.chosen, expected)
		o.scope = scope
		return o
	}
	f := 0.0
	if auth {
		f += 0.5
	}
	if policy != "" {
		f += 0.5
	}
	o := fromFraction(f, strings.Join(missing, "; "))
	o.receipt, o.scope = rec, scope
	return o
}

// orNone returns s, or "none" when empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// contentSignal returns the site's Content-Signal policy: a robots.txt line
// or a response header on the home page.
func (s *site) contentSignal(ctx context.Context) string {
	if rb := s.robots(ctx); rb.doc != nil && len(rb.doc.ContentSignals) > 0 {
		return rb.doc.ContentSignals[0]
	}
	if h := s.page(ctx, s.home).resp.header; h != nil {
		return h.Get("Content-Signal")
	}
	return ""
}

// securityTxt holds the fields of a security.txt that the check reads.
type securityTxt struct {
	contacts []string
	expires  string
}

// parseSecurityTxt reads Contact and Expires fields (RFC 9116 §2.5),
// ignoring an OpenPGP signature's armour lines.
func parseSecurityTxt(body []byte) securityTxt {
	var st securityTxt
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 1024), 64<<10)
	for n := 0; sc.Scan() && n < 10000; n++ {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "contact":
			st.contacts = append(st.contacts, strings.TrimSpace(v))
		case "expires":
			if st.expires == "" {
				st.expires = strings.TrimSpace(v)
			}
		}
	}
	return st
}

// checkSecurityContact: /.well-known/security.txt (RFC 9116) with Contact:
// and an unexpired Expires:.
func checkSecurityContact(ctx context.Context, s *site) outcome {
	const expected = "200 text/plain at /.well-known/security.txt with Contact: and an Expires: in the future (RFC 9116 §2.5.3, §2.5.5)"
	r := s.f.get(ctx, s.abs("/.well-known/security.txt"), "text/plain")
	rec := s.receiptOf(r, expected)
	scope := []string{"/.well-known/security.txt"}
	switch {
	case r.unreachable():
		o := s.couldNotCheck(r, expected)
		o.scope = scope
		return o
	case !r.ok() || isHTMLish(r):
		return outcome{verdict: Fail, missing: fmt.Sprintf("no security.txt (%d %s)", r.status, r.mediaType()), receipt: rec, scope: scope, cause: CauseSecurityTxtMissing}
	}
	st := parseSecurityTxt(r.body)
	var missing []string
	have := 0
	if len(st.contacts) > 0 {
		have++
	} else {
		missing = append(missing, "a Contact: field")
	}
	exp, err := time.Parse(time.RFC3339, st.expires)
	switch {
	case st.expires == "":
		missing = append(missing, "an Expires: field")
	case err != nil:
		missing = append(missing, fmt.Sprintf("Expires %q is not an RFC 3339 date", st.expires))
	case !exp.After(s.opts.Now()):
		missing = append(missing, "an unexpired Expires: (it passed on "+exp.UTC().Format(time.DateOnly)+")")
	default:
		have++
	}
	rec.Note = fmt.Sprintf("%d contact(s), expires %q", len(st.contacts), st.expires)
	o := fromFraction(float64(have)/2, strings.Join(missing, "; ")).because(CauseSecurityTxtIncomplete)
	o.receipt, o.scope = rec, scope
	return o
}

func init() {
	register(map[string]checkFunc{
		"ard_manifest":       checkARDManifest,
		"a2a_agent_card":     checkA2ACard,
		"mcp_server_card":    checkMCPServerCard,
		"agent_skills_index": checkAgentSkills,
		"api_catalog":        checkAPICatalog,
		"content_signals":    checkContentSignals,
		"markdown_tokens":    checkMarkdownTokens,
		"nlweb_ask":          checkNLWebAsk,
	})
}

// optional builds the outcome of an unscored check: found or not, with a
// note saying what was seen.
func optional(found bool, rec Receipt, note string, scope ...string) outcome {
	rec.Note = note
	return outcome{verdict: Optional, found: &found, receipt: rec, scope: scope}
}

// optionalDoc reports a JSON document found at one of paths, or why not.
func (s *site) optionalDoc(ctx context.Context, expected string, paths ...string) (jsonResult, Receipt, string, bool) {
	j := s.jsonDoc(ctx, paths...)
	rec := s.receiptOf(j.resp, expected)
	for _, t := range j.tried {
		if t != j.resp {
			rec.Also = append(rec.Also, s.also(t))
		}
	}
	switch {
	case j.doc != nil && len(j.doc) == 0:
		// STANDARD.md §9: an empty {} passes no discovery check.
		return j, rec, "found an empty {} document", false
	case j.doc != nil:
		return j, rec, "", true
	case j.parseErr != nil:
		return j, rec, "found but not a JSON object: " + j.parseErr.Error(), false
	case j.allUnreachable():
		return j, rec, "could not check: " + j.resp.errText(), false
	}
	return j, rec, fmt.Sprintf("not found (%d)", j.resp.status), false
}

// ardFetcher adapts the scan's shared, memoising fetcher to ard.Fetcher, so
// that the ARD discovery reads the same answers as the other checks.
func (s *site) ardFetcher() ard.Fetcher {
	return func(ctx context.Context, u string) ard.Response {
		r := s.f.get(ctx, u, acceptJSON)
		out := ard.Response{Status: r.status, Header: r.header, Body: r.body}
		if r.failed() {
			out.Err = errors.New(r.errText())
			out.Body = nil
		}
		return out
	}
}

// checkARDManifest: the Lighthouse ard-schema audit (STANDARD.md §8) with
// its own 1 / 0.9 / 0 / N/A score and Root/entry table; unscored here.
func checkARDManifest(ctx context.Context, s *site) outcome {
	home := s.page(ctx, s.home)
	var robots *string
	if rb := s.robots(ctx); rb.doc != nil {
		txt := string(rb.resp.body)
		robots = &txt
	}
	d := ard.Discover(ctx, s.ardFetcher(), home.resp.finalURLOrReq().String(), robots, home.resp.body, home.resp.header)
	res := ard.Audit(d)
	rec := Receipt{
		Request:  &RequestRecord{Method: "GET", URL: redactURL(d.CatalogURL), Header: map[string]string{"Accept": acceptJSON}},
		Expected: "an ARD manifest (robots Agentmap, rel=\"ard\", Link rel=\"ard\", /.well-known/ard.json) that validates against ARD v0.91",
		Received: &ResponseRecord{Status: d.Status, ContentType: d.Header.Get("Content-Type"), Excerpt: excerpt(d.Content), Error: d.ErrorMessage},
		Details: map[string]any{
			"score": res.Score, "notApplicable": res.NotApplicable, "explanation": res.Explanation,
			"discoverySource": d.Source, "rows": res.Rows, "failedSources": d.FailedSources,
		},
	}
	scope := pathOf(d.CatalogURL)
	if res.NotApplicable {
		return optional(false, rec, "no ARD manifest found or advertised (audit not applicable)", scope)
	}
	return optional(true, rec, fmt.Sprintf("ard-schema audit score %g (%d row(s)), found via %s", res.Score, len(res.Rows), d.Source), scope)
}

// checkA2ACard: an A2A 1.0 agent card (name, description, version,
// capabilities, supportedInterfaces); a 0.3 card (top-level url) is partial.
func checkA2ACard(ctx context.Context, s *site) outcome {
	j, rec, why, ok := s.optionalDoc(ctx, "A2A 1.0 card with name, description, version, capabilities and supportedInterfaces", "/.well-known/agent-card.json", "/.well-known/agent.json")
	scope := pathOf(j.resp.req.url)
	if !ok {
		return optional(false, rec, why, scope)
	}
	var missing []string
	for _, k := range []string{"name", "description", "version", "capabilities", "supportedInterfaces"} {
		if j.doc[k] == nil {
			missing = append(missing, k)
		}
	}
	switch {
	case len(missing) == 0:
		return optional(true, rec, "A2A 1.0 card", scope)
	case j.doc["url"] != nil && j.doc["supportedInterfaces"] == nil:
		return optional(true, rec, "A2A 0.3 card (top-level url), partial; missing: "+strings.Join(missing, ", "), scope)
	}
	return optional(true, rec, "card missing: "+strings.Join(missing, ", "), scope)
}

// checkMCPServerCard: an MCP server card valid against the v1 schema.
func checkMCPServerCard(ctx context.Context, s *site) outcome {
	_, rec, why, ok := s.optionalDoc(ctx, "an MCP server card valid against server-card.schema.json (v1)", "/.well-known/mcp/server-card.json", "/.well-known/mcp.json", "/.well-known/mcp/server-cards.json")
	card := s.serverCard(ctx)
	scope := pathOf(card.resp.req.url)
	if !ok {
		return optional(false, rec, why, scope)
	}
	msg, err := mcpprobe.ValidateServerCard(card.doc)
	switch {
	case err != nil:
		return optional(true, rec, "found; schema unavailable: "+err.Error(), scope)
	case msg != "":
		if len(msg) > 300 {
			msg = msg[:300] + " …"
		}
		return optional(true, rec, "found; invalid against the v1 schema: "+msg, scope)
	}
	return optional(true, rec, fmt.Sprintf("valid v1 server card %q", str(card.doc, "name")), scope)
}

// skillsMaxArtifacts bounds the artifacts fetched to verify digests.
const skillsMaxArtifacts = 5

// checkAgentSkills: the agent-skills index v0.2.0, every skill with name,
// type, description, url and a sha256 digest matching its artifact.
func checkAgentSkills(ctx context.Context, s *site) outcome {
	j, rec, why, ok := s.optionalDoc(ctx, "agent-skills index v0.2.0: every skill has name, type, description, url and a sha256: digest matching the artifact", "/.well-known/agent-skills/index.json")
	scope := "/.well-known/agent-skills/index.json"
	if !ok {
		return optional(false, rec, why, scope)
	}
	skills, _ := j.doc["skills"].([]any)
	var problems []string
	if !strings.Contains(str(j.doc, "$schema"), "0.2.0") {
		problems = append(problems, "$schema is not the 0.2.0 discovery schema")
	}
	matched, fetched := 0, 0
	for i, sk := range skills {
		o, _ := sk.(map[string]any)
		name := fmt.Sprintf("skill #%d", i+1)
		if str(o, "name") != "" {
			name = str(o, "name")
		}
		for _, k := range []string{"name", "type", "description", "url", "digest"} {
			if str(o, k) == "" {
				problems = append(problems, name+" lacks "+k)
			}
		}
		digest := str(o, "digest")
		if !strings.HasPrefix(digest, "sha256:") || str(o, "url") == "" || fetched >= skillsMaxArtifacts {
			continue
		}
		u := parse.Resolve(j.resp.finalURLOrReq(), str(o, "url"))
		if !onOrigin(u, s.origin) {
			continue
		}
		fetched++
		art := s.f.get(ctx, u, acceptAny)
		rec.Also = append(rec.Also, s.also(art))
		sum := sha256.Sum256(art.body)
		if art.ok() && strings.EqualFold(strings.TrimPrefix(digest, "sha256:"), hex.EncodeToString(sum[:])) {
			matched++
		} else {
			problems = append(problems, name+": digest does not match the fetched artifact")
		}
	}
	note := fmt.Sprintf("%d skill(s), %d of %d digest(s) verified", len(skills), matched, fetched)
	if len(skills) == 0 {
		problems = append(problems, "no skills")
	}
	if len(problems) > 0 {
		note += "; " + strings.Join(problems[:min(len(problems), 6)], "; ")
	}
	return optional(true, rec, note, scope)
}

// checkAPICatalog: an RFC 9727 api-catalog, application/linkset+json
// (RFC 9264), each entry an anchor plus service-desc/service-doc/status/item.
func checkAPICatalog(ctx context.Context, s *site) outcome {
	j, rec, why, ok := s.optionalDoc(ctx, "application/linkset+json linkset; each entry an anchor plus service-desc, service-doc, status or item (RFC 9727)", "/.well-known/api-catalog")
	scope := "/.well-known/api-catalog"
	if !ok {
		return optional(false, rec, why, scope)
	}
	var problems []string
	if mt := j.resp.mediaType(); mt != "application/linkset+json" {
		problems = append(problems, "Content-Type "+mt+", not application/linkset+json")
	}
	set, _ := j.doc["linkset"].([]any)
	if len(set) == 0 {
		problems = append(problems, "no linkset array")
	}
	problems = append(problems, linksetEntryProblems(set)...)
	note := fmt.Sprintf("linkset with %d entr(ies)", len(set))
	if len(problems) > 0 {
		note += "; " + strings.Join(problems[:min(len(problems), 6)], "; ")
	}
	return optional(true, rec, note, scope)
}

// checkContentSignals: a Content-Signal policy in robots.txt or a header.
func checkContentSignals(ctx context.Context, s *site) outcome {
	rb := s.robots(ctx)
	rec := s.receiptOf(rb.resp, "a Content-Signal line in robots.txt or a Content-Signal response header (search=yes, ai-input=yes, ai-train=no)")
	rec.Also = []Exchange{s.also(s.page(ctx, s.home).resp, "Content-Signal")}
	if sig := s.contentSignal(ctx); sig != "" {
		return optional(true, rec, "Content-Signal: "+sig, "/robots.txt", s.home)
	}
	return optional(false, rec, "no Content-Signal", "/robots.txt", s.home)
}

// tokenCountLimit is the largest Markdown body the scanner counts itself.
const tokenCountLimit = 1 << 20

// tokenCountMaxRun bounds the longest run of white space, or of anything
// else, in a body the scanner counts: the tokenizer's byte-pair merge of a
// piece takes time in the square of its length, and a piece lies within
// one such run (and one white-space character before it): 4 KB of one
// piece takes about 20 ms, 16 KB a third of a second, 1 MB half an hour.
const tokenCountMaxRun = 4 << 10

// longestRun returns the length in bytes of s's longest run of white space
// or of characters other than white space.
func longestRun(s string) int {
	longest, start, space := 0, 0, false
	for i, r := range s {
		if sp := unicode.IsSpace(r); sp != space || i == 0 {
			start, space = i, sp
		}
		longest = max(longest, i+utf8.RuneLen(r)-start)
	}
	return longest
}

// checkMarkdownTokens: x-markdown-tokens on the Markdown response, and how
// far it is from the scanner's own o200k_base count.
func checkMarkdownTokens(ctx context.Context, s *site) outcome {
	md := s.markdownOf(ctx, s.home)
	rec := s.receiptOf(md, "x-markdown-tokens on the answer to Accept: text/markdown", "X-Markdown-Tokens")
	h := md.header.Get("X-Markdown-Tokens")
	if !isMarkdown(md) || h == "" {
		return optional(false, rec, "no x-markdown-tokens header on a Markdown answer", s.home)
	}
	claimed, err := strconv.Atoi(strings.TrimSpace(h))
	if err != nil {
		return optional(true, rec, fmt.Sprintf("x-markdown-tokens %q is not a number", h), s.home)
	}
	if len(md.body) > tokenCountLimit {
		return optional(true, rec, fmt.Sprintf("x-markdown-tokens: %d (body too large to count)", claimed), s.home)
	}
	body := strings.ToValidUTF8(string(md.body), "\uFFFD")
	if run := longestRun(body); run > tokenCountMaxRun {
		return optional(true, rec, fmt.Sprintf("x-markdown-tokens: %d (not counted: one run of %d bytes of white space or of text without it)", claimed, run), s.home)
	}
	tk, err := o200k.Tokenizer()
	if err != nil {
		return optional(true, rec, fmt.Sprintf("x-markdown-tokens: %d (tokenizer unavailable)", claimed), s.home)
	}
	own := len(tk.EncodeOrdinary(body))
	diff := 0.0
	if own > 0 {
		diff = 100 * float64(claimed-own) / float64(own)
	}
	rec.Details = map[string]any{"claimed": claimed, "counted_o200k": own, "difference_percent": round2(diff)}
	return optional(true, rec, fmt.Sprintf("x-markdown-tokens: %d; scanner's o200k_base count: %d (%+.1f%%)", claimed, own, diff), s.home)
}

// checkNLWebAsk: /ask?query=… answers JSON with a results array.
func checkNLWebAsk(ctx context.Context, s *site) outcome {
	r := s.f.get(ctx, s.abs("/ask")+"?query=what+do+you+offer", acceptJSON)
	rec := s.receiptOf(r, "200 JSON with a schema.org results array")
	var v map[string]any
	switch {
	case !r.ok():
		return optional(false, rec, "no /ask endpoint: "+orNone(r.errText())+fmt.Sprintf(" (%d)", r.status), "/ask")
	case json.Unmarshal(r.body, &v) != nil:
		return optional(false, rec, "/ask does not answer JSON", "/ask")
	}
	res, ok := v["results"].([]any)
	if !ok {
		return optional(false, rec, "/ask JSON has no results array", "/ask")
	}
	return optional(true, rec, fmt.Sprintf("/ask answers %d result(s)", len(res)), "/ask")
}

// linksetEntryProblems names the entries of an API catalog's linkset
// (RFC 9727) that lack an anchor or one of the relations it expects.
func linksetEntryProblems(set []any) []string {
	var problems []string
	for i, e := range set {
		o, _ := e.(map[string]any)
		rels := 0
		for _, r := range []string{"service-desc", "service-doc", "status", "item"} {
			if o[r] != nil {
				rels++
			}
		}
		if str(o, "anchor") == "" || rels == 0 {
			problems = append(problems, fmt.Sprintf("entry %d lacks an anchor or a relation", i+1))
		}
	}
	return problems
}
