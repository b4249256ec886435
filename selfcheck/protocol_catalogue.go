package selfcheck

import (
	"context"
	"fmt"
	"maps"
	"mime"
	"slices"
	"strings"
)

// protocolLens is the second lens (STANDARD.md §11): the 28 agent-protocol
// checkpoints of the IsAgentReady methodology, each with a verdict, a
// receipt, the fix and a read-only command a person can paste to verify it.
// It runs after the 100-point lens and never changes the score; where a
// checkpoint judges the same fact as a scored check (CheckpointInfo.Agrees)
// the two verdicts agree (TestLensesAgree).
type protocolLens struct{}

// Strength is a checkpoint's strength (RFC 2119 words); it never changes a
// score.
type Strength string

// The three strengths of STANDARD.md §11.
const (
	Must   Strength = "MUST"
	Should Strength = "SHOULD"
	May    Strength = "MAY"
)

// CheckpointInfo is one entry of the checkpoint catalogue.
type CheckpointInfo struct {
	// ID is the stable id ("ia.mcp-live").
	ID string `json:"id"`
	// Legacy is the methodology's numbering ("4.20").
	Legacy string `json:"legacy"`
	// Strength is MUST, SHOULD or MAY.
	Strength Strength `json:"strength"`
	// Title says in a few words what passes.
	Title string `json:"title"`
	// Agrees names the scored check that judges the same fact, if any.
	Agrees string `json:"agrees,omitempty"`
	// Fix is the change that makes the checkpoint pass.
	Fix string `json:"fix"`
	// Verify is a read-only shell command (curl, jq) that checks the fix;
	// {origin} stands for the site's origin.
	Verify string `json:"verify"`
}

// CheckpointResult is one checkpoint's verdict with its receipt.
type CheckpointResult struct {
	// ID, Legacy, Strength and Title repeat the catalogue entry.
	ID       string   `json:"id"`
	Legacy   string   `json:"legacy"`
	Strength Strength `json:"strength"`
	Title    string   `json:"title"`
	// Agrees names the scored check judging the same fact, if any.
	Agrees string `json:"agrees,omitempty"`
	// Verdict is PASS, PARTIAL, FAIL, NOT_APPLICABLE or COULD_NOT_CHECK.
	Verdict Verdict `json:"verdict"`
	// Missing names what is missing, or why it could not be checked.
	Missing string `json:"missing,omitempty"`
	// Fix is the change that makes it pass (empty on PASS and N/A).
	Fix string `json:"fix,omitempty"`
	// Verify is the read-only command that checks it, for this site.
	Verify string `json:"verify"`
	// Scope lists the addresses the finding describes.
	Scope []string `json:"scope"`
	// Receipt is the evidence.
	Receipt Receipt `json:"receipt"`
}

// checkpointFunc decides one checkpoint; r holds the scored checks already
// judged, which checkpoints judging the same fact read.
type checkpointFunc func(ctx context.Context, s *site, r *Report) outcome

// checkpointFuncs maps every checkpoint id to its implementation; filled
// by the protocol_*.go files.
var checkpointFuncs = map[string]checkpointFunc{}

// registerCheckpoints adds implementations; called from init.
func registerCheckpoints(fns map[string]checkpointFunc) {
	for id, fn := range fns {
		checkpointFuncs[id] = fn
	}
}

// Checkpoints returns a copy of the checkpoint catalogue in report order.
func Checkpoints() []CheckpointInfo {
	return append([]CheckpointInfo(nil), checkpoints...)
}

// run judges every checkpoint, in catalogue order.
func (protocolLens) run(ctx context.Context, s *site, r *Report) {
	r.Checkpoints = make([]CheckpointResult, 0, len(checkpoints))
	for _, c := range checkpoints {
		if s.opts.Only != "" && s.opts.Only != c.ID {
			continue
		}
		r.Checkpoints = append(r.Checkpoints, checkpointResult(s, c, runCheckpoint(ctx, s, r, c)))
	}
}

// unreachable records every checkpoint COULD_NOT_CHECK.
func (protocolLens) unreachable(s *site, home *response, r *Report) {
	for _, c := range checkpoints {
		if s.opts.Only != "" && s.opts.Only != c.ID {
			continue
		}
		o := s.couldNotCheck(home, "the home page answers")
		o.scope = []string{s.home}
		r.Checkpoints = append(r.Checkpoints, checkpointResult(s, c, o))
	}
}

// runCheckpoint runs one checkpoint, turning a panic into COULD_NOT_CHECK.
func runCheckpoint(ctx context.Context, s *site, r *Report, c CheckpointInfo) (o outcome) {
	fn := checkpointFuncs[c.ID]
	if fn == nil {
		return outcome{verdict: CouldNotCheck, missing: "checkpoint not implemented"}
	}
	defer func() {
		if v := recover(); v != nil {
			o = outcome{verdict: CouldNotCheck, missing: fmt.Sprintf("internal error: %v", v)}
		}
	}()
	return fn(ctx, s, r)
}

// checkpointResult turns an outcome into the report entry.
func checkpointResult(s *site, c CheckpointInfo, o outcome) CheckpointResult {
	res := CheckpointResult{
		ID: c.ID, Legacy: c.Legacy, Strength: c.Strength, Title: c.Title, Agrees: c.Agrees,
		Verdict: o.verdict, Missing: redactText(o.missing), Scope: redactAll(o.scope),
		Verify: strings.ReplaceAll(c.Verify, "{origin}", strings.TrimSuffix(s.origin.String(), "/")),
	}
	if res.Scope == nil {
		res.Scope = []string{}
	}
	if o.verdict == Partial || o.verdict == Fail {
		res.Fix = c.Fix
	}
	// Route findings come from s.scored, redacted there; the note passes
	// the redactor once more.
	res.Receipt = o.receipt
	res.Receipt.Note = redactText(res.Receipt.Note)
	return res
}

// CheckpointSummary counts checkpoint verdicts.
type CheckpointSummary struct {
	// Total is the number of checkpoints judged.
	Total int `json:"total"`
	// ByVerdict counts them per verdict.
	ByVerdict map[Verdict]int `json:"by_verdict"`
	// MustFailing lists MUST checkpoints that FAIL.
	MustFailing []string `json:"must_failing"`
}

// checkpointSummary counts the checkpoints of r.
func (r *Report) checkpointSummary() CheckpointSummary {
	cs := CheckpointSummary{ByVerdict: map[Verdict]int{}, MustFailing: []string{}}
	for _, c := range r.Checkpoints {
		cs.Total++
		cs.ByVerdict[c.Verdict]++
		if c.Strength == Must && c.Verdict == Fail {
			cs.MustFailing = append(cs.MustFailing, c.ID)
		}
	}
	return cs
}

// checkpointByID returns the checkpoint with id, or nil.
func (r *Report) checkpointByID(id string) *CheckpointResult {
	for i := range r.Checkpoints {
		if r.Checkpoints[i].ID == id {
			return &r.Checkpoints[i]
		}
	}
	return nil
}

// checkpoints is the catalogue of the second lens, in STANDARD.md §11's
// order: stable id, legacy number, strength, the scored check judging the
// same fact, the fix and a read-only verification command.
var checkpoints = []CheckpointInfo{
	{ID: "ia.webmcp-declarative", Legacy: "4.1", Strength: Should, Agrees: "web_actions_declared", Title: "Forms are declared as WebMCP tools",
		Fix:    `Add toolname="snake_case_name" and tooldescription="What it does, in a sentence." to each <form> (site.yaml: webmcp.forms), or call document.modelContext.registerTool() in the page.`,
		Verify: `curl -fsS {origin}/ | grep -Eo '<form[^>]*toolname="[^"]+"' | head -3`},
	{ID: "ia.webmcp-form-quality", Legacy: "4.7", Strength: Should, Agrees: "tool_form_quality", Title: "Annotated forms are well described",
		Fix:    `Use a snake_case toolname, a tooldescription of at least 10 characters, a name and a <label> for every field, and toolparamdescription on every input (site.yaml: webmcp.forms[].params).`,
		Verify: `curl -fsS {origin}/ | grep -Eo '<(form|input)[^>]*(toolname|toolparamdescription)="[^"]*"'`},
	{ID: "ia.interactive-surface-coverage", Legacy: "4.9", Strength: Should, Agrees: "surface_coverage", Title: "At least half the interactive surface is annotated",
		Fix:    `Annotate the remaining visible forms and search inputs with toolname/tooldescription (site.yaml: webmcp.forms).`,
		Verify: `curl -fsS {origin}/ | grep -Eoc '<form[^>]*toolname='`},
	{ID: "ia.a2a-agent-card", Legacy: "4.3", Strength: May, Title: "An A2A 1.0 agent card",
		Fix:    `Publish /.well-known/agent-card.json (A2A 1.0: name, description, version, capabilities, supportedInterfaces) — site.yaml: an interface of type a2a.`,
		Verify: `curl -fsS {origin}/.well-known/agent-card.json | jq -e '.name and .version and (.supportedInterfaces | length > 0)'`},
	{ID: "ia.mcp-discovery", Legacy: "4.4", Strength: May, Title: "An MCP server card is discoverable",
		Fix:    `Publish /.well-known/mcp/server-card.json with a name (site.yaml: connect.enabled: true, or documents.mcp_server_card: generate).`,
		Verify: `curl -fsS {origin}/.well-known/mcp/server-card.json | jq -e '.name // .serverInfo.name // (.mcpServers | length > 0)'`},
	{ID: "ia.mcp-server-card", Legacy: "4.18", Strength: May, Agrees: "mcp_server_card", Title: "The MCP server card is complete",
		Fix:    `Give the server card a name and version, remotes (transport and url), capabilities, its auth requirements and a description.`,
		Verify: `curl -fsS {origin}/.well-known/mcp/server-card.json | jq -e '.name and .version and .description and (.remotes | length > 0)'`},
	{ID: "ia.mcp-live", Legacy: "4.20", Strength: Should, Agrees: "mcp_transport", Title: "The MCP endpoint answers and 404s unknown methods",
		Fix:    `Serve MCP over streamable HTTP on your own origin (site.yaml: connect.enabled: true); answer initialize and tools/list without a token, and an unknown method with HTTP 404 and a JSON-RPC error.`,
		Verify: `curl -sS -X POST {origin}/mcp -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"verify","version":"1"}}}'`},
	{ID: "ia.mcp-apps", Legacy: "4.25", Strength: May, Title: "An MCP tool offers an MCP App UI",
		Fix:    `Give a tool _meta.ui.resourceUri pointing at a ui:// resource served as text/html;profile=mcp-app.`,
		Verify: `curl -sS -X POST {origin}/mcp -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -d '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' | grep -o '"resourceUri":"ui://[^"]*"'`},
	{ID: "ia.openapi", Legacy: "4.5", Strength: Should, Title: "An OpenAPI 3.x document",
		Fix:    `Serve your API's OpenAPI 3.x document at /openapi.json (or declare where it is: site.yaml interfaces[].type: openapi, url) — and never declare one that answers 404.`,
		Verify: `curl -fsS {origin}/openapi.json | jq -e '.openapi | startswith("3.")'`},
	{ID: "ia.openapi-quality", Legacy: "4.17", Strength: Should, Agrees: "openapi_quality", Title: "Every OpenAPI operation is described",
		Fix:    `Give every operation an operationId, a summary or description, typed parameters, a 2xx response schema and a 4xx/default error response.`,
		Verify: `curl -fsS {origin}/openapi.json | jq -e '[.paths[][] | objects | select(.operationId == null or ((.summary // .description) == null))] | length == 0'`},
	{ID: "ia.openapi-live", Legacy: "4.19", Strength: Should, Title: "A documented public GET answers as documented",
		Fix:    `Make the public GET operations answer their documented 2xx status and media type (and keep the document's servers URL on your origin).`,
		Verify: `curl -fsS {origin}/openapi.json | jq -r '.paths | to_entries[] | select(.value.get) | .key' | head -5`},
	{ID: "ia.api-errors", Legacy: "4.22", Strength: Should, Title: "Unknown API paths answer 404 with a JSON error",
		Fix:    `Answer unknown paths under the API base with 404 (or 410) and a JSON problem body (RFC 9457: type, title, status, detail).`,
		Verify: `curl -sS -o /dev/null -w '%{http_code} %{content_type}\n' {origin}/api/agentready-selfcheck-no-such-path`},
	{ID: "ia.api-rate-limits", Legacy: "4.23", Strength: May, Title: "API responses carry RateLimit headers",
		Fix:    `Send RateLimit and RateLimit-Policy headers (draft-ietf-httpapi-ratelimit-headers) on API responses.`,
		Verify: `curl -sSI {origin}/api/agentready-selfcheck-no-such-path | grep -i '^ratelimit'`},
	{ID: "ia.api-catalog", Legacy: "4.10", Strength: Should, Agrees: "api_catalog", Title: "An RFC 9727 api-catalog",
		Fix:    `Serve /.well-known/api-catalog as application/linkset+json, each entry an anchor with service-desc, service-doc, status or item (site.yaml: documents.api_catalog: generate).`,
		Verify: `curl -fsS {origin}/.well-known/api-catalog | jq -e '.linkset | all(.anchor and (."service-desc" or ."service-doc" or .status or .item))'`},
	{ID: "ia.ai-catalog", Legacy: "4.21", Strength: May, Title: "An AI catalog",
		Fix:    `Serve /.well-known/ai-catalog.json with specVersion and a short entries list, each entry with a media type and a same-origin url (or inline data).`,
		Verify: `curl -fsS {origin}/.well-known/ai-catalog.json | jq -e '.specVersion and (.entries | length > 0)'`},
	{ID: "ia.agent-skills-index", Legacy: "4.11", Strength: May, Agrees: "agent_skills_index", Title: "An agent-skills index",
		Fix:    `Publish /.well-known/agent-skills/index.json: skills with name, type, description, url and a sha256 digest (site.yaml: skills).`,
		Verify: `curl -fsS {origin}/.well-known/agent-skills/index.json | jq -e '.skills | length > 0 and all(.name and .type and .description and .url and .digest)'`},
	{ID: "ia.agents-json", Legacy: "4.6", Strength: May, Agrees: "capability_manifest", Title: "A non-empty agents.json",
		Fix:    `Publish a non-empty JSON capability card at /.well-known/agents.json and /agents.json (the module generates it from site.yaml).`,
		Verify: `curl -fsS {origin}/.well-known/agents.json | jq -e 'length > 0'`},
	{ID: "ia.developer-docs-link", Legacy: "4.24", Strength: May, Title: "The home page links developer docs",
		Fix:    `Link your developer docs from the home page (/docs, /developers, /api, /reference…) or send Link: </docs>; rel="service-doc".`,
		Verify: `curl -fsS {origin}/ | grep -Eo 'href="[^"]*/(docs|developers|api|api-docs|documentation|reference)[/"]' | head -3`},
	{ID: "ia.docs-answer", Legacy: "4.30", Strength: Should, Title: "Docs pages answer in server-rendered text with code",
		Fix:    `Serve docs pages as server-rendered HTML with a heading, enough text, and fenced code blocks marked with a language class (<code class="language-sh">).`,
		Verify: `curl -fsS {origin}/docs | grep -Eo 'class="(language|lang)-[a-z]+' | head -3`},
	{ID: "ia.sdk-cli", Legacy: "4.28", Strength: Should, Title: "An SDK or CLI is findable",
		Fix:    `Link your package (npm, PyPI, crates.io, Homebrew) or show an install command in the docs, or list the CLI in llms.txt (site.yaml: an interface of type cli or sdk with install).`,
		Verify: `curl -fsS {origin}/llms.txt | grep -Ei 'install|cli'`},
	{ID: "ia.agent-task-access", Legacy: "4.29", Strength: Must, Title: "Agents can do the site's tasks (MCP or CLI)",
		Fix:    `Give agents a way to do the site's tasks: a live MCP server (site.yaml: connect.enabled: true, or an mcp interface) or a documented CLI.`,
		Verify: `curl -fsS {origin}/.well-known/agents.json | jq -e '[.interfaces[]? | select(.type == "mcp" or .type == "cli")] | length > 0'`},
	{ID: "ia.nlweb-ask", Legacy: "4.26", Strength: May, Agrees: "nlweb_ask", Title: "An NLWeb /ask endpoint",
		Fix:    `Answer GET /ask?query=… with JSON whose results carry schema.org @type (site.yaml: connect.enabled: true).`,
		Verify: `curl -fsS '{origin}/ask?query=what+do+you+offer' | jq -e '.results | length > 0 and all(."@type")'`},
	{ID: "ia.x402", Legacy: "4.12", Strength: May, Title: "x402 payment challenge",
		Fix:    `Answer unpaid API requests with 402 and an x402 v2 challenge (base64 JSON) in Payment-Required.`,
		Verify: `curl -sS -o /dev/null -D - {origin}/api | grep -i '^payment-required'`},
	{ID: "ia.mpp", Legacy: "4.13", Strength: May, Title: "OpenAPI x-payment-info",
		Fix:    `Describe paid operations with an x-payment-info extension in the OpenAPI document.`,
		Verify: `curl -fsS {origin}/openapi.json | jq -e '[.paths[][] | objects | select(."x-payment-info")] | length > 0'`},
	{ID: "ia.ucp", Legacy: "4.14", Strength: May, Title: "A UCP profile",
		Fix:    `Serve /.well-known/ucp with a version and a non-empty capabilities list.`,
		Verify: `curl -fsS {origin}/.well-known/ucp | jq -e '.version and (.capabilities | length > 0)'`},
	{ID: "ia.acp-manifest", Legacy: "4.15", Strength: May, Title: "An ACP manifest",
		Fix:    `Serve /.well-known/acp.json with a non-empty flows list and a capabilities object.`,
		Verify: `curl -fsS {origin}/.well-known/acp.json | jq -e '(.flows | length > 0) and (.capabilities | type == "object")'`},
	{ID: "ia.ap2", Legacy: "4.16", Strength: May, Title: "AP2 extension in the A2A card",
		Fix:    `Declare the AP2 extension in the A2A card (capabilities.extensions[].uri containing ap2).`,
		Verify: `curl -fsS {origin}/.well-known/agent-card.json | jq -e '[.. | objects | .uri? // empty | select(test("ap2"))] | length > 0'`},
	{ID: "ia.agent-checkout", Legacy: "4.27", Strength: May, Title: "Agent checkout markers",
		Fix:    `Offer an agent checkout: Stripe Link / shared payment tokens on the checkout page, or a checkout_sessions endpoint in the ACP document.`,
		Verify: `curl -fsS {origin}/.well-known/acp.json | jq -e '.. | objects | has("checkout_sessions")'`},
}

func init() {
	registerCheckpoints(map[string]checkpointFunc{
		"ia.webmcp-declarative":           agreeWith("web_actions_declared"),
		"ia.webmcp-form-quality":          agreeWith("tool_form_quality"),
		"ia.interactive-surface-coverage": agreeWith("surface_coverage"),
		"ia.a2a-agent-card":               cpA2ACard,
		"ia.mcp-discovery":                cpMCPDiscovery,
		"ia.mcp-server-card":              cpMCPServerCard,
		"ia.mcp-live":                     cpMCPLive,
		"ia.mcp-apps":                     cpMCPApps,
		"ia.openapi":                      cpOpenAPI,
		"ia.openapi-quality":              cpOpenAPIQuality,
		"ia.openapi-live":                 cpOpenAPILive,
		"ia.api-errors":                   cpAPIErrors,
		"ia.api-rate-limits":              cpAPIRateLimits,
	})
}

// scored runs a scored check once per scan and shares its outcome, so that
// a checkpoint judging the same fact reads the same verdict (and a --check
// of one checkpoint needs no full scan).
func (s *site) scored(ctx context.Context, id string) outcome {
	s.jsonMu.Lock()
	l := s.scoredOutcomes[id]
	if l == nil {
		l = &lazy[outcome]{}
		s.scoredOutcomes[id] = l
	}
	s.jsonMu.Unlock()
	return l.get(func() outcome {
		// Redacted once here, however many lenses read the outcome.
		o := runOne(ctx, s, checkInfo(id))
		o.receipt = redactReceipt(o.receipt)
		return o
	})
}

// agreeWith is a checkpoint that is, fact for fact, a scored check: the
// same verdict and receipt.
func agreeWith(id string) checkpointFunc {
	return func(ctx context.Context, s *site, _ *Report) outcome {
		o := s.scored(ctx, id)
		if o.verdict == Partial && o.fraction <= 0 {
			o.verdict = Fail
		}
		return o
	}
}

// found builds a checkpoint outcome from a receipt.
func cp(v Verdict, rec Receipt, missing string, scope ...string) outcome {
	if scope == nil {
		scope = []string{}
	}
	return outcome{verdict: v, receipt: rec, missing: missing, scope: scope}
}

// noBackend is the outcome of an interface checkpoint on a site that
// offers no backend (STANDARD.md §11: NOT_APPLICABLE, not FAIL).
func noBackend(expected string, scope ...string) outcome {
	return cp(NotApplicable, Receipt{Expected: expected, Note: "the site offers no backend interface (nothing declared, nothing at the OpenAPI, MCP or A2A addresses, no API advertised by a link, no form that writes)"}, "", scope...)
}

// wellKnownType checks the media type a well-known JSON document is served
// with (STANDARD.md §11: application/json; api-catalog
// application/linkset+json). It returns "" when right.
func wellKnownType(r *response, want ...string) string {
	mt := r.mediaType()
	if len(want) == 0 {
		want = []string{"application/json"}
	}
	if slices.Contains(want, mt) || (strings.HasSuffix(mt, "+json") && slices.Contains(want, "application/json")) {
		return ""
	}
	return fmt.Sprintf("served as %q, not %s", orNone(mt), strings.Join(want, " or "))
}

// docOutcome judges a found JSON document: missing fields make it FAIL
// (or PARTIAL when partial is allowed and some are there), a wrong media
// type makes an otherwise passing document PARTIAL.
func (s *site) docOutcome(j jsonResult, expected string, problems []string, typeProblem string, partialOK bool, total int) outcome {
	rec := s.receiptOf(j.resp, expected)
	scope := []string{pathOf(j.resp.req.url)}
	switch {
	case len(problems) == 0 && typeProblem == "":
		return cp(Pass, rec, "", scope...)
	case len(problems) == 0:
		o := cp(Partial, rec, typeProblem, scope...)
		o.fraction = 0.5
		return o
	case partialOK && len(problems) < total:
		o := cp(Partial, rec, strings.Join(append(problems, typeProblem), "; "), scope...)
		o.fraction = round2(1 - float64(len(problems))/float64(total))
		o.missing = strings.TrimSuffix(o.missing, "; ")
		return o
	}
	return cp(Fail, rec, strings.TrimSuffix(strings.Join(append(problems, typeProblem), "; "), "; "), scope...)
}

// notFound is the outcome of a document that was looked for and is not
// there: COULD_NOT_CHECK when nothing answered, else FAIL (or N/A when
// notApplicable says the site owes none).
func (s *site) notFound(j jsonResult, expected string, notApplicable bool) outcome {
	rec := s.receiptOf(j.resp, expected)
	for _, t := range j.tried {
		if t != j.resp {
			rec.Also = append(rec.Also, s.also(t))
		}
	}
	scope := []string{pathOf(j.resp.req.url)}
	switch {
	case j.allUnreachable():
		return cp(CouldNotCheck, rec, j.resp.errText(), scope...)
	case notApplicable:
		rec.Note = "not found; not owed by this site"
		return cp(NotApplicable, rec, "", scope...)
	case j.doc != nil && len(j.doc) == 0:
		return cp(Fail, rec, "an empty {} document passes nothing", scope...)
	case j.parseErr != nil:
		return cp(Fail, rec, "not a JSON object: "+j.parseErr.Error(), scope...)
	}
	return cp(Fail, rec, fmt.Sprintf("not found (%s)", statusText(j.resp)), scope...)
}

// cpA2ACard: an A2A 1.0 card; a 0.3 card is PARTIAL.
func cpA2ACard(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "/.well-known/agent-card.json (or agent.json): A2A 1.0 with name, description, version, capabilities, non-empty supportedInterfaces"
	j := s.a2aCard(ctx)
	if len(j.doc) == 0 {
		return s.notFound(j, expected, !s.backend(ctx).offered)
	}
	var missing []string
	for _, k := range []string{"name", "description", "version", "capabilities"} {
		if j.doc[k] == nil {
			missing = append(missing, k)
		}
	}
	si, _ := j.doc["supportedInterfaces"].([]any)
	if len(si) == 0 {
		if str(j.doc, "url") != "" {
			o := s.docOutcome(j, expected, nil, "", true, 5)
			o.verdict, o.fraction, o.missing = Partial, 0.5, "an A2A 0.3 card (top-level url, no supportedInterfaces)"
			return o
		}
		missing = append(missing, "supportedInterfaces")
	}
	return s.docOutcome(j, expected, prefixAll("lacks ", missing), wellKnownType(j.resp), true, 5)
}

// anyUnreachable reports a response in list that gave no usable answer.
func anyUnreachable(list []*response) bool {
	for _, r := range list {
		if r.unreachable() {
			return true
		}
	}
	return false
}

// prefixAll prefixes every item.
func prefixAll(p string, items []string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = p + it
	}
	return out
}

// cardName reports the name an MCP server card gives: name,
// serverInfo.name, or a legacy non-empty mcpServers map.
func cardName(doc map[string]any) (string, bool) {
	if n := str(doc, "name"); n != "" {
		return n, true
	}
	if n := str(obj(doc, "serverInfo"), "name"); n != "" {
		return n, true
	}
	if m := obj(doc, "mcpServers"); len(m) > 0 {
		return "mcpServers: " + strings.Join(slices.Sorted(maps.Keys(m)), ", "), true
	}
	return "", false
}

// cpMCPDiscovery: a server card with name, serverInfo.name or a legacy
// mcpServers map at one of the three addresses.
func cpMCPDiscovery(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "/.well-known/mcp.json, /.well-known/mcp/server-card.json or /.well-known/mcp/server-cards.json with name, serverInfo.name or an mcpServers map"
	j := s.serverCard(ctx)
	if len(j.doc) == 0 {
		return s.notFound(j, expected, !s.mcp(ctx).found)
	}
	name, ok := cardName(j.doc)
	if !ok {
		return s.docOutcome(j, expected, []string{"no name, serverInfo.name or mcpServers"}, "", false, 1)
	}
	o := s.docOutcome(j, expected, nil, wellKnownType(j.resp), false, 1)
	o.receipt.Note = "card names " + name
	return o
}

// cpMCPServerCard: the card found by ia.mcp-discovery is complete.
func cpMCPServerCard(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "identity and version, transport and endpoint (remotes), capabilities, auth metadata, description"
	j := s.serverCard(ctx)
	if _, ok := cardName(j.doc); !ok {
		return cp(NotApplicable, Receipt{Expected: expected, Note: "no MCP server card found (ia.mcp-discovery)"}, "", "/.well-known/mcp/server-card.json")
	}
	doc := j.doc
	if m := obj(doc, "mcpServers"); len(m) > 0 && str(doc, "name") == "" {
		// A legacy map: judge its first server.
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if o, ok := m[k].(map[string]any); ok {
				doc = o
				break
			}
		}
	}
	var missing []string
	if str(doc, "version") == "" && str(obj(doc, "serverInfo"), "version") == "" {
		missing = append(missing, "a version")
	}
	remotes, _ := doc["remotes"].([]any)
	if len(remotes) == 0 && str(doc, "url") == "" && str(doc, "endpoint") == "" {
		missing = append(missing, "remotes (transport and endpoint)")
	}
	if doc["capabilities"] == nil {
		missing = append(missing, "capabilities")
	}
	if !authStated(doc["authentication"]) && !authStated(doc["auth"]) && !remotesHaveHeaders(doc) {
		missing = append(missing, "auth metadata")
	}
	if str(doc, "description") == "" && str(obj(doc, "serverInfo"), "description") == "" {
		missing = append(missing, "a description")
	}
	return s.docOutcome(j, expected, missing, "", true, 5)
}

// cpMCPLive: initialize (or server/discover) and tools/list answer on the
// site's own origin; an unknown method gets HTTP 404 with a JSON-RPC error.
func cpMCPLive(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "same-origin streamable HTTP: initialize (or server/discover) and tools/list answer; an unknown method → HTTP 404 with a JSON-RPC error; never a tool call"
	mc := s.mcp(ctx)
	base := s.scored(ctx, "mcp_transport")
	o := cp(base.verdict, base.receipt, base.missing, base.scope...)
	o.receipt.Expected = expected
	switch base.verdict {
	case NotApplicable:
		if mc.probe.Discover {
			o.verdict, o.missing = Pass, ""
		}
		return o
	case Pass:
	default:
		if mc.probe.Discover {
			o.verdict, o.fraction, o.missing = Partial, 0.5, "answers server/discover but not initialize and tools/list"
		}
		if o.verdict == Partial && o.fraction == 0 {
			o.fraction = base.fraction
		}
		return o
	}
	um := mc.probe.UnknownMethod
	if um == nil || um.Status != 404 || !um.JSONRPCError {
		got := "no answer"
		if um != nil {
			got = fmt.Sprintf("HTTP %d, JSON-RPC error: %t", um.Status, um.JSONRPCError)
		}
		o.verdict, o.fraction, o.missing = Partial, 0.5, "an unknown method answered with HTTP 404 and a JSON-RPC error (got "+got+")"
	}
	return o
}

// cpMCPApps: when the MCP endpoint is live, a tool names a ui:// resource.
func cpMCPApps(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "a listed tool has _meta.ui.resourceUri (ui://…) served as text/html;profile=mcp-app"
	mc := s.mcp(ctx)
	rec := Receipt{Expected: expected, Request: &RequestRecord{Method: "POST", URL: redactURL(mc.url)}}
	if !mc.probe.ToolsList {
		rec.Note = "no MCP endpoint listed its tools (ia.mcp-live)"
		return cp(NotApplicable, rec, "", pathOf(mc.url))
	}
	rec.Note = fmt.Sprintf("%d tool(s) with a ui:// resource", mc.probe.UITools)
	if mc.probe.UITools > 0 {
		return cp(Pass, rec, "", pathOf(mc.url))
	}
	return cp(Fail, rec, "no tool names an MCP App (ui://) resource", pathOf(mc.url))
}

// cpOpenAPI: an OpenAPI 3.x document (Swagger 2 partial; a declared one
// that does not resolve fails).
func cpOpenAPI(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "OpenAPI 3.x JSON/YAML at /openapi.json, /openapi.yaml, /swagger.json, /api-docs, /.well-known/openapi, or where the card declares it"
	oa := s.openapi(ctx)
	b := s.backend(ctx)
	scope := []string{}
	for _, t := range oa.tried {
		scope = append(scope, pathOf(t.req.url))
	}
	var missingDecl []string
	var missingResp *response
	for _, d := range b.missing() {
		if k := strings.ToLower(d.kind); strings.Contains(k, "openapi") || strings.Contains(k, "rest") {
			missingDecl = append(missingDecl, fmt.Sprintf("%s answers %s", redactURL(d.url), statusText(d.resp)))
			if missingResp == nil {
				missingResp = d.resp
			}
		}
	}
	rec := s.receiptOf(oa.resp, expected)
	switch {
	case len(missingDecl) > 0:
		rec = s.receiptOf(missingResp, expected)
		return cp(Fail, rec, "the declared OpenAPI document does not resolve: "+strings.Join(missingDecl, "; "), scope...)
	case oa.version == "3.x":
		rec.Note = "OpenAPI " + str(oa.doc, "openapi")
		return cp(Pass, rec, "", scope...)
	case oa.version == "2.0":
		o := cp(Partial, rec, "Swagger 2.0, not OpenAPI 3.x", scope...)
		o.fraction = 0.5
		return o
	case !b.offered && !anyUnreachable(oa.tried):
		return noBackend(expected, scope...)
	case anyUnreachable(oa.tried):
		for _, t := range oa.tried {
			if t.unreachable() {
				return cp(CouldNotCheck, s.receiptOf(t, expected), t.errText(), scope...)
			}
		}
	}
	return cp(Fail, rec, "no OpenAPI document (an HTML UI does not count)", scope...)
}

// cpOpenAPIQuality: every operation has operationId, summary or
// description, typed parameters, a 2xx schema and an error model.
func cpOpenAPIQuality(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "every operation: operationId, summary or description, typed parameters, a 2xx response schema, an error model"
	oa := s.openapi(ctx)
	if oa.doc == nil {
		return cp(NotApplicable, Receipt{Expected: expected, Note: "no OpenAPI document (ia.openapi)"}, "", "/openapi.json")
	}
	f := judgeOperations(oa.doc)
	rec := s.receiptOf(oa.resp, expected)
	rec.Note = fmt.Sprintf("%d operation(s), %d of %d criteria met", f.ops, f.met, 5*f.ops)
	scope := []string{pathOf(oa.resp.req.url)}
	switch {
	case f.ops == 0:
		return cp(Fail, rec, "the document has no operations", scope...)
	case f.met == 5*f.ops:
		return cp(Pass, rec, "", scope...)
	case f.met == 0:
		return cp(Fail, rec, strings.Join(f.missing, "; "), scope...)
	}
	o := cp(Partial, rec, strings.Join(f.missing, "; "), scope...)
	o.fraction = round2(float64(f.met) / float64(5*f.ops))
	return o
}

// safeGet is one operation the scanner may call: a same-origin GET with no
// auth, no path parameter, no required input and no body.
type safeGet struct {
	path, url string
	codes     []string // documented 2xx codes
	types     []string // documented media types of those
}

// pickSafeGet finds the first such operation in path order.
func (s *site) pickSafeGet(oa openapiResult) (safeGet, bool) {
	if oa.doc == nil {
		return safeGet{}, false
	}
	globalSec, _ := oa.doc["security"].([]any)
	paths := obj(oa.doc, "paths")
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		if strings.Contains(p, "{") {
			continue
		}
		item, _ := paths[p].(map[string]any)
		op, ok := item["get"].(map[string]any)
		if !ok || op["requestBody"] != nil {
			continue
		}
		sec, hasSec := op["security"].([]any)
		if (hasSec && len(sec) > 0) || (!hasSec && len(globalSec) > 0) {
			continue
		}
		if requiredParam(item) || requiredParam(op) {
			continue
		}
		u := s.apiBase(oa) + strings.TrimPrefix(p, "/")
		if !onOrigin(u, s.origin) {
			continue
		}
		g := safeGet{path: p, url: u}
		for code, r := range obj(op, "responses") {
			if strings.HasPrefix(code, "2") {
				g.codes = append(g.codes, code)
				for mt := range obj(r.(map[string]any), "content") {
					g.types = append(g.types, strings.ToLower(mt))
				}
			}
		}
		slices.Sort(g.codes)
		slices.Sort(g.types)
		return g, true
	}
	return safeGet{}, false
}

// requiredParam reports a required parameter (or one given by $ref, which
// the scanner does not resolve and so treats as required).
func requiredParam(o map[string]any) bool {
	params, _ := o["parameters"].([]any)
	for _, p := range params {
		pm, _ := p.(map[string]any)
		if pm == nil || pm["$ref"] != nil || pm["required"] == true || str(pm, "in") == "path" {
			return true
		}
	}
	return false
}

// openapiLive fetches the picked operation once (memoised by the fetcher).
func (s *site) openapiLive(ctx context.Context) (safeGet, *response, bool) {
	g, ok := s.pickSafeGet(s.openapi(ctx))
	if !ok {
		return g, nil, false
	}
	return g, s.f.get(ctx, g.url, acceptJSON), true
}

// cpOpenAPILive: the picked GET answers its documented 2xx and media type.
func cpOpenAPILive(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "one same-origin GET with no auth, no path parameter, no required input and no body answers its documented 2xx status and media type"
	oa := s.openapi(ctx)
	if oa.doc == nil {
		return cp(NotApplicable, Receipt{Expected: expected, Note: "no OpenAPI document (ia.openapi)"}, "", "/openapi.json")
	}
	g, resp, ok := s.openapiLive(ctx)
	if !ok {
		return cp(NotApplicable, Receipt{Expected: expected, Note: "no operation is safe to call (every GET needs auth, a path parameter or input, or lives off the origin)"}, "", pathOf(oa.resp.req.url))
	}
	rec := s.receiptOf(resp, expected, "Content-Type")
	rec.Note = fmt.Sprintf("GET %s: documented %v %v", g.path, g.codes, g.types)
	scope := []string{pathOf(g.url)}
	if resp.unreachable() {
		return cp(CouldNotCheck, rec, resp.errText(), scope...)
	}
	code := fmt.Sprint(resp.status)
	codeOK := slices.Contains(g.codes, code) || (len(g.codes) == 0 && resp.status/100 == 2) || slices.Contains(g.codes, "2XX") && resp.status/100 == 2
	mt, _, _ := mime.ParseMediaType(resp.header.Get("Content-Type"))
	typeOK := len(g.types) == 0 || slices.Contains(g.types, strings.ToLower(mt))
	switch {
	case codeOK && typeOK:
		return cp(Pass, rec, "", scope...)
	case !codeOK:
		return cp(Fail, rec, fmt.Sprintf("a documented status %v (got %d)", g.codes, resp.status), scope...)
	}
	return cp(Fail, rec, fmt.Sprintf("a documented media type %v (got %q)", g.types, mt), scope...)
}

// apiErrorProbe fetches the unknown-path probe under the API base (the
// same request openapi_quality makes, shared by the fetcher).
func (s *site) apiErrorProbe(ctx context.Context) (*response, bool) {
	oa := s.openapi(ctx)
	if oa.doc == nil {
		return nil, false
	}
	u := s.apiBase(oa) + missingProbe
	if !onOrigin(u, s.origin) {
		return nil, false
	}
	return s.f.get(ctx, u, acceptJSON), true
}

// cpAPIErrors: an unknown path under the API base answers 404/410 with a
// JSON body naming an error.
func cpAPIErrors(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "GET <api base>/" + missingProbe + " → 404/410 with a JSON body carrying title, detail, error, message, code, type or status"
	probe, ok := s.apiErrorProbe(ctx)
	if !ok {
		return cp(NotApplicable, Receipt{Expected: expected, Note: "no OpenAPI document with a base on this origin (ia.openapi)"}, "", "/openapi.json")
	}
	rec := s.receiptOf(probe, expected, "Content-Type")
	scope := []string{pathOf(probe.req.url)}
	switch {
	case probe.unreachable() && probe.status == 0:
		return cp(CouldNotCheck, rec, probe.errText(), scope...)
	case (probe.status == 404 || probe.status == 410) && isProblemBody(probe):
		return cp(Pass, rec, "", scope...)
	case probe.status == 404 || probe.status == 410:
		return cp(Fail, rec, "a JSON error body (the 404 carries none)", scope...)
	}
	return cp(Fail, rec, fmt.Sprintf("404 or 410 for an unknown path (got %d)", probe.status), scope...)
}

// cpAPIRateLimits: the API answers carry RateLimit headers.
func cpAPIRateLimits(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "RateLimit, RateLimit-Policy or RateLimit-Limit on the API's answers (X-RateLimit-* or Retry-After only: partial)"
	var resps []*response
	if _, r, ok := s.openapiLive(ctx); ok {
		resps = append(resps, r)
	}
	if r, ok := s.apiErrorProbe(ctx); ok {
		resps = append(resps, r)
	}
	if len(resps) == 0 {
		return cp(NotApplicable, Receipt{Expected: expected, Note: "no API answer to read (ia.openapi-live, ia.api-errors)"}, "", "/openapi.json")
	}
	heads := []string{"RateLimit", "RateLimit-Policy", "RateLimit-Limit", "X-RateLimit-Limit", "X-RateLimit-Remaining", "Retry-After"}
	rec := s.receiptOf(resps[0], expected, heads...)
	for _, r := range resps[1:] {
		rec.Also = append(rec.Also, s.also(r, heads...))
	}
	scope := []string{}
	std, legacy := false, false
	for _, r := range resps {
		scope = append(scope, pathOf(r.req.url))
		for _, h := range heads[:3] {
			if r.header.Get(h) != "" {
				std = true
			}
		}
		for _, h := range heads[3:] {
			if r.header.Get(h) != "" {
				legacy = true
			}
		}
	}
	switch {
	case std:
		return cp(Pass, rec, "", scope...)
	case legacy:
		o := cp(Partial, rec, "the standard RateLimit / RateLimit-Policy headers (only X-RateLimit-* or Retry-After)", scope...)
		o.fraction = 0.5
		return o
	}
	return cp(Fail, rec, "no RateLimit headers", scope...)
}
