package selfcheck

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strings"
)

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
	case found && contains(pkce, "S256"):
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

// contains reports whether list holds v.
func contains(list []string, v string) bool {
	for _, e := range list {
		if e == v {
			return true
		}
	}
	return false
}
