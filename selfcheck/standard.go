package selfcheck

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// checkRules says, for every check of the catalogue, what earns it PASS,
// PARTIAL or FAIL, in this repository's words; StandardDoc prints them in
// docs/standard.md. TestStandardDoc asserts every check has one.
var checkRules = map[string]string{
	"sitemap":             "PASS: a `<urlset>` or `<sitemapindex>` with at least one `<loc>`, every loc on the site's own origin (a 200 alone is not a sitemap). PARTIAL: the share of locs on the origin, at most half when the XML is malformed. FAIL: none at the usual addresses, or a document that is not a sitemap.",
	"llms_txt":            "PASS: `/llms.txt` answers as text with a title (H1), at least one Markdown link and plain instructions for agents. PARTIAL: a quarter of the weight lost for each of those missing. FAIL: no llms.txt, or one that holds none of them.",
	"capability_manifest": "PASS: a JSON object at `/.well-known/agents.json` or `/agents.json` naming what is published, its interfaces, how to authenticate and whom to contact, the two copies equal. PARTIAL: a quarter per part present, at most half when the copies differ. FAIL: absent, not JSON, or empty.",
	"crawler_policy":      "PASS: robots.txt lets the AI search and user-initiated agents (OAI-SearchBot, ChatGPT-User, Claude-SearchBot, Claude-User, PerplexityBot, Perplexity-User, Googlebot, Bingbot) read the scanned pages; no robots.txt allows everything. Refusing training crawlers costs nothing. PARTIAL: the share of agent × page pairs allowed.",
	"discovery_links":     "PASS: the home page links `/llms.txt` with `rel=\"describedby\"` and `/agents.json` with `rel=\"alternate\"`, as a Link header or a head `<link>`. PARTIAL: one of the two.",

	"language_declared":    "Per page. PASS: `<html lang>` holds a well-formed BCP 47 tag. FAIL: no lang, or a malformed one.",
	"canonical_declared":   "Per page. PASS: a canonical link (head or Link header) with an absolute URL on the site's origin. PARTIAL (half): a relative canonical. FAIL: none, one that does not parse, or one off the origin (another host, a `file://` URL).",
	"structured_identity":  "Site-wide. PASS: JSON-LD that parses, with an identity node (Organization, LocalBusiness, Person, WebSite, or Product/Offer) carrying name and url. PARTIAL: an identity node without name or url, or none among parsing blocks, or some blocks that do not parse. FAIL: no JSON-LD, or none that parses.",
	"structured_freshness": "Site-wide. PASS: every content node (Article, WebPage, Product…) carries dateModified; the identity node is never asked for one. PARTIAL: the share that does. NOT_APPLICABLE: no content node.",

	"content_in_initial_html":       "Per page. PASS: at least 50 words of visible text in the HTML as served (not built by JavaScript) and a non-empty `<main>` (or role=main, `<article>`). PARTIAL (half): the text is there but the main landmark is missing or empty. FAIL: an empty shell.",
	"markdown_representation":       "Per page. PASS: `Accept: text/markdown` gets `200 text/markdown; charset=utf-8`, and so does the Accept real agents send, text/markdown tied with text/html. PARTIAL (half): no charset, or a tie that goes to HTML. FAIL: no Markdown.",
	"vary_accept":                   "Per page. PASS: both the HTML and the Markdown answers carry `Vary` naming Accept (or `*`). PARTIAL: one of the two.",
	"markdown_front_matter":         "Per page. PASS: the Markdown opens with front matter holding title, canonical (the page's own URL), updated and language. PARTIAL: a quarter per field present. FAIL: no Markdown, or no front matter.",
	"markdown_alternate_advertised": "Per page. PASS: a `Link` header and a head `<link>` both offer the page's `rel=\"alternate\" type=\"text/markdown\"`. PARTIAL: one of the two.",
	"browser_gets_html":             "Per page. PASS: a browser's Accept and a bare `*/*` both get HTML. PARTIAL: one of the two.",

	"web_actions_declared":     "Per page with a form or action control (else NOT_APPLICABLE). PASS: a form carries toolname and tooldescription, or the page registers a tool with `document.modelContext.registerTool()`. PARTIAL (half): a toolname without description, or only the hyphenated or navigator forms. FAIL: no declaration.",
	"tool_form_quality":        "Per page with annotated forms (else NOT_APPLICABLE). Four criteria per form: snake_case toolname, a tooldescription of at least 10 characters, every field named and labelled, toolparamdescription on every input; the share met is the fraction. FAIL outright: a tooldescription that is still the fix snippet's placeholder, or two forms sharing one toolname.",
	"surface_coverage":         "Per page with interactive surface (else NOT_APPLICABLE). PASS: at least half the visible forms, search inputs and action controls are annotated. PARTIAL: the share annotated, over one half.",
	"tools_permissions_policy": "Per page. PASS: no Permissions-Policy member for tools (the default allowlist, the own origin, applies), or one that allows self or `*`. FAIL: a policy that disables page tools.",

	"backend_interface_declared": "NOT_APPLICABLE when the site offers no backend. PASS: a live MCP endpoint, an OpenAPI 3.x document, a usable A2A card, or an interface named in agents.json that answers. PARTIAL (half): something answers but the card also names a document that does not, a Swagger 2.0 document, or an MCP endpoint that needs a token even to initialize. FAIL: a declared interface that does not answer, or a backend with nothing declared.",
	"mcp_transport":              "NOT_APPLICABLE without an MCP endpoint. PASS: initialize negotiates a protocol version and tools/list answers over streamable HTTP on the site's origin. The scanner never calls a tool.",
	"access_documented":          "NOT_APPLICABLE without a backend. PASS: which capabilities need a token is stated (agents.json authentication, the MCP server card's auth, or OpenAPI security). FAIL: nothing says it.",
	"signin_discovery":           "NOT_APPLICABLE when every tool is public. PASS: OAuth metadata (protected resource, authorization server) resolves and announces PKCE S256. PARTIAL: metadata without S256.",
	"openapi_quality":            "NOT_APPLICABLE without an OpenAPI document. The share of operations with operationId, summary, typed parameters, a 2xx schema and an error model, and an unknown API path answered 404/410 with a JSON problem body. FAIL: a document without operations.",

	"human_handoff":          "PASS: a person can be reached: a mailto link, a contact page link, JSON-LD contactPoint, email or telephone, a contact line in llms.txt, or agents.json contact. FAIL: none of them.",
	"access_policy_declared": "PASS: agents.json states authentication (even `none`) and a usage policy is stated (agents.json, llms.txt or a Content-Signal). PARTIAL: one of the two.",
	"security_contact":       "PASS: `/.well-known/security.txt` with a Contact and an Expires in the future. PARTIAL: one of the two. FAIL: none.",

	"ard_manifest":       "Unscored. Lighthouse's ard-schema audit of `/.well-known/ard.json`, reported found or not.",
	"a2a_agent_card":     "Unscored. An A2A agent card at `/.well-known/agent-card.json`, reported found or not.",
	"mcp_server_card":    "Unscored. An MCP server card at `/.well-known/mcp/server-card.json`, reported found or not.",
	"agent_skills_index": "Unscored. An agent-skills index at `/.well-known/agent-skills/index.json` whose digests match, reported found or not.",
	"api_catalog":        "Unscored. An RFC 9727 api-catalog at `/.well-known/api-catalog`, reported found or not.",
	"content_signals":    "Unscored. A Content-Signal policy (robots.txt or header), reported found or not.",
	"markdown_tokens":    "Unscored. `x-markdown-tokens` on the Markdown answer, reported found or not.",
	"nlweb_ask":          "Unscored. An NLWeb `/ask` endpoint, reported found or not.",
}

// checkCauses lists, for every check, the causes its receipt can record
// when it does not pass (Receipt.Cause), in the order the check tests them.
var checkCauses = map[string][]string{
	"sitemap":                       {CauseSitemapMissing, CauseSitemapInvalid, CauseSitemapForeign},
	"llms_txt":                      {CauseLLMsMissing, CauseLLMsIncomplete},
	"capability_manifest":           {CauseManifestMissing, CauseManifestInvalid, CauseManifestIncomplete, CauseManifestTwins},
	"crawler_policy":                {CauseRobotsBlocks},
	"discovery_links":               {CauseDiscoveryLinksMissing},
	"language_declared":             {CauseLangMissing, CauseLangMalformed},
	"canonical_declared":            {CauseCanonicalMissing, CauseCanonicalBad, CauseCanonicalRelative, CauseCanonicalOffOrigin},
	"structured_identity":           {CauseIdentityMissing, CauseJSONLDBroken},
	"structured_freshness":          {CauseDateModifiedMissing},
	"content_in_initial_html":       {CauseAppShell, CauseNoMain},
	"markdown_representation":       {CauseNoMarkdown, CauseMarkdownTooLarge, CauseMarkdownDeclined, CauseMarkdownCharset, CauseMarkdownTieToHTML},
	"vary_accept":                   {CauseVaryMissing},
	"markdown_front_matter":         {CauseNoMarkdown, CauseMarkdownTooLarge, CauseMarkdownDeclined, CauseFrontMatterMissing, "front_matter_no_title", "front_matter_no_canonical", CauseFrontMatterCanonical, "front_matter_no_updated", "front_matter_no_language"},
	"markdown_alternate_advertised": {CauseAlternateMissing},
	"browser_gets_html":             {CauseBrowserNotHTML},
	"web_actions_declared":          {CauseFormsUnannotated, CauseToolDescriptionMissing, CauseToolHyphenated},
	"tool_form_quality":             {CausePlaceholderDescription, CauseDuplicateToolName, CauseFormCriteria},
	"surface_coverage":              {CauseCoverageLow},
	"tools_permissions_policy":      {CauseToolsDisabled},
	"backend_interface_declared":    {CauseInterfaceUnresolved, CauseSwagger2, CauseMCPNeedsToken, CauseMCPNotAnswering, CauseInterfaceMissing},
	"human_handoff":                 {CauseNoHuman},
	"security_contact":              {CauseSecurityTxtMissing, CauseSecurityTxtIncomplete},
}

// StandardDoc renders docs/standard.md from the catalogues: the score, the
// verdicts, the rules, every check with its id, weight, verdict rule and
// causes with their advice, every checkpoint and every lint rule.
// TestStandardDoc holds the file equal to it (go test -update rewrites it).
func StandardDoc() string {
	var b strings.Builder
	b.WriteString(standardIntro)
	b.WriteString("\n## Sections and weights {#sections}\n\n| Section | Question | Points |\n|---|---|---|\n")
	for _, s := range Sections() {
		fmt.Fprintf(&b, "| [%s](#section-%s) | %s | %s |\n", s.Title, s.ID, s.Question, num(s.Points))
	}
	b.WriteString(standardVerdicts)
	b.WriteString(standardRules)
	b.WriteString("\n## The checks {#checks}\n\nGenerated from the scanner's catalogue (`selfcheck/catalogue.go`). A page-level check is judged on every scanned page and folded: PASS when every page passes, else the mean of the pages' fractions; the receipt lists each page. The cause is what the receipt records (`receipt.cause`) when the check does not pass; the fix-first plan gives that cause's advice.\n")
	titles := map[Section]string{SectionOptional: "Optional (unscored)"}
	for _, s := range Sections() {
		titles[s.ID] = fmt.Sprintf("%s (%s points)", s.Title, num(s.Points))
	}
	var section Section
	for _, c := range catalogue {
		if c.Section != section {
			section = c.Section
			fmt.Fprintf(&b, "\n<a id=\"section-%s\"></a>\n\n### %s\n", section, titles[section])
		}
		fmt.Fprintf(&b, "\n<a id=\"check-%s\"></a>\n\n#### `%s`: %s\n\n", c.ID, c.ID, c.Title)
		var facts []string
		if c.Optional {
			facts = append(facts, "Unscored")
		} else {
			facts = append(facts, "Weight "+num(c.Weight))
		}
		if c.Requirement != "" {
			facts = append(facts, "proves "+c.Requirement)
		}
		if c.PageLevel {
			facts = append(facts, "page-level")
		} else {
			facts = append(facts, "site-wide")
		}
		fmt.Fprintf(&b, "%s. %s\n", strings.Join(facts, ", "), strings.TrimPrefix(checkRules[c.ID], "Per page. "))
		if causes := checkCauses[c.ID]; len(causes) > 0 {
			b.WriteString("\n| Cause | Advice |\n|---|---|\n")
			for _, cause := range causes {
				f := adviceFor(CheckResult{ID: c.ID, Receipt: Receipt{Cause: cause}})
				fmt.Fprintf(&b, "| `%s` | %s |\n", cause, strings.ReplaceAll(f.change, "|", "\\|"))
			}
		}
	}
	b.WriteString("\n## Checkpoints (second lens, unscored) {#checkpoints}\n\nGenerated from `selfcheck/protocol_catalogue.go`. Each checkpoint is PASS, PARTIAL, FAIL or NOT_APPLICABLE with its receipt, a fix and a read-only command to verify it; none changes the score. Where a scored check judges the same fact, the two agree.\n\n| Id | Strength | What passes | Same fact as |\n|---|---|---|---|\n")
	for _, c := range checkpoints {
		agrees := ""
		if c.Agrees != "" {
			agrees = fmt.Sprintf("[`%s`](#check-%s)", c.Agrees, c.Agrees)
		}
		fmt.Fprintf(&b, "| <a id=\"checkpoint-%s\"></a>`%s` | %s | %s | %s |\n", strings.ReplaceAll(c.ID, ".", "-"), c.ID, c.Strength, c.Title, agrees)
	}
	b.WriteString("\n## Lint (third lens, unscored) {#lint}\n\nGenerated from `selfcheck/lint_rules.go`. Each rule reads the site's guidance to agents (llms.txt, agents.json, forms, example URLs) and FAILs with findings that name the document, line or field; a failure rule weighs more in the plan than a warning. None changes the score.\n\n| Id | Kind | What it asks |\n|---|---|---|\n")
	for _, l := range lintRules {
		fmt.Fprintf(&b, "| <a id=\"lint-%s\"></a>`%s` | %s | %s |\n", l.ID, l.ID, l.Kind, l.Title)
	}
	return headingAnchor.ReplaceAllString(b.String(), "<a id=\"$2\"></a>\n\n$1")
}

// headingAnchor matches a heading written with a {#id} suffix, which
// StandardDoc turns into an HTML anchor GitHub keeps.
var headingAnchor = regexp.MustCompile(`(?m)^(#+ .*) \{#([a-z-]+)\}$`)

// sortedCauses returns every cause named in checkCauses, sorted.
func sortedCauses() []string {
	var out []string
	for _, cs := range checkCauses {
		for _, c := range cs {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return out
}

const standardIntro = `# The agent-readiness standard, as this scanner scores it

<!-- Generated by selfcheck.StandardDoc from the scanner's catalogues; edit
selfcheck/standard.go and run: go test ./selfcheck -run TestStandardDoc -update -->

This is the standard ` + "`caddy agent-ready scan`" + ` and the self-score at the admin
endpoint apply, written for this repository. It descends from the "AI Agent
Ready" standard, revision 1.2, and borrows two outside methods as unscored
lenses (agent-protocol checkpoints, agent-compatibility lint). A report is a
diagnostic to act on, not a certificate.

## The score {#score}

Six sections share 100 points. Within a section, the check that proves one of
the ten requirements (R1–R10) carries most of the points and supporting
checks the rest. There are 35 checks: 27 carry points, 8 are optional and
only say whether a feature was found.

The score is 100 × points earned ÷ the weights of the checks that apply. A
check that does not apply to the site (no forms on a page, no backend) leaves
the denominator. A check that could not be made (refused, timed out, a
redirect that never lands, a body over the size cap, a 5xx) stays in the
denominator, earns nothing, and is listed on its own.
`

const standardVerdicts = `
## Verdicts {#verdicts}

Every check ends in exactly one verdict; none is rounded into another.

| Verdict | Meaning | Points |
|---|---|---|
| PASS | what the rule expects came back | the full weight |
| PARTIAL | part of it is there; the receipt names what is missing | the stated fraction (never rounded to 0 or 1) |
| FAIL | asked for, not there | 0 |
| NOT_APPLICABLE | the rule does not apply to this site or page | leaves the denominator |
| COULD_NOT_CHECK | the evidence never came back | 0, weight kept, listed apart |
| OPTIONAL | an unscored check, found or not | none |
| UNVERIFIED | needs credentials the scanner never holds | never counted either way |

## Receipts {#receipts}

Each verdict carries its receipt: the request made (only the headers that
shape the answer, credentials redacted), the answer the rule expects, the
answer received, and for a page-level check each page's own verdict. When a
check does not pass, the receipt records its cause (` + "`receipt.cause`" + `, listed
under each check below), and the fix-first plan's advice is that cause's:
the same FAIL can need a site.yaml line, a template change or server work.
`

const standardRules = `
## Rules {#rules}

<a id="rule-1"></a>**Rule 1. Finding is not using.** Four findings stay apart: that an
interface answers and lists its tools; that access is documented (which
capabilities need a token); that sign-in can be discovered; and that an
authenticated call works. The last needs credentials, so it is always
UNVERIFIED: the scanner never signs in and never calls a tool.

<a id="rule-2"></a>**Rule 2. One result.** The JSON, Markdown and HTML reports render one
result object: the same verdicts and totals in every form.

<a id="rule-3"></a>**Rule 3. No perfect Connect on missing evidence.** A section that leaves
something UNVERIFIED is never shown as perfect, though its earned points are
kept.

<a id="rule-4"></a>**Rule 4. Versions are recorded.** What protocol version was offered and
what the server returned are both in the receipt; a feature of a later
revision is not held against a session that negotiated an earlier one.

<a id="rule-5"></a>**Rule 5. Hints are not behaviour.** Tools marked read-only are counted on
their own line and earn nothing.

<a id="rule-6"></a>**Rule 6. Three kinds of crawler.** Training crawlers, AI search, and the
agent a person sent to a page. Only the last two count for discovery;
refusing training costs nothing.

<a id="rule-7"></a>**Rule 7. A default is a policy.** With no Permissions-Policy member for
page tools, the default allowlist (the own origin) applies, and passes.

<a id="rule-8"></a>**Rule 8. The right fields per type.** dateModified is asked of nodes that
describe content, never of the node that says who you are; identity and
freshness are separate checks.

<a id="rule-9"></a>**Rule 9. Findings name their scope.** The pages the scan read travel with
the report; a page-level verdict describes those pages only. The scan picks
them to represent the site: a likely form page first, then one page per
section (first path segment) in turn, content pages before listing pages,
from the sitemap or, without one, from the home page's links.

<a id="rule-10"></a>**Rule 10. The twin agrees.** agents.json served at both addresses must
be the same document.

<a id="rule-11"></a>**Rule 11. A sitemap is a document.** A real urlset or sitemapindex with
locs on the site's own origin, not just a 200.

<a id="rule-12"></a>**Rule 12. Reaching a person needs no crawl.** A mailto link, a contact
page, JSON-LD contact data or a contact line in llms.txt each count.
`
