package selfcheck

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/agentready/caddy-agentready/selfcheck/internal/parse"
)

// Effort is how much work a fix takes: 1 a site.yaml change the module
// turns into documents, 2 a change to the site's HTML or headers, 3 work on
// the service itself.
type Effort int

// The three efforts.
const (
	EffortConfig Effort = 1
	EffortMarkup Effort = 2
	EffortServer Effort = 3
)

// PlanItem is one fix of the fix-first plan.
type PlanItem struct {
	// Rank is the item's place, from 1.
	Rank int `json:"rank"`
	// Lens is "score", "checkpoint" or "lint".
	Lens string `json:"lens"`
	// ID is the check, checkpoint or lint rule it fixes.
	ID string `json:"id"`
	// Verdict is its verdict now.
	Verdict Verdict `json:"verdict"`
	// Points are the score points the fix recovers (0 outside the score).
	Points float64 `json:"points"`
	// Effort is 1 (site.yaml), 2 (HTML or header) or 3 (server work).
	Effort Effort `json:"effort"`
	// Change names the exact change.
	Change string `json:"change"`
	// SiteYAML is the site.yaml lines to merge when the module can
	// generate the fix (valid YAML on its own).
	SiteYAML string `json:"site_yaml,omitempty"`
	// Verify is the command that rescans just this one.
	Verify string `json:"verify"`
}

// scoreFix is how a scored check is fixed.
type scoreFix struct {
	effort Effort
	change string
	yaml   string
}

// FixSnippets returns the site.yaml snippet of every scored check the
// module can fix by configuration (the manifest tests apply each one and
// rescan to PASS).
func FixSnippets() map[string]string {
	out := map[string]string{}
	for id, f := range scoreFixes {
		if f.yaml != "" {
			out[id] = f.yaml
		}
	}
	return out
}

// scoreFixes are the fixes of the scored checks.
var scoreFixes = map[string]scoreFix{
	"sitemap":                       {EffortConfig, "Let agent_ready serve a sitemap (it does when the origin has none), listing your pages.", "site:\n  pages:\n    - /\n"},
	"llms_txt":                      {EffortConfig, "Let agent_ready write /llms.txt with plain instructions for agents.", "llms:\n  instructions: >-\n    Read the pages listed below; request any page with Accept: text/markdown.\n"},
	"capability_manifest":           {EffortConfig, "Publish agents.json (interfaces, authentication, contact) at both addresses.", "documents:\n  agents_json: generate\nauthentication:\n  type: none\n  note: everything is public and read-only\ncontacts:\n  email: hello@example.com\n"},
	"crawler_policy":                {EffortConfig, "Let AI search and user-initiated agents in (training may stay refused).", "policy:\n  training: disallow\n  search: allow\n  user: allow\n"},
	"discovery_links":               {EffortMarkup, "Send Link headers to /llms.txt (rel=\"describedby\") and /agents.json (rel=\"alternate\") on the home page (agent_ready adds them in front of the site).", ""},
	"language_declared":             {EffortConfig, "Declare the page language: <html lang=\"en\"> (agent_ready injects it where missing).", "site:\n  language: en\n"},
	"canonical_declared":            {EffortConfig, "These pages have no canonical link: agent_ready injects <link rel=\"canonical\"> with the page's own URL where a page has none (inject.canonical, on unless set to false), so put agent_ready in front of them or add the link to the template.", "inject:\n  canonical: true\n"},
	"structured_identity":           {EffortConfig, "Publish Organization JSON-LD with name and url (agent_ready injects it).", "site:\n  organization:\n    type: Organization\n    name: Example Co\n"},
	"structured_freshness":          {EffortMarkup, "Give Article/WebPage/Product JSON-LD a dateModified.", ""},
	"content_in_initial_html":       {EffortServer, "Render the page's text on the server (not only with JavaScript) and wrap it in <main>.", ""},
	"markdown_representation":       {EffortConfig, "Nothing on the site negotiates (no Vary: Accept, no Markdown alternate): put agent_ready in front of the site; it answers Accept: text/markdown with Markdown.", ""},
	"vary_accept":                   {EffortMarkup, "Send Vary: Accept on both the HTML and the Markdown (agent_ready does).", ""},
	"markdown_front_matter":         {EffortConfig, "Serve the Markdown with front matter (title, canonical, updated, language) — agent_ready writes it; set the language, and let the origin send Last-Modified (or dateModified in the page's JSON-LD): updated is taken from there, never invented.", "site:\n  language: en\n"},
	"markdown_alternate_advertised": {EffortMarkup, "Advertise the Markdown: Link: </page/md>; rel=\"alternate\"; type=\"text/markdown\" and the same <link> in the head (agent_ready adds both).", ""},
	"browser_gets_html":             {EffortServer, "Answer browsers' Accept headers and */* with HTML.", ""},
	"web_actions_declared":          {EffortConfig, "Declare each form as a WebMCP tool: toolname and tooldescription on the <form>.", ""},
	"tool_form_quality":             {EffortConfig, "Use snake_case toolnames, descriptions of 10+ characters, labels and toolparamdescription on every field.", ""},
	"surface_coverage":              {EffortConfig, "Annotate at least half the visible forms and search inputs.", ""},
	"tools_permissions_policy":      {EffortMarkup, "Remove the Permissions-Policy entry that disables tools, or allow self.", ""},
	"backend_interface_declared":    {EffortConfig, "Declare only interfaces that answer; serve a live MCP endpoint (the module's connect) or your real OpenAPI document.", "connect:\n  enabled: true\n"},
	"mcp_transport":                 {EffortConfig, "Serve MCP over streamable HTTP on your origin (the module's connect does).", "connect:\n  enabled: true\n"},
	"access_documented":             {EffortConfig, "State which capabilities need a token and which do not (agents.json authentication).", "authentication:\n  type: none\n  note: everything is public and read-only\n"},
	"signin_discovery":              {EffortServer, "Publish OAuth metadata (RFC 8414 / RFC 9728) announcing PKCE S256.", ""},
	"openapi_quality":               {EffortServer, "Give every operation an operationId, a summary or description, typed parameters, a 2xx schema and an error model; answer unknown API paths 404 with a JSON problem body.", ""},
	"human_handoff":                 {EffortConfig, "Name a person to reach: a contact page or an email.", "contacts:\n  email: hello@example.com\n  page: /contact\n"},
	"access_policy_declared":        {EffortConfig, "State who may do what (authentication) and a usage policy.", "authentication:\n  type: none\n  note: everything is public and read-only\npolicy:\n  training: disallow\n  search: allow\n  user: allow\n"},
	"security_contact":              {EffortConfig, "Publish /.well-known/security.txt with Contact and a future Expires.", "contacts:\n  security:\n    contact: [security@example.com]\n    expires_days: 180\n"},
}

// placeholderWebMCP is the WebMCP snippet of a check whose page gave no
// form to take values from: its tooldescription is the placeholder that
// `caddy validate` rejects and tool_form_quality FAILs until it is edited.
const placeholderWebMCP = "webmcp:\n  forms:\n    - selector: \"form\"\n      toolname: submit_form\n      tooldescription: " + PlaceholderToolDescription + "\n"

// causeFixes are the fixes of one cause of one check ("check/cause"), where
// the cause calls for another change than the check's default fix in
// scoreFixes: the advice follows what the receipt recorded, not the check.
var causeFixes = map[string]scoreFix{
	"language_declared/" + CauseLangMalformed: {EffortMarkup, "The page's <html lang> is not a BCP 47 tag: change it in the template to the page's language (lang=\"en\", \"pt-BR\"…); agent_ready only fills in a missing lang, it never rewrites one.", ""},

	"canonical_declared/" + CauseCanonicalOffOrigin: {EffortMarkup, "The page's own <link rel=\"canonical\"> points off the site (another host, or a file:// URL from a static-site build): change it in the template (or the generator's base URL setting) to the page's URL on this origin. agent_ready only fills in a missing canonical, so inject.canonical does not help here.", ""},
	"canonical_declared/" + CauseCanonicalRelative:  {EffortMarkup, "The page's canonical is a relative URL: write it absolute, with scheme and host (the generator's base URL setting).", ""},
	"canonical_declared/" + CauseCanonicalBad:       {EffortMarkup, "The page's canonical href is empty or does not parse: write the page's absolute URL in it, or remove the tag and let agent_ready inject one.", ""},

	"structured_identity/" + CauseJSONLDBroken: {EffortMarkup, "A JSON-LD block on the page does not parse: fix its JSON (a trailing comma, an unescaped quote) or remove it.", ""},

	"content_in_initial_html/" + CauseNoMain: {EffortMarkup, "Wrap the page's content in <main> (or role=\"main\"), so agents and the Markdown conversion find it.", ""},

	"markdown_representation/" + CauseMarkdownTooLarge:  {EffortConfig, "agent_ready is in front (the answer carries its Vary: Accept and Link headers) but the page is over max_size, so it passed through as HTML (its log says \"markdown conversion failed open\" with reason too_large, and fail_open_total{reason=\"too_large\"} counts it): raise max_size above the page's size in the Caddyfile, agent_ready { max_size 8MiB }, or split the page.", ""},
	"markdown_representation/" + CauseMarkdownDeclined:  {EffortServer, "agent_ready is in front (the answer carries its Vary: Accept and Link headers) but sent HTML: its log line \"markdown conversion failed open\" for this URL names the reason (decode, charset, convert, no_content, budget_size); fix that at the origin, or raise max_markdown_size for budget_size.", ""},
	"markdown_representation/" + CauseMarkdownCharset:   {EffortMarkup, "Send the Markdown as Content-Type: text/markdown; charset=utf-8.", ""},
	"markdown_representation/" + CauseMarkdownTieToHTML: {EffortServer, "Give a tie between text/markdown and text/html (Accept: text/markdown, text/html, */*, as Claude Code sends) to Markdown, as agent_ready does.", ""},

	"markdown_front_matter/" + CauseNoMarkdown:               {EffortConfig, "No Markdown answer to carry front matter: see markdown_representation.", ""},
	"markdown_front_matter/" + CauseMarkdownTooLarge:         {EffortConfig, "The page passed through as HTML for its size: see markdown_representation (raise max_size).", ""},
	"markdown_front_matter/" + CauseMarkdownDeclined:         {EffortServer, "The page passed through as HTML: see markdown_representation.", ""},
	"markdown_front_matter/" + CauseFrontMatterMissing:       {EffortConfig, "Serve the Markdown with front matter (title, canonical, updated, language): put agent_ready in front, it writes it.", ""},
	"markdown_front_matter/front_matter_no_title":            {EffortMarkup, "Give the page a <title>: the front matter's title comes from it.", ""},
	"markdown_front_matter/front_matter_no_canonical":        {EffortMarkup, "Give the page a canonical link on this origin: the front matter's canonical comes from it.", ""},
	"markdown_front_matter/" + CauseFrontMatterCanonical:     {EffortMarkup, "The front matter's canonical is not the page's own URL: fix the page's <link rel=\"canonical\"> (see canonical_declared), or set site.origin to the public origin.", ""},
	"markdown_front_matter/front_matter_no_updated":          {EffortMarkup, "Let the origin send Last-Modified, or give the page's JSON-LD a dateModified: the front matter's updated comes from there, never invented.", ""},
	"markdown_front_matter/front_matter_no_language":         {EffortConfig, "Declare the site's language: the front matter's language comes from <html lang> or site.language.", "site:\n  language: en\n"},
	"web_actions_declared/" + CauseToolHyphenated:            {EffortMarkup, "Use the toolname and tooldescription attributes (not tool-name) on the <form>, or register the tool with document.modelContext.registerTool().", ""},
	"tool_form_quality/" + CausePlaceholderDescription:       {EffortConfig, "A form's tooldescription is still the snippet's placeholder: replace it with a sentence saying what the form does and what it returns.", ""},
	"sitemap/" + CauseSitemapInvalid:                         {EffortMarkup, "The origin's /sitemap.xml is not a sitemap with locs (an HTML page, malformed XML, an empty urlset): fix the generator's output, or remove the file so agent_ready serves its own.", ""},
	"sitemap/" + CauseSitemapForeign:                         {EffortMarkup, "Sitemap locs point off this origin: set the sitemap generator's base URL to this site's address (agent_ready's own sitemap uses site.origin).", ""},
	"capability_manifest/" + CauseManifestInvalid:            {EffortMarkup, "The origin's agents.json does not parse as a JSON object: fix it, or remove it so agent_ready serves the one it generates.", ""},
	"capability_manifest/" + CauseManifestTwins:              {EffortConfig, "/.well-known/agents.json and /agents.json differ: serve one document at both (agent_ready does; remove the origin's stale copy).", ""},
	"crawler_policy/" + CauseRobotsBlocks:                    {EffortMarkup, "robots.txt disallows AI search or user agents on the scanned pages (the receipt names them): remove those Disallow lines from the origin's robots.txt; agent_ready's policy only adds groups, it never lifts the origin's own.", ""},
	"security_contact/" + CauseSecurityTxtIncomplete:         {EffortConfig, "security.txt lacks a Contact or its Expires has passed: let agent_ready write it (a future Expires every time it starts), or update the origin's copy.", "contacts:\n  security:\n    contact: [security@example.com]\n    expires_days: 180\n"},
	"backend_interface_declared/" + CauseInterfaceUnresolved: {EffortMarkup, "agents.json names interface documents that do not answer (the receipt names them): fix their URLs or remove them from the card.", ""},
	"backend_interface_declared/" + CauseSwagger2:            {EffortServer, "Describe the API with OpenAPI 3.x (convert the Swagger 2.0 document).", ""},
	"backend_interface_declared/" + CauseMCPNeedsToken:       {EffortServer, "Let the MCP endpoint answer initialize and tools/list without a token (ask for one only on tools/call).", ""},
	"backend_interface_declared/" + CauseMCPNotAnswering:     {EffortServer, "The declared MCP endpoint does not answer initialize: fix the URL in agents.json, or serve it (connect: enabled: true serves one).", "connect:\n  enabled: true\n"},
	"tool_form_quality/" + CauseDuplicateToolName:            {EffortConfig, "Two forms on the page share one toolname: give each form its own (an agent calls a tool by its name).", ""},
}

// adviceFor returns the fix of a check that did not pass: the fix of the
// cause its receipt records, else the check's own; a WebMCP snippet is the
// one built from the page's forms when the scan found them, else the
// placeholder.
func adviceFor(c CheckResult) scoreFix {
	f, ok := causeFixes[c.ID+"/"+c.Receipt.Cause]
	if !ok {
		f, ok = scoreFixes[c.ID]
	}
	if !ok {
		f = scoreFix{effort: EffortServer, change: c.Missing}
	}
	switch c.ID {
	case "web_actions_declared", "tool_form_quality", "surface_coverage":
		if c.Receipt.Cause == CauseDuplicateToolName || c.Receipt.Cause == CauseToolHyphenated {
			break
		}
		f.yaml = c.fix
		if f.yaml == "" {
			f.yaml = placeholderWebMCP
		}
	}
	return f
}

// strengthRank orders checkpoint strengths for the plan.
var strengthRank = map[Strength]int{Must: 0, Should: 2, May: 4}

// planMaxItems bounds the plan; the full lenses follow it in the report.
const planMaxItems = 25

// plan ranks the fixes: scored checks by score points recovered per unit
// of effort, then MUST checkpoints, lint failures, SHOULD checkpoints,
// lint warnings, MAY checkpoints.
func (r *Report) plan() []PlanItem {
	type ranked struct {
		item PlanItem
		tier int
		per  float64
	}
	var all []ranked
	verify := func(id string) string { return fmt.Sprintf("caddy agent-ready scan %s --check %s", r.Target, id) }
	for _, c := range r.Checks {
		if c.Weight == 0 || (c.Verdict != Fail && c.Verdict != Partial) {
			continue
		}
		f := adviceFor(c)
		pts := 0.0
		if r.Applicable > 0 {
			pts = round2(100 * (c.Weight - c.Earned) / r.Applicable)
		}
		change := f.change
		if c.Missing != "" {
			change += " Missing: " + c.Missing
		}
		all = append(all, ranked{PlanItem{Lens: "score", ID: c.ID, Verdict: c.Verdict, Points: pts, Effort: f.effort, Change: change, SiteYAML: f.yaml, Verify: verify(c.ID)}, -1, pts / float64(f.effort)})
	}
	for _, c := range r.Checkpoints {
		if c.Verdict != Fail && c.Verdict != Partial {
			continue
		}
		all = append(all, ranked{PlanItem{Lens: "checkpoint", ID: c.ID, Verdict: c.Verdict, Effort: EffortMarkup, Change: c.Fix + " Missing: " + c.Missing, Verify: verify(c.ID)}, strengthRank[c.Strength], 0})
	}
	if r.Lint != nil {
		for _, l := range r.Lint.Rules {
			if l.Verdict != Fail {
				continue
			}
			tier := 1
			if l.Kind == LintWarning {
				tier = 3
			}
			change := l.Fix
			if len(l.Findings) > 0 {
				f := l.Findings[0]
				where := f.Document
				if f.Line > 0 {
					where += fmt.Sprintf(":%d", f.Line)
				}
				if f.Field != "" {
					where += " " + f.Field
				}
				change += " (" + where + ": " + f.Message + ")"
			}
			all = append(all, ranked{PlanItem{Lens: "lint", ID: l.ID, Verdict: l.Verdict, Effort: EffortMarkup, Change: change, Verify: verify(l.ID)}, tier, 0})
		}
	}
	slices.SortStableFunc(all, func(a, b ranked) int {
		if c := cmp.Compare(a.tier, b.tier); c != 0 {
			return c
		}
		if c := cmp.Compare(b.per, a.per); c != 0 {
			return c
		}
		return cmp.Compare(a.item.Effort, b.item.Effort)
	})
	out := []PlanItem{}
	for i, a := range all {
		if i == planMaxItems {
			break
		}
		a.item.Rank = i + 1
		out = append(out, a.item)
	}
	return out
}

// The causes a check records in its receipt (Receipt.Cause) when it does not
// pass. Each is stable API: the fix-first plan picks its advice by cause
// (adviceFor), and docs/standard.md lists them under their check.
const (
	CauseLangMissing            = "lang_missing"
	CauseLangMalformed          = "lang_malformed"
	CauseCanonicalMissing       = "canonical_missing"
	CauseCanonicalBad           = "canonical_unparsable"
	CauseCanonicalRelative      = "canonical_relative"
	CauseCanonicalOffOrigin     = "canonical_off_origin"
	CauseIdentityMissing        = "identity_missing"
	CauseJSONLDBroken           = "jsonld_broken"
	CauseDateModifiedMissing    = "date_modified_missing"
	CauseAppShell               = "app_shell"
	CauseNoMain                 = "main_missing"
	CauseNoMarkdown             = "markdown_missing"
	CauseMarkdownTooLarge       = "markdown_too_large"
	CauseMarkdownDeclined       = "markdown_declined"
	CauseMarkdownCharset        = "markdown_charset"
	CauseMarkdownTieToHTML      = "markdown_tie_to_html"
	CauseVaryMissing            = "vary_missing"
	CauseFrontMatterMissing     = "front_matter_missing"
	CauseFrontMatterCanonical   = "front_matter_canonical"
	CauseAlternateMissing       = "alternate_missing"
	CauseBrowserNotHTML         = "browser_not_html"
	CauseFormsUnannotated       = "forms_unannotated"
	CauseToolDescriptionMissing = "tooldescription_missing"
	CauseToolHyphenated         = "tool_hyphenated"
	CausePlaceholderDescription = "placeholder_description"
	CauseDuplicateToolName      = "duplicate_toolname"
	CauseFormCriteria           = "form_criteria"
	CauseCoverageLow            = "coverage_low"
	CauseToolsDisabled          = "tools_disabled"
	CauseSitemapMissing         = "sitemap_missing"
	CauseSitemapInvalid         = "sitemap_invalid"
	CauseSitemapForeign         = "sitemap_foreign_locs"
	CauseLLMsMissing            = "llms_txt_missing"
	CauseLLMsIncomplete         = "llms_txt_incomplete"
	CauseManifestMissing        = "agents_json_missing"
	CauseManifestInvalid        = "agents_json_invalid"
	CauseManifestIncomplete     = "agents_json_incomplete"
	CauseManifestTwins          = "agents_json_twins_differ"
	CauseRobotsBlocks           = "robots_blocks_agents"
	CauseDiscoveryLinksMissing  = "discovery_links_missing"
	CauseSecurityTxtMissing     = "security_txt_missing"
	CauseSecurityTxtIncomplete  = "security_txt_incomplete"
	CauseNoHuman                = "no_human_contact"
	CauseInterfaceUnresolved    = "interface_unresolved"
	CauseInterfaceMissing       = "interface_missing"
	CauseSwagger2               = "swagger_2"
	CauseMCPNeedsToken          = "mcp_needs_token"
	CauseMCPNotAnswering        = "mcp_not_answering"
)

// PlaceholderToolDescription is the tooldescription a fix snippet carries
// when the page gives nothing to describe its form with. It must be edited:
// a form annotated with it FAILs tool_form_quality, and the module's
// `caddy validate` rejects a site.yaml that still holds it (manifest keeps
// the same text; a manifest test asserts the two are equal).
const PlaceholderToolDescription = "Describe in a sentence what this form does."

// isPlaceholder reports a tooldescription that is a fix snippet's
// placeholder.
func isPlaceholder(desc string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(desc), " "), PlaceholderToolDescription)
}

// likelyMaxSize is agent_ready's default max_size (2 MiB): an HTML answer to
// a Markdown request this large, from a site that negotiates (it sends Vary:
// Accept or advertises the Markdown alternate), was most likely passed
// through for its size.
const likelyMaxSize = 2 << 20

// whyNoMarkdown judges a route whose Markdown request got no Markdown: no
// sign of negotiation at all, or a site that negotiates (Vary: Accept, a
// Markdown alternate link) and still sent HTML, for the page's size or
// another failure.
func whyNoMarkdown(md *response, got string) routeOutcome {
	base, _ := url.Parse(md.req.url)
	negotiates := varyHasAccept(md) || hasMarkdownAlternate(parse.LinkHeader(md.header.Values("Link"), base))
	size := int64(len(md.body))
	if n, err := strconv.ParseInt(md.header.Get("Content-Length"), 10, 64); err == nil && n > size {
		size = n
	}
	switch {
	case negotiates && size > likelyMaxSize:
		return routeFraction(0, got, fmt.Sprintf("a text/markdown answer: the page is %s, over agent_ready's max_size (2MiB by default), so it passed through as HTML", humanBytes(size))).because(CauseMarkdownTooLarge)
	case negotiates:
		return routeFraction(0, got, "a text/markdown answer: the site negotiates (Vary: Accept, Markdown alternate) but sent HTML").because(CauseMarkdownDeclined)
	}
	return routeFraction(0, got, "a text/markdown answer").because(CauseNoMarkdown)
}

// humanBytes prints a size as MB with two decimals, or bytes below 1 MB.
func humanBytes(n int64) string {
	if n >= 1_000_000 {
		return fmt.Sprintf("%.2f MB (%d bytes)", float64(n)/1e6, n)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ownURL is the canonical a page should declare: its own URL on the site's
// origin.
func ownURL(page string, origin *url.URL) string {
	u, err := url.Parse(page)
	if err != nil {
		return origin.String() + "/"
	}
	u.Scheme, u.Host, u.Fragment = origin.Scheme, origin.Host, ""
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String()
}

// webmcpSnippet writes the site.yaml webmcp block that annotates the page's
// unannotated visible forms with the page's own values: the selector by the
// form's id or action, the toolname from the id or the action's last path
// segment (else its heading), a tooldescription from the heading before the
// form (or its aria-label) naming the fields, by their labels, it sends
// where, and a param line per named field described by its label. Empty when the page has no such form.
func webmcpSnippet(forms []parse.Form) string {
	var b strings.Builder
	used := map[string]bool{}
	for _, f := range forms {
		if f.Annotated() && !isPlaceholder(f.ToolDescription) {
			used[f.ToolName] = true
		}
	}
	n := 0
	for _, f := range forms {
		if f.Annotated() && !isPlaceholder(f.ToolDescription) {
			continue
		}
		sel, name, path := formSelector(f)
		if snakeCase.MatchString(f.ToolName) {
			name = f.ToolName // the page's own name, only its description to fix
		}
		base := name
		for i := 2; used[name]; i++ {
			name = fmt.Sprintf("%s_%d", base, i)
		}
		used[name] = true
		var fields []string
		labels := map[string]string{}
		for _, fld := range f.Fields {
			if fld.Name != "" && !slices.Contains(fields, fld.Name) {
				fields = append(fields, fld.Name)
				labels[fld.Name] = fld.Label
			}
		}
		what := strings.Join(fields, ", ")
		if len(fields) > 0 {
			named := make([]string, len(fields))
			for i, fld := range fields {
				named[i] = cmp.Or(labels[fld], fld)
			}
			what = strings.Join(named, ", ")
		}
		desc := fmt.Sprintf("Sends %s to %s (%s).", cmp.Or(what, "the form"), cmp.Or(path, "this page"), strings.ToUpper(f.Method))
		if f.Heading != "" {
			desc = fmt.Sprintf("%s: sends %s to %s.", strings.TrimRight(f.Heading, ".:"), cmp.Or(what, "the form"), cmp.Or(path, "this page"))
		}
		if n == 0 {
			b.WriteString("webmcp:\n  forms:\n")
		}
		n++
		fmt.Fprintf(&b, "    - selector: %q\n      toolname: %s\n      tooldescription: %q\n", sel, name, desc)
		if len(fields) > 0 {
			b.WriteString("      params:\n")
			for _, fld := range fields {
				fmt.Fprintf(&b, "        %s: %q\n", yamlKey(fld), cmp.Or(labels[fld], "The "+strings.ReplaceAll(fld, "_", " ")+" to send."))
			}
		}
	}
	return b.String()
}

// formSelector returns a CSS selector for a form, the toolname it suggests
// (snake_case) and the action's path.
func formSelector(f parse.Form) (sel, name, path string) {
	if u, err := url.Parse(f.Action); err == nil {
		path = u.Path
	}
	last := strings.Trim(path, "/")
	last = last[strings.LastIndex(last, "/")+1:]
	if i := strings.LastIndex(last, "."); i > 0 {
		last = last[:i]
	}
	switch {
	case f.ID != "":
		sel, name = "form#"+f.ID, f.ID
	case path != "" && path != "/":
		sel, name = fmt.Sprintf("form[action$=%q]", last), last
	case f.Heading != "":
		sel, name = "form", f.Heading
	default:
		sel, name = "form", "submit"
	}
	return sel, snake(name) + "_form", path
}

// snake lower-cases s and joins its words with underscores.
func snake(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "_"):
			b.WriteByte('_')
		}
	}
	out := strings.Trim(b.String(), "_")
	if out == "" || out[0] >= '0' && out[0] <= '9' {
		out = "form_" + out
	}
	return strings.TrimSuffix(strings.TrimSuffix(out, "_form"), "_")
}

// yamlKey quotes a field name when YAML would read it as something else.
func yamlKey(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return fmt.Sprintf("%q", s)
		}
	}
	return s
}
