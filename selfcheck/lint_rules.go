package selfcheck

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/agentready/caddy-agentready/selfcheck/internal/parse"
	"github.com/agentready/caddy-agentready/selfcheck/llmstxt"
)

// lintLens is the third lens (STANDARD.md §12): the UAIX UAI-1 agent-
// compatibility rules read what the site tells agents (llms.txt,
// agents.json and its interfaces, OpenAPI, forms) and report failures and
// warnings, each with the document, line or field that triggered it, plus
// the highest executability level (L0–L7) the guidance honestly supports.
// It never changes the score; llms_minimal_instruction_required is the very
// rule llms_txt applies, so the two agree.
type lintLens struct{}

// LintKind is "failure" or "warning".
type LintKind string

// The two kinds of UAIX rule.
const (
	LintFailure LintKind = "failure"
	LintWarning LintKind = "warning"
)

// LintRuleInfo is one rule of the catalogue.
type LintRuleInfo struct {
	// ID is the UAIX rule id.
	ID string `json:"id"`
	// Kind is failure or warning.
	Kind LintKind `json:"kind"`
	// Title says what the rule asks.
	Title string `json:"title"`
	// Fix is the change that satisfies it.
	Fix string `json:"fix"`
}

// LintFinding is what triggered a rule: a document and a line or field.
type LintFinding struct {
	// Document is the address read (a path on the site).
	Document string `json:"document"`
	// Line is the 1-based line in the document, 0 when a field is named.
	Line int `json:"line,omitempty"`
	// Field is the JSON field or HTML element, when no line applies.
	Field string `json:"field,omitempty"`
	// Excerpt is the offending text, redacted and clipped.
	Excerpt string `json:"excerpt,omitempty"`
	// Message says what is wrong.
	Message string `json:"message"`
}

// LintResult is one rule's outcome.
type LintResult struct {
	// ID, Kind and Title repeat the catalogue entry.
	ID    string   `json:"id"`
	Kind  LintKind `json:"kind"`
	Title string   `json:"title"`
	// Verdict is PASS, FAIL (a failure or a warning that fired),
	// NOT_APPLICABLE (nothing the rule reads is there) or COULD_NOT_CHECK.
	Verdict Verdict `json:"verdict"`
	// Findings are what triggered it (empty on PASS and N/A).
	Findings []LintFinding `json:"findings"`
	// Fix is the change that satisfies it (on FAIL only).
	Fix string `json:"fix,omitempty"`
	// Note says what was read.
	Note string `json:"note,omitempty"`
}

// LintReport is the third lens's part of the report.
type LintReport struct {
	// Rules holds the 20 rules in catalogue order.
	Rules []LintResult `json:"rules"`
	// Failures and Warnings count the rules that fired, by kind.
	Failures int `json:"failures"`
	Warnings int `json:"warnings"`
	// Level is the highest executability level (0–7) the guidance
	// honestly supports; -1 when not even L0 holds.
	Level int `json:"level"`
	// LevelName names it ("L1 manifest/schema discovery").
	LevelName string `json:"level_name"`
	// LevelReason says what stops the next level.
	LevelReason string `json:"level_reason"`
}

// lintFunc decides one rule over the shared guidance.
type lintFunc func(g *guidance) (Verdict, []LintFinding, string)

// lintFuncs maps rule ids to their implementations (lint_rules.go).
var lintFuncs = map[string]lintFunc{}

// LintRules returns a copy of the rule catalogue.
func LintRules() []LintRuleInfo { return append([]LintRuleInfo(nil), lintRules...) }

// run judges every rule and the ladder.
func (lintLens) run(ctx context.Context, s *site, r *Report) {
	g := s.guidance(ctx)
	lr := &LintReport{Rules: []LintResult{}}
	for _, rule := range lintRules {
		if s.opts.Only != "" && s.opts.Only != rule.ID {
			continue
		}
		lr.Rules = append(lr.Rules, runLint(g, rule))
	}
	lr.count()
	lr.Level, lr.LevelName, lr.LevelReason = ladder(g, lr)
	r.Lint = lr
}

// unreachable records every rule COULD_NOT_CHECK.
func (lintLens) unreachable(s *site, home *response, r *Report) {
	lr := &LintReport{Rules: []LintResult{}, Level: -1, LevelName: "none", LevelReason: "the home page gave no answer: " + home.errText()}
	for _, rule := range lintRules {
		if s.opts.Only != "" && s.opts.Only != rule.ID {
			continue
		}
		lr.Rules = append(lr.Rules, LintResult{ID: rule.ID, Kind: rule.Kind, Title: rule.Title, Verdict: CouldNotCheck, Findings: []LintFinding{}, Note: "the home page gave no answer"})
	}
	r.Lint = lr
}

// runLint runs one rule, turning a panic into COULD_NOT_CHECK.
func runLint(g *guidance, rule LintRuleInfo) (res LintResult) {
	res = LintResult{ID: rule.ID, Kind: rule.Kind, Title: rule.Title, Findings: []LintFinding{}}
	defer func() {
		if v := recover(); v != nil {
			res.Verdict, res.Note = CouldNotCheck, fmt.Sprintf("internal error: %v", v)
		}
	}()
	fn := lintFuncs[rule.ID]
	if fn == nil {
		res.Verdict, res.Note = CouldNotCheck, "rule not implemented"
		return res
	}
	v, fs, note := fn(g)
	res.Verdict, res.Note = v, redactText(note)
	for _, f := range fs {
		f.Excerpt, f.Message, f.Document = redactText(clipText(f.Excerpt, 160)), redactText(f.Message), redactURL(f.Document)
		res.Findings = append(res.Findings, f)
	}
	if v == Fail {
		res.Fix = rule.Fix
	}
	return res
}

// count fills the failure and warning totals.
func (lr *LintReport) count() {
	lr.Failures, lr.Warnings = 0, 0
	for _, r := range lr.Rules {
		if r.Verdict != Fail {
			continue
		}
		if r.Kind == LintFailure {
			lr.Failures++
		} else {
			lr.Warnings++
		}
	}
}

// lintByID returns the rule result with id, or nil.
func (lr *LintReport) lintByID(id string) *LintResult {
	if lr == nil {
		return nil
	}
	for i := range lr.Rules {
		if lr.Rules[i].ID == id {
			return &lr.Rules[i]
		}
	}
	return nil
}

// clipText shortens s to n bytes at a rune boundary.
func clipText(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + " …"
}

// isRuneStart reports a byte that starts a UTF-8 sequence.
func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// lintRules is the UAIX rule catalogue (STANDARD.md §12), failures first.
var lintRules = []LintRuleInfo{
	{"get_action_fallback_required", LintFailure, "A POST-only writing action has a documented GET or URL fallback", "Name the page (a GET URL) where a person or a browser agent can do the action, in llms.txt or agents.json, beside the POST form."},
	{"get_action_idempotency_required", LintFailure, "GET-action examples that can write carry an idempotency_key or nonce", "Add an idempotency_key (or nonce) parameter to every example URL that can write."},
	{"get_action_query_secret", LintFailure, "No secret, token, password, account, medical, payment or regulated id in example URLs", "Remove credentials and personal identifiers from example URLs; send them in headers or a POST body."},
	{"get_action_js_only_discovery", LintFailure, "Discovery is not hidden behind a JavaScript-only interface", "Serve the content in the initial HTML, or publish llms.txt, a sitemap or agents.json that a plain GET can read."},
	{"llms_minimal_instruction_required", LintFailure, "llms.txt gives direct minimal instructions, not only links to specs", "Add plain instruction lines to llms.txt (what to fetch, how, what not to do), not only links to OpenAPI or tool specs."},
	{"retry_loop_no_op_violation", LintFailure, "Unsupported agents are not told to keep retrying or guessing", "Replace retry/guess instructions with: stop, do nothing, and hand over to a person."},
	{"post_equivalent_recommended", LintWarning, "GET actions have a POST or OpenAPI equivalent", "Describe the same action as a POST operation in an OpenAPI document for capable clients."},
	{"get_action_security_order_warning", LintWarning, "Consent and safety limits come before examples", "Move the consent and safety lines above the first example in llms.txt."},
	{"side_effecting_get_discovery_warning", LintWarning, "Side-effecting GET links are not offered as discovery shortcuts", "Keep links that change state out of llms.txt link lists, sitemaps and agents.json discovery fields."},
	{"browser_form_fallback_required", LintWarning, "Browser-targeted POST instructions have a visible form or browser-opened fallback", "Point browser agents at a visible form page for every POST instruction."},
	{"restore_readback_required", LintWarning, "Create/update instructions name a restore or read-back URL", "Say where the result can be read back (a status or view URL) after a create or update."},
	{"dashboard_default_path_warning", LintWarning, "Dashboard or custom-template paths are not the default when generated paths exist", "Present the generated llms.txt / agents.json paths first; mention the dashboard as an alternative."},
	{"highest_lowest_path_required", LintWarning, "Every route names highest_supported_path and lowest_safe_fallback", "Give every interface (route) in agents.json highestSupportedPath and lowestSafeFallback."},
	{"post_blocked_fallback_required", LintWarning, "POST paths say what to do for agents that cannot POST JSON", "Add a line for agents that cannot send JSON POST: the form page to open, or stop and hand over."},
	{"live_get_blocked_fallback_required", LintWarning, "Live-GET guidance declares it and gives index-only fetchers a fallback", "Say that the instructions need live HTTP GET, and what an index-only fetcher should read instead."},
	{"mcp_unavailable_fallback_required", LintWarning, "MCP references say what to do when MCP is unavailable", "Add: if MCP is unavailable, read the pages (Markdown) listed in llms.txt instead."},
	{"auth_unavailable_fallback_required", LintWarning, "Authenticated mutations have an unauthenticated fallback or public review URL", "Name a public page (review URL or contact) for agents that cannot sign in."},
	{"tool_unavailable_fallback_required", LintWarning, "Tool references say what to do when the tool is unavailable", "Add: if a tool is unavailable, use the page or form URL it stands for, or stop."},
	{"human_review_url_required", LintWarning, "A public human-review URL exists where an action can block", "Publish a contact page or mailto in llms.txt and agents.json (contact.human)."},
	{"no_op_behavior_required", LintWarning, "Unsupported capabilities are told to stop safely", "Add: if something you need is not supported, stop and do nothing (no-op), then hand over to a person."},
}

// gText is one piece of guidance: a line of a document or a field of a
// JSON document.
type gText struct {
	doc   string
	line  int
	field string
	text  string
}

// finding builds a finding that points at t.
func (t gText) finding(msg string) LintFinding {
	return LintFinding{Document: t.doc, Line: t.line, Field: t.field, Excerpt: t.text, Message: msg}
}

// formAt is a form on a scanned page.
type formAt struct {
	route string
	form  parse.Form
}

// guidance is everything the lint rules read, gathered once.
type guidance struct {
	llmsFound bool
	llmsBody  []byte
	texts     []gText // llms.txt lines, then agents.json string fields
	card      map[string]any
	cardDoc   string
	oa        openapiResult
	forms     []formAt // visible forms on the scanned routes
	jsOnly    bool     // the home page is an empty app shell
	discovery bool     // llms.txt, a sitemap or agents.json can be read by GET
	mcp       bool     // MCP is offered or referenced
	offered   bool     // a backend is offered
	authNeed  bool     // some capability needs a token
	home      string
	urls      []exampleURL // every URL the guidance shows, found once
}

// exampleURL is one URL the guidance shows, with where it is.
type exampleURL struct {
	t gText
	u *url.URL
}

// guidance gathers the documents the rules read (all already fetched by
// the other lenses: the fetcher memoises every answer).
func (s *site) guidance(ctx context.Context) *guidance {
	g := &guidance{home: pathOf(s.home)}
	l := s.llmsTxt(ctx)
	if llmsUsable(l) {
		g.llmsFound, g.llmsBody = true, l.body
		for i, line := range strings.Split(string(l.body), "\n") {
			if strings.TrimSpace(line) != "" {
				g.texts = append(g.texts, gText{doc: "/llms.txt", line: i + 1, text: line})
			}
		}
	}
	m := s.manifest(ctx)
	if len(m.doc) > 0 {
		g.card, g.cardDoc = m.doc, pathOf(m.chosen.req.url)
		flatten(g.cardDoc, "", m.doc, &g.texts)
	}
	g.oa = s.openapi(ctx)
	for _, r := range s.routes {
		for _, f := range s.page(ctx, r).facts.Forms {
			if !f.Hidden {
				g.forms = append(g.forms, formAt{route: r, form: f})
			}
		}
	}
	// An app shell: the initial HTML lacks the content, and scripts build it.
	home := s.scored(ctx, "content_in_initial_html")
	g.jsOnly = home.verdict == Fail && strings.Contains(strings.ToLower(string(s.page(ctx, s.home).resp.body)), "<script")
	g.discovery = g.llmsFound || len(m.doc) > 0 || s.sitemap(ctx).doc.Kind != ""
	mc := s.mcp(ctx)
	g.mcp = mc.found || g.mentions(regexp.MustCompile(`(?i)\bmcp\b`))
	g.offered = s.backend(ctx).offered
	g.authNeed, _ = s.tokenNeeded(ctx)
	g.findURLs()
	return g
}

// flatten lists the string fields of a JSON value with their paths.
func flatten(doc, path string, v any, out *[]gText) {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			p := k
			if path != "" {
				p = path + "." + k
			}
			flatten(doc, p, t[k], out)
		}
	case []any:
		for i, e := range t {
			flatten(doc, fmt.Sprintf("%s[%d]", path, i), e, out)
		}
	case string:
		*out = append(*out, gText{doc: doc, field: path, text: t})
	}
}

// mentions reports guidance matching re.
func (g *guidance) mentions(re *regexp.Regexp) bool { return g.first(re) != nil }

// first returns the first guidance text matching re.
func (g *guidance) first(re *regexp.Regexp) *gText {
	for i := range g.texts {
		if re.MatchString(g.texts[i].text) {
			return &g.texts[i]
		}
	}
	return nil
}

// all returns the guidance texts matching re.
func (g *guidance) all(re *regexp.Regexp) []gText {
	var out []gText
	for _, t := range g.texts {
		if re.MatchString(t.text) {
			out = append(out, t)
		}
	}
	return out
}

var (
	urlRe        = regexp.MustCompile(`(?i)(https?://[^\s)<>\]"'` + "`" + `]+|\]\((/[^)\s]*)\))`)
	writeVerbRe  = regexp.MustCompile(`(?i)(^|[/_\-?&=.])(create|add|delete|remove|update|edit|book|order|buy|purchase|pay|submit|send|subscribe|unsubscribe|cancel|post|write|save|vote|register|signup|reset)([/_\-?&=.]|$)`)
	secretParam  = regexp.MustCompile(`(?i)^(.*token.*|.*secret.*|.*passw.*|pwd|pass|api[-_]?key|apikey|key|auth|authorization|session(id)?|sid|jwt|bearer|account(_?id|_?number)?|acct|ssn|nin|passport|iban|card(_?number)?|cc|cvv|cvc|pan|routing|mrn|patient(_?id)?|medical.*|diagnosis|dob|message|private.*)$`)
	idemParam    = regexp.MustCompile(`(?i)^(idempotency[-_]?key|nonce|request[-_]?id)$`)
	retryRe      = regexp.MustCompile(`(?i)(keep (re)?trying|retry until|try again until|keep retrying|retry (indefinitely|forever)|poll (indefinitely|forever)|guess (the|an?|which) (endpoint|url|parameter|path|route)|keep guessing)`)
	safetyRe     = regexp.MustCompile(`(?i)(consent|confirm|safety|permission|only (with|after|when)|do not|don't|never|must not|limit)`)
	exampleRe    = regexp.MustCompile("(?i)(^\\s*(curl|get|post) |^```|example|e\\.g\\.)")
	postRe       = regexp.MustCompile(`(?i)\bPOST\b`)
	openRe       = regexp.MustCompile(`(?i)(open|visit|browser|form at|use the form)`)
	createRe     = regexp.MustCompile(`(?i)\b(create|update|submit|edit|book|order|send)\b`)
	readbackRe   = regexp.MustCompile(`(?i)(read[- ]?back|restore|status (page|url)|view (it|the result)|check (the|its) (status|result)|result url|GET [^\s]*\{id\})`)
	dashboardRe  = regexp.MustCompile(`(?i)((go to|use|open|from) (the|your) (admin )?dashboard|custom template)`)
	postFallRe   = regexp.MustCompile(`(?i)(cannot (send |make )?(a )?(json )?post|can't post|without (json )?post|if post is (blocked|unavailable))`)
	liveGetRe    = regexp.MustCompile(`(?i)(request (any|a|the) page|fetch |\bGET\b|Accept: text/markdown|/ask\?)`)
	liveFallRe   = regexp.MustCompile(`(?i)(cannot (make )?live (http )?requests|index[- ]only|cannot fetch|without live (http )?(get|requests))`)
	mcpFallRe    = regexp.MustCompile(`(?i)(if (the )?mcp (endpoint |server )?is (unavailable|down|not available)|without mcp|cannot (use|reach) (the )?mcp)`)
	authRe       = regexp.MustCompile(`(?i)(api key|token|sign in|sign-in|oauth|log ?in|authenticat)`)
	authFallRe   = regexp.MustCompile(`(?i)(without signing in|cannot sign in|if you cannot (authenticate|sign in)|public (review )?(page|url)|no sign-in)`)
	toolRe       = regexp.MustCompile(`(?i)\btools?\b`)
	toolFallRe   = regexp.MustCompile(`(?i)(if (a |the )?tools? (is|are) (unavailable|not available|missing)|without (the )?tools?|cannot (use|call) (a |the )?tools?)`)
	noOpRe       = regexp.MustCompile(`(?i)(\bno-?op\b|stop and do nothing|do nothing|stop safely|stop,? (and )?(do not|don't))`)
	contactURLRe = regexp.MustCompile(`(?i)(mailto:|/contact|contact|support)`)
	linkItemRe   = regexp.MustCompile(`^\s*[-*+]\s*\[`)
)

// guidanceMaxURLs bounds the example URLs read from the guidance.
const guidanceMaxURLs = 2000

// exampleURLs lists the URLs the guidance shows, with where they are.
func (g *guidance) exampleURLs() []exampleURL {
	return g.urls
}

// findURLs collects the guidance's URLs once.
func (g *guidance) findURLs() {
	for _, t := range g.texts {
		for _, m := range urlRe.FindAllStringSubmatch(t.text, 8) {
			if len(g.urls) >= guidanceMaxURLs {
				return
			}
			raw := m[1]
			if m[2] != "" {
				raw = m[2]
			}
			if u, err := url.Parse(strings.TrimRight(raw, ".,;:")); err == nil {
				g.urls = append(g.urls, exampleURL{t, u})
			}
		}
	}
}

// getActions are example URLs that act: a write verb in the path or query,
// and a query string.
func (g *guidance) getActions() []gText {
	var out []gText
	for _, e := range g.exampleURLs() {
		if e.u.RawQuery != "" && writeVerbRe.MatchString(e.u.Path+"?"+e.u.RawQuery) {
			t := e.t
			t.text = e.u.String()
			out = append(out, t)
		}
	}
	return out
}

// writingForms are the visible forms that write.
func (g *guidance) writingForms() []formAt {
	var out []formAt
	for _, f := range g.forms {
		if f.form.Writes() {
			out = append(out, f)
		}
	}
	return out
}

// hasPostOps reports an OpenAPI operation that writes.
func (g *guidance) hasPostOps() bool {
	for _, item := range obj(g.oa.doc, "paths") {
		im, _ := item.(map[string]any)
		for _, m := range []string{"post", "put", "patch", "delete"} {
			if im[m] != nil {
				return true
			}
		}
	}
	return false
}

// passOrFail turns findings into a verdict.
func passOrFail(fs []LintFinding, note string) (Verdict, []LintFinding, string) {
	if len(fs) > 0 {
		return Fail, fs, note
	}
	return Pass, nil, note
}

// na is a rule with nothing to read.
func na(note string) (Verdict, []LintFinding, string) { return NotApplicable, nil, note }

// formFinding points at a form.
func formFinding(f formAt, msg string) LintFinding {
	field := "form"
	if f.form.ID != "" {
		field += "#" + f.form.ID
	}
	return LintFinding{Document: pathOf(f.route), Field: field + " method=" + f.form.Method, Excerpt: f.form.Action, Message: msg}
}

// contactStated reports a public human-review URL: contact in the card or
// a contact/mailto line in llms.txt.
func (g *guidance) contactStated() *gText {
	for i, t := range g.texts {
		if strings.HasPrefix(t.field, "contact") && t.text != "" {
			return &g.texts[i]
		}
		if t.doc == "/llms.txt" && contactURLRe.MatchString(t.text) && urlRe.MatchString(t.text) {
			return &g.texts[i]
		}
	}
	return nil
}

// init registers each rule's implementation in lintFuncs.
func init() {
	lintFuncs["get_action_fallback_required"] = lintGetActionFallbackRequired
	lintFuncs["get_action_idempotency_required"] = lintGetActionIdempotencyRequired
	lintFuncs["get_action_query_secret"] = lintGetActionQuerySecret
	lintFuncs["get_action_js_only_discovery"] = lintGetActionJsOnlyDiscovery
	lintFuncs["llms_minimal_instruction_required"] = lintLlmsMinimalInstructionRequired
	lintFuncs["retry_loop_no_op_violation"] = lintRetryLoopNoOpViolation
	lintFuncs["post_equivalent_recommended"] = lintPostEquivalentRecommended
	lintFuncs["get_action_security_order_warning"] = lintGetActionSecurityOrderWarning
	lintFuncs["side_effecting_get_discovery_warning"] = lintSideEffectingGetDiscoveryWarning
	lintFuncs["browser_form_fallback_required"] = lintBrowserFormFallbackRequired
	lintFuncs["restore_readback_required"] = lintRestoreReadbackRequired
	lintFuncs["dashboard_default_path_warning"] = lintDashboardDefaultPathWarning
	lintFuncs["highest_lowest_path_required"] = lintHighestLowestPathRequired
	lintFuncs["post_blocked_fallback_required"] = lintPostBlockedFallbackRequired
	lintFuncs["live_get_blocked_fallback_required"] = lintLiveGetBlockedFallbackRequired
	lintFuncs["mcp_unavailable_fallback_required"] = lintMcpUnavailableFallbackRequired
	lintFuncs["auth_unavailable_fallback_required"] = lintAuthUnavailableFallbackRequired
	lintFuncs["tool_unavailable_fallback_required"] = lintToolUnavailableFallbackRequired
	lintFuncs["human_review_url_required"] = lintHumanReviewUrlRequired
	lintFuncs["no_op_behavior_required"] = lintNoOpBehaviorRequired
}

// lintGetActionFallbackRequired checks the rule get_action_fallback_required (STANDARD.md §12).
func lintGetActionFallbackRequired(g *guidance) (Verdict, []LintFinding, string) {
	forms := g.writingForms()
	if len(forms) == 0 {
		return na("no form that writes on the scanned pages")
	}
	var fs []LintFinding
	for _, f := range forms {
		p := pathOf(f.route)
		listed := false
		for _, e := range g.exampleURLs() {
			if e.u.Path == p || strings.TrimSuffix(e.u.Path, "/") == strings.TrimSuffix(p, "/") {
				listed = true
			}
		}
		if !listed {
			fs = append(fs, formFinding(f, "POST-only action whose page is not named in llms.txt or agents.json as a GET fallback"))
		}
	}
	return passOrFail(fs, fmt.Sprintf("%d form(s) that write", len(forms)))
}

// lintGetActionIdempotencyRequired checks the rule get_action_idempotency_required (STANDARD.md §12).
func lintGetActionIdempotencyRequired(g *guidance) (Verdict, []LintFinding, string) {
	acts := g.getActions()
	if len(acts) == 0 {
		return na("no GET-action example that can write")
	}
	var fs []LintFinding
	for _, a := range acts {
		u, _ := url.Parse(a.text)
		ok := false
		for k := range u.Query() {
			if idemParam.MatchString(k) {
				ok = true
			}
		}
		if !ok {
			fs = append(fs, a.finding("a GET action that can write has no idempotency_key or nonce"))
		}
	}
	return passOrFail(fs, fmt.Sprintf("%d GET-action example(s)", len(acts)))
}

// lintGetActionQuerySecret checks the rule get_action_query_secret (STANDARD.md §12).
func lintGetActionQuerySecret(g *guidance) (Verdict, []LintFinding, string) {
	urls := g.exampleURLs()
	if len(urls) == 0 {
		return na("no example URL")
	}
	var fs []LintFinding
	for _, e := range urls {
		for k := range e.u.Query() {
			if secretParam.MatchString(k) {
				f := e.t.finding(fmt.Sprintf("query parameter %q carries a secret or a regulated identifier", k))
				f.Excerpt = "…?" + k + "=… (value not recorded)"
				fs = append(fs, f)
			}
		}
		if e.u.User != nil {
			f := e.t.finding("credentials in the URL's user info")
			f.Excerpt = "(value not recorded)"
			fs = append(fs, f)
		}
	}
	return passOrFail(fs, fmt.Sprintf("%d example URL(s)", len(urls)))
}

// lintGetActionJsOnlyDiscovery checks the rule get_action_js_only_discovery (STANDARD.md §12).
func lintGetActionJsOnlyDiscovery(g *guidance) (Verdict, []LintFinding, string) {
	if g.jsOnly && !g.discovery {
		return Fail, []LintFinding{{Document: g.home, Field: "body", Message: "the home page is an empty JavaScript shell and no llms.txt, sitemap or agents.json can be read with a plain GET"}}, ""
	}
	return Pass, nil, fmt.Sprintf("content in initial HTML: %t; GET-readable discovery: %t", !g.jsOnly, g.discovery)
}

// lintLlmsMinimalInstructionRequired checks the rule llms_minimal_instruction_required (STANDARD.md §12).
func lintLlmsMinimalInstructionRequired(g *guidance) (Verdict, []LintFinding, string) {
	if !g.llmsFound {
		return na("no llms.txt")
	}
	f := llmstxt.Inspect(g.llmsBody)
	if f.HasInstructions {
		return Pass, nil, "llms.txt carries direct instructions"
	}
	return Fail, []LintFinding{{Document: "/llms.txt", Line: 1, Excerpt: f.H1, Message: "llms.txt only points to specs or pages and gives no direct minimal instructions"}}, ""
}

// lintRetryLoopNoOpViolation checks the rule retry_loop_no_op_violation (STANDARD.md §12).
func lintRetryLoopNoOpViolation(g *guidance) (Verdict, []LintFinding, string) {
	if len(g.texts) == 0 {
		return na("no guidance (llms.txt, agents.json)")
	}
	var fs []LintFinding
	for _, t := range g.all(retryRe) {
		fs = append(fs, t.finding("tells agents to keep retrying or guessing"))
	}
	return passOrFail(fs, "")
}

// lintPostEquivalentRecommended checks the rule post_equivalent_recommended (STANDARD.md §12).
func lintPostEquivalentRecommended(g *guidance) (Verdict, []LintFinding, string) {
	acts := g.getActions()
	if len(acts) == 0 {
		return na("no GET action")
	}
	if g.hasPostOps() {
		return Pass, nil, "the OpenAPI document has writing operations"
	}
	return Fail, []LintFinding{acts[0].finding("GET action without a POST or OpenAPI equivalent")}, ""
}

// lintGetActionSecurityOrderWarning checks the rule get_action_security_order_warning (STANDARD.md §12).
func lintGetActionSecurityOrderWarning(g *guidance) (Verdict, []LintFinding, string) {
	var firstEx, firstSafe *gText
	for i, t := range g.texts {
		if t.doc != "/llms.txt" {
			continue
		}
		if firstEx == nil && exampleRe.MatchString(t.text) {
			firstEx = &g.texts[i]
		}
		if firstSafe == nil && safetyRe.MatchString(t.text) {
			firstSafe = &g.texts[i]
		}
	}
	if firstEx == nil {
		return na("no example in llms.txt")
	}
	if firstSafe != nil && firstSafe.line < firstEx.line {
		return Pass, nil, fmt.Sprintf("safety line %d before example line %d", firstSafe.line, firstEx.line)
	}
	return Fail, []LintFinding{firstEx.finding("an example appears before any consent or safety limit")}, ""
}

// lintSideEffectingGetDiscoveryWarning checks the rule side_effecting_get_discovery_warning (STANDARD.md §12).
func lintSideEffectingGetDiscoveryWarning(g *guidance) (Verdict, []LintFinding, string) {
	acts := g.getActions()
	if len(acts) == 0 {
		return na("no side-effecting GET link")
	}
	var fs []LintFinding
	for _, a := range acts {
		fs = append(fs, a.finding("a GET link that changes state is offered as discovery"))
	}
	return Fail, fs, ""
}

// lintBrowserFormFallbackRequired checks the rule browser_form_fallback_required (STANDARD.md §12).
func lintBrowserFormFallbackRequired(g *guidance) (Verdict, []LintFinding, string) {
	posts := g.all(postRe)
	if len(posts) == 0 && len(g.writingForms()) == 0 {
		return na("no POST instruction")
	}
	if len(g.forms) > 0 || g.mentions(openRe) {
		return Pass, nil, fmt.Sprintf("%d visible form(s)", len(g.forms))
	}
	return Fail, []LintFinding{posts[0].finding("POST instruction without a visible form or a page to open in a browser")}, ""
}

// lintRestoreReadbackRequired checks the rule restore_readback_required (STANDARD.md §12).
func lintRestoreReadbackRequired(g *guidance) (Verdict, []LintFinding, string) {
	// Instructions only: llms.txt lines that are not entries of a link
	// list (a link's note describes a page, it does not instruct).
	var creates []gText
	for _, t := range g.all(createRe) {
		if t.doc == "/llms.txt" && !linkItemRe.MatchString(t.text) {
			creates = append(creates, t)
		}
	}
	if len(creates) == 0 {
		return na("no create or update instruction")
	}
	if g.mentions(readbackRe) {
		return Pass, nil, "a read-back or restore URL is named"
	}
	return Fail, []LintFinding{creates[0].finding("create/update instruction without a restore or read-back URL")}, ""
}

// lintDashboardDefaultPathWarning checks the rule dashboard_default_path_warning (STANDARD.md §12).
func lintDashboardDefaultPathWarning(g *guidance) (Verdict, []LintFinding, string) {
	ds := g.all(dashboardRe)
	if len(ds) == 0 {
		return na("no dashboard or custom-template path")
	}
	if !g.llmsFound && g.card == nil {
		return Pass, nil, "no generated profile path exists"
	}
	return Fail, []LintFinding{ds[0].finding("a dashboard or custom-template path is presented as the default while generated paths exist")}, ""
}

// lintHighestLowestPathRequired checks the rule highest_lowest_path_required (STANDARD.md §12).
func lintHighestLowestPathRequired(g *guidance) (Verdict, []LintFinding, string) {
	var routes []struct {
		field string
		o     map[string]any
	}
	for _, key := range []string{"routes", "interfaces"} {
		arr, _ := g.card[key].([]any)
		for i, e := range arr {
			if o, ok := e.(map[string]any); ok && (key == "routes" || str(o, "url") != "") {
				routes = append(routes, struct {
					field string
					o     map[string]any
				}{fmt.Sprintf("%s[%d]", key, i), o})
			}
		}
	}
	if len(routes) == 0 {
		return na("no route or interface with an address in agents.json")
	}
	var fs []LintFinding
	for _, r := range routes {
		var lack []string
		if r.o["highestSupportedPath"] == nil && r.o["highest_supported_path"] == nil {
			lack = append(lack, "highest_supported_path")
		}
		if r.o["lowestSafeFallback"] == nil && r.o["lowest_safe_fallback"] == nil {
			lack = append(lack, "lowest_safe_fallback")
		}
		if len(lack) > 0 {
			fs = append(fs, LintFinding{Document: g.cardDoc, Field: r.field, Excerpt: str(r.o, "url"), Message: "omits " + strings.Join(lack, " and ")})
		}
	}
	return passOrFail(fs, fmt.Sprintf("%d route(s)", len(routes)))
}

// lintPostBlockedFallbackRequired checks the rule post_blocked_fallback_required (STANDARD.md §12).
func lintPostBlockedFallbackRequired(g *guidance) (Verdict, []LintFinding, string) {
	posts := g.all(postRe)
	if len(posts) == 0 && !g.hasPostOps() {
		return na("no POST path")
	}
	if g.mentions(postFallRe) {
		return Pass, nil, ""
	}
	f := LintFinding{Document: "/openapi.json", Message: "POST path without a fallback for agents that cannot send JSON POST"}
	if len(posts) > 0 {
		f = posts[0].finding(f.Message)
	}
	return Fail, []LintFinding{f}, ""
}

// lintLiveGetBlockedFallbackRequired checks the rule live_get_blocked_fallback_required (STANDARD.md §12).
func lintLiveGetBlockedFallbackRequired(g *guidance) (Verdict, []LintFinding, string) {
	var lives []gText
	for _, t := range g.all(liveGetRe) {
		if t.doc == "/llms.txt" {
			lives = append(lives, t)
		}
	}
	if len(lives) == 0 {
		return na("no live-GET guidance in llms.txt")
	}
	if g.mentions(liveFallRe) {
		return Pass, nil, ""
	}
	return Fail, []LintFinding{lives[0].finding("live-GET guidance without a fallback for index-only fetchers")}, ""
}

// lintMcpUnavailableFallbackRequired checks the rule mcp_unavailable_fallback_required (STANDARD.md §12).
func lintMcpUnavailableFallbackRequired(g *guidance) (Verdict, []LintFinding, string) {
	if !g.mcp {
		return na("MCP is not referenced")
	}
	if g.mentions(mcpFallRe) {
		return Pass, nil, ""
	}
	f := LintFinding{Document: g.cardDoc, Field: "interfaces", Message: "MCP is referenced without a fallback for when it is unavailable"}
	if t := g.first(regexp.MustCompile(`(?i)\bmcp\b`)); t != nil {
		f = t.finding(f.Message)
	}
	return Fail, []LintFinding{f}, ""
}

// lintAuthUnavailableFallbackRequired checks the rule auth_unavailable_fallback_required (STANDARD.md §12).
func lintAuthUnavailableFallbackRequired(g *guidance) (Verdict, []LintFinding, string) {
	if !g.authNeed {
		return na("no capability needs a token")
	}
	if g.mentions(authFallRe) || g.contactStated() != nil {
		return Pass, nil, ""
	}
	f := LintFinding{Document: g.cardDoc, Field: "authentication", Message: "an authenticated capability without an unauthenticated fallback or public review URL"}
	if t := g.first(authRe); t != nil {
		f = t.finding(f.Message)
	}
	return Fail, []LintFinding{f}, ""
}

// lintToolUnavailableFallbackRequired checks the rule tool_unavailable_fallback_required (STANDARD.md §12).
func lintToolUnavailableFallbackRequired(g *guidance) (Verdict, []LintFinding, string) {
	annotated := 0
	for _, f := range g.forms {
		if f.form.Annotated() {
			annotated++
		}
	}
	if !g.mcp && annotated == 0 && !g.mentions(toolRe) {
		return na("no tool is referenced")
	}
	if g.mentions(toolFallRe) {
		return Pass, nil, ""
	}
	f := LintFinding{Document: g.home, Field: "form[toolname]", Message: "tools are offered without a fallback for when a tool is unavailable"}
	if t := g.first(toolRe); t != nil {
		f = t.finding(f.Message)
	}
	return Fail, []LintFinding{f}, ""
}

// lintHumanReviewUrlRequired checks the rule human_review_url_required (STANDARD.md §12).
func lintHumanReviewUrlRequired(g *guidance) (Verdict, []LintFinding, string) {
	if !g.offered && len(g.writingForms()) == 0 && len(g.forms) == 0 {
		return na("no action that can block")
	}
	if t := g.contactStated(); t != nil {
		return Pass, nil, "human review at " + t.text
	}
	return Fail, []LintFinding{{Document: "/llms.txt", Message: "actions can block, and no public human-review URL (contact page, mailto) is stated"}}, ""
}

// lintNoOpBehaviorRequired checks the rule no_op_behavior_required (STANDARD.md §12).
func lintNoOpBehaviorRequired(g *guidance) (Verdict, []LintFinding, string) {
	if len(g.texts) == 0 {
		return na("no guidance (llms.txt, agents.json)")
	}
	if g.mentions(noOpRe) {
		return Pass, nil, ""
	}
	return Fail, []LintFinding{{Document: "/llms.txt", Message: "nothing tells an agent to stop safely when a capability is unsupported"}}, ""
}

// levelNames name the executability ladder (STANDARD.md §12).
var levelNames = []string{
	"L0 read-only route discovery", "L1 manifest/schema discovery", "L2 browser open and form submit",
	"L3 structured HTTP JSON POST", "L4 authenticated owned mutation", "L5 restore/read-back verification",
	"L6 multi-agent hand-off and reporting", "L7 site-specific capability negotiation",
}

// ladder finds the highest level whose guidance (and every level's below)
// holds.
func ladder(g *guidance, lr *LintReport) (int, string, string) {
	ok := func(ids ...string) (bool, string) {
		for _, id := range ids {
			if r := lr.lintByID(id); r != nil && (r.Verdict == Fail || r.Verdict == CouldNotCheck) {
				return false, id + " " + strings.ToLower(string(r.Verdict))
			}
		}
		return true, ""
	}
	steps := []func() (bool, string){
		func() (bool, string) { // L0
			if !g.discovery {
				return false, "no llms.txt, sitemap or agents.json names the next public URL"
			}
			return ok("get_action_js_only_discovery", "llms_minimal_instruction_required", "get_action_query_secret", "retry_loop_no_op_violation")
		},
		func() (bool, string) { // L1
			if g.card == nil {
				return false, "no agents.json names the machine records, limits and unsupported actions"
			}
			return ok("get_action_fallback_required", "highest_lowest_path_required", "side_effecting_get_discovery_warning")
		},
		func() (bool, string) { // L2
			if len(g.forms) == 0 {
				return false, "no visible form or browser-opened flow for writes"
			}
			return ok("browser_form_fallback_required", "get_action_idempotency_required")
		},
		func() (bool, string) { // L3
			if !g.hasPostOps() {
				return false, "no structured JSON POST operation described (OpenAPI)"
			}
			return ok("post_blocked_fallback_required", "restore_readback_required", "post_equivalent_recommended")
		},
		func() (bool, string) { // L4
			if !g.authNeed {
				return false, "no authenticated mutation is described"
			}
			return ok("auth_unavailable_fallback_required", "get_action_idempotency_required")
		},
		func() (bool, string) { // L5
			if r := lr.lintByID("restore_readback_required"); r == nil || r.Verdict != Pass {
				return false, "no restore/read-back route is named"
			}
			return true, ""
		},
		func() (bool, string) { // L6
			if r := lr.lintByID("human_review_url_required"); r == nil || r.Verdict != Pass {
				return false, "no human-review URL for hand-off"
			}
			return ok("no_op_behavior_required", "get_action_security_order_warning")
		},
		func() (bool, string) { // L7
			return ok("mcp_unavailable_fallback_required", "tool_unavailable_fallback_required", "live_get_blocked_fallback_required", "auth_unavailable_fallback_required", "dashboard_default_path_warning")
		},
	}
	level := -1
	for i, step := range steps {
		if good, why := step(); !good {
			name := "none"
			if level >= 0 {
				name = levelNames[level]
			}
			return level, name, levelNames[i] + " not reached: " + why
		}
		level = i
	}
	return level, levelNames[level], "every level's guidance holds"
}
