package selfcheck

// Section identifies one of the six sections that share the 100 points.
type Section string

// The six sections of STANDARD.md §1, plus the bucket of unscored checks.
const (
	SectionDiscover   Section = "discover"
	SectionUnderstand Section = "understand"
	SectionRead       Section = "read"
	SectionAct        Section = "act"
	SectionConnect    Section = "connect"
	SectionTrust      Section = "trust"
	SectionOptional   Section = "optional"
)

// SectionInfo describes a scored section: its id, title, the question it
// asks and the points it carries.
type SectionInfo struct {
	// ID is the section's stable id.
	ID Section `json:"id"`
	// Title is its display name.
	Title string `json:"title"`
	// Question is what the section asks of a site.
	Question string `json:"question"`
	// Points is what the section is worth out of 100.
	Points float64 `json:"points"`
}

// Sections returns the six scored sections in report order (STANDARD.md §1).
func Sections() []SectionInfo {
	return []SectionInfo{
		{SectionDiscover, "Discover", "Can an AI agent find your content?", 15},
		{SectionUnderstand, "Understand", "Does an agent understand your business correctly?", 15},
		{SectionRead, "Read", "Can an agent consume your content efficiently?", 20},
		{SectionAct, "Act", "Can an agent act on your site?", 20},
		{SectionConnect, "Connect", "Can outside agents call your systems?", 20},
		{SectionTrust, "Trust", "Can an agent authenticate, confirm actions and reach a human?", 10},
	}
}

// CheckInfo is one entry of the catalogue (STANDARD.md §7). ID is stable API:
// reports, tests and docs use it.
type CheckInfo struct {
	// ID is the stable snake_case identifier of the check.
	ID string `json:"id"`
	// Section is the section the check belongs to.
	Section Section `json:"section"`
	// Requirement is the requirement (R1..R10) the check proves, or "" for a
	// supporting diagnostic.
	Requirement string `json:"requirement,omitempty"`
	// Weight is the number of points the check carries; 0 for optional checks.
	Weight float64 `json:"weight"`
	// Optional marks an unscored check (an unsettled rule).
	Optional bool `json:"optional,omitempty"`
	// PageLevel marks a check that runs on every scanned route.
	PageLevel bool `json:"page_level,omitempty"`
	// Title is a short human description of what passes.
	Title string `json:"title"`
}

// catalogue is the one place where ids, sections, requirements and weights
// live. The weights are STANDARD.md §7's, unchanged; TestCatalogueTotals
// asserts they add up to each section's points and to 100.
var catalogue = []CheckInfo{
	// Discover (15)
	{ID: "sitemap", Section: SectionDiscover, Requirement: "R3", Weight: 4, Title: "A real sitemap on the site's own origin"},
	{ID: "llms_txt", Section: SectionDiscover, Requirement: "R4", Weight: 4, Title: "An llms.txt with a title, links and plain instructions"},
	{ID: "capability_manifest", Section: SectionDiscover, Requirement: "R5", Weight: 5, Title: "A capability card (agents.json)"},
	{ID: "crawler_policy", Section: SectionDiscover, Weight: 1, Title: "robots.txt lets AI search and user agents in"},
	{ID: "discovery_links", Section: SectionDiscover, Weight: 1, Title: "The home page links to llms.txt and agents.json"},
	// Understand (15)
	{ID: "language_declared", Section: SectionUnderstand, Requirement: "R6", Weight: 4, PageLevel: true, Title: "Pages declare a BCP 47 language"},
	{ID: "canonical_declared", Section: SectionUnderstand, Requirement: "R6", Weight: 3, PageLevel: true, Title: "Pages declare an absolute canonical URL"},
	{ID: "structured_identity", Section: SectionUnderstand, Requirement: "R7", Weight: 6, Title: "JSON-LD names who you are"},
	{ID: "structured_freshness", Section: SectionUnderstand, Weight: 2, Title: "Content nodes carry dateModified"},
	// Read (20)
	{ID: "content_in_initial_html", Section: SectionRead, Requirement: "R1", Weight: 7, PageLevel: true, Title: "Content is in the initial HTML"},
	{ID: "markdown_representation", Section: SectionRead, Requirement: "R2", Weight: 5, PageLevel: true, Title: "Pages answer Accept: text/markdown with Markdown"},
	{ID: "vary_accept", Section: SectionRead, Weight: 2, PageLevel: true, Title: "Both forms carry Vary: Accept"},
	{ID: "markdown_front_matter", Section: SectionRead, Weight: 3, PageLevel: true, Title: "The Markdown opens with front matter"},
	{ID: "markdown_alternate_advertised", Section: SectionRead, Weight: 2, PageLevel: true, Title: "The Markdown alternate is advertised"},
	{ID: "browser_gets_html", Section: SectionRead, Weight: 1, PageLevel: true, Title: "Browsers still get HTML"},
	// Act (20)
	{ID: "web_actions_declared", Section: SectionAct, Requirement: "R8", Weight: 10, PageLevel: true, Title: "Forms are declared as WebMCP tools"},
	{ID: "tool_form_quality", Section: SectionAct, Weight: 4, PageLevel: true, Title: "Annotated forms are well described"},
	{ID: "surface_coverage", Section: SectionAct, Weight: 3, PageLevel: true, Title: "At least half the interactive surface is annotated"},
	{ID: "tools_permissions_policy", Section: SectionAct, Weight: 3, PageLevel: true, Title: "Permissions-Policy does not disable page tools"},
	// Connect (20)
	{ID: "backend_interface_declared", Section: SectionConnect, Requirement: "R9", Weight: 10, Title: "A backend interface is declared and answers"},
	{ID: "mcp_transport", Section: SectionConnect, Weight: 3, Title: "The MCP endpoint initializes and lists tools"},
	{ID: "access_documented", Section: SectionConnect, Weight: 2, Title: "Which capabilities need a token is stated"},
	{ID: "signin_discovery", Section: SectionConnect, Weight: 3, Title: "OAuth metadata resolves and announces PKCE S256"},
	{ID: "openapi_quality", Section: SectionConnect, Weight: 2, Title: "The OpenAPI document is complete"},
	// Trust (10)
	{ID: "human_handoff", Section: SectionTrust, Requirement: "R10", Weight: 4, Title: "A person is reachable"},
	{ID: "access_policy_declared", Section: SectionTrust, Requirement: "R10", Weight: 4, Title: "A stated posture on who may do what"},
	{ID: "security_contact", Section: SectionTrust, Weight: 2, Title: "security.txt with a contact and a future expiry"},
	// Optional (8, unscored)
	{ID: "ard_manifest", Section: SectionOptional, Optional: true, Title: "Lighthouse ard-schema audit"},
	{ID: "a2a_agent_card", Section: SectionOptional, Optional: true, Title: "A2A agent card"},
	{ID: "mcp_server_card", Section: SectionOptional, Optional: true, Title: "MCP server card"},
	{ID: "agent_skills_index", Section: SectionOptional, Optional: true, Title: "Agent skills index"},
	{ID: "api_catalog", Section: SectionOptional, Optional: true, Title: "RFC 9727 api-catalog"},
	{ID: "content_signals", Section: SectionOptional, Optional: true, Title: "Content-Signal policy"},
	{ID: "markdown_tokens", Section: SectionOptional, Optional: true, Title: "x-markdown-tokens on the Markdown"},
	{ID: "nlweb_ask", Section: SectionOptional, Optional: true, Title: "NLWeb /ask endpoint"},
}

// Catalogue returns a copy of the 35 checks in report order.
func Catalogue() []CheckInfo {
	return append([]CheckInfo(nil), catalogue...)
}

// checkInfo returns the catalogue entry for id; it panics on an unknown id,
// which is a programming error caught by the tests.
func checkInfo(id string) CheckInfo {
	for _, c := range catalogue {
		if c.ID == id {
			return c
		}
	}
	panic("selfcheck: unknown check id " + id)
}
