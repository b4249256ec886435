package selfcheck

import (
	"net/http"
	"strings"
	"testing"
)

// adviceCase is one row of TestAdviceRescansToPass: an origin that fails a
// check for one cause, the cause the receipt must record, words the plan's
// advice must hold (and words it must not), and the origin after that
// advice is applied.
type adviceCase struct {
	name, check, cause string
	before             func(t testing.TB) http.Handler
	advice             []string // the plan item (change + site.yaml) holds each
	not                []string // and none of these
	after              func(t testing.TB) http.Handler
}

// setHeader sets a header on a page of the site (nil values remove it).
func setHeader(path, key string, values ...string) func(s *testSite) {
	return func(s *testSite) {
		s.edit(path, func(d *doc) {
			if values == nil {
				d.header.Del(key)
				return
			}
			d.header[http.CanonicalHeaderKey(key)] = values
		})
	}
}

// noMarkdown makes path answer Markdown requests with its HTML.
func noMarkdown(path string) func(s *testSite) {
	return func(s *testSite) { s.edit(path, func(d *doc) { d.markdown = "" }) }
}

const annotatedForm = `<form action="/search" toolname="search_catalog" tooldescription="Search the widget catalogue by keyword.">`

// TestAdviceRescansToPass: for each cause a check records, the plan gives
// that cause's advice (not the check's generic one), and the origin with
// the advice applied rescans that check to PASS.
func TestAdviceRescansToPass(t *testing.T) {
	cases := []adviceCase{
		{name: "canonical is a file:// URL", check: "canonical_declared", cause: CauseCanonicalOffOrigin,
			before: ready(editBody("/", `<link rel="canonical" href="{{origin}}/">`, `<link rel="canonical" href="file:///home/me/site/_build/index.html">`)),
			advice: []string{"file://", "template", "make it http://127.0.0.1"}, not: []string{"inject:"},
			after: ready()},
		{name: "canonical on another host", check: "canonical_declared", cause: CauseCanonicalOffOrigin,
			before: ready(editBody("/", `href="{{origin}}/">`, `href="https://staging.example/">`)),
			advice: []string{"points off the site"}, after: ready()},
		{name: "canonical relative", check: "canonical_declared", cause: CauseCanonicalRelative,
			before: ready(editBody("/", `<link rel="canonical" href="{{origin}}/">`, `<link rel="canonical" href="/">`)),
			advice: []string{"absolute"}, after: ready()},
		{name: "canonical missing", check: "canonical_declared", cause: CauseCanonicalMissing,
			before: ready(editBody("/", `<link rel="canonical" href="{{origin}}/">`, ``)),
			advice: []string{"injects", "canonical: true"}, after: ready()},
		{name: "lang malformed", check: "language_declared", cause: CauseLangMalformed,
			before: ready(editBody("/", `<html lang="en">`, `<html lang="english_US">`)),
			advice: []string{"never rewrites"}, not: []string{"site:"}, after: ready()},
		{name: "lang missing", check: "language_declared", cause: CauseLangMissing,
			before: ready(editBody("/", `<html lang="en">`, `<html>`)),
			advice: []string{"language: en"}, after: ready()},
		{name: "no negotiation at all", check: "markdown_representation", cause: CauseNoMarkdown,
			before: ready(noMarkdown("/"), setHeader("/", "Vary"), setHeader("/", "Link")),
			advice: []string{"put agent_ready in front"}, after: ready()},
		{name: "page over max_size", check: "markdown_representation", cause: CauseMarkdownTooLarge,
			before: ready(noMarkdown("/"), editBody("/", "</body>", "<!--"+strings.Repeat("x", 2_700_000)+"--></body>")),
			advice: []string{"max_size", "2.70 MB", "too_large"}, not: []string{"put agent_ready in front"},
			after: ready(editBody("/", "</body>", "<!--"+strings.Repeat("x", 2_700_000)+"--></body>"))},
		{name: "module in front sends HTML", check: "markdown_representation", cause: CauseMarkdownDeclined,
			before: ready(noMarkdown("/")),
			advice: []string{"failed open"}, not: []string{"put agent_ready in front"}, after: ready()},
		{name: "Vary missing", check: "vary_accept", cause: CauseVaryMissing,
			before: ready(setHeader("/", "Vary")), advice: []string{"Vary: Accept"}, after: ready()},
		{name: "alternate not advertised", check: "markdown_alternate_advertised", cause: CauseAlternateMissing,
			before: ready(setHeader("/", "Link", `</llms.txt>; rel="describedby"`), editBody("/", `<link rel="alternate" type="text/markdown" href="{{origin}}/index.md">`, "")),
			advice: []string{"Link:"}, after: ready()},
		{name: "front matter lacks updated", check: "markdown_front_matter", cause: "front_matter_no_updated",
			before: ready(editBody("/", "updated: 2026-09-15\n", "")),
			advice: []string{"Last-Modified"}, after: ready()},
		{name: "no main landmark", check: "content_in_initial_html", cause: CauseNoMain,
			before: ready(editBody("/", "<main>", "<div>"), editBody("/", "</main>", "</div>")),
			advice: []string{"<main>"}, after: ready()},
		{name: "form not annotated", check: "web_actions_declared", cause: CauseFormsUnannotated,
			before: ready(editBody("/", annotatedForm, `<form action="/search">`)),
			advice: []string{`selector: "form[action$=\"search\"]"`, "toolname: search_form", `tooldescription: "Acme Widgets: sends Keyword to /search."`, `q: "Keyword"`},
			not:    []string{PlaceholderToolDescription},
			after:  ready(editBody("/", annotatedForm, `<form action="/search" toolname="search_form" tooldescription="Acme Widgets: sends Keyword to /search.">`))},
		{name: "placeholder description", check: "tool_form_quality", cause: CausePlaceholderDescription,
			before: ready(editBody("/", `tooldescription="Search the widget catalogue by keyword."`, `tooldescription="`+PlaceholderToolDescription+`"`)),
			advice: []string{"placeholder", "toolname: search_catalog", "sends Keyword to /search"}, after: ready()},
		{name: "two forms, one toolname", check: "tool_form_quality", cause: CauseDuplicateToolName,
			before: ready(editBody("/", "</main>", `<form action="/quote" toolname="search_catalog" tooldescription="Ask for a price quote on a widget."><label for="m">Model</label><input id="m" name="model" toolparamdescription="The model to quote."></form></main>`)),
			advice: []string{"its own"},
			after:  ready(editBody("/", "</main>", `<form action="/quote" toolname="request_quote" tooldescription="Ask for a price quote on a widget."><label for="m">Model</label><input id="m" name="model" toolparamdescription="The model to quote."></form></main>`))},
		{name: "sitemap is an HTML page", check: "sitemap", cause: CauseSitemapInvalid,
			before: ready(replace("/sitemap.xml", &doc{ctype: "text/html", body: "<html><body>Site map</body></html>"})),
			advice: []string{"remove the file"}, after: ready()},
		{name: "sitemap locs on another host", check: "sitemap", cause: CauseSitemapForeign,
			before: ready(editBody("/sitemap.xml", "{{origin}}", "https://staging.example")),
			advice: []string{"base URL"}, after: ready()},
		{name: "agents.json does not parse", check: "capability_manifest", cause: CauseManifestInvalid,
			before: ready(replace("/.well-known/agents.json", &doc{ctype: "application/json", body: `{"name": "Acme",}`}), replace("/agents.json", &doc{ctype: "application/json", body: `{"name": "Acme",}`})),
			advice: []string{"does not parse"}, after: ready()},
		{name: "robots.txt blocks a user agent", check: "crawler_policy", cause: CauseRobotsBlocks,
			before: ready(replace("/robots.txt", &doc{ctype: "text/plain", body: "User-agent: ChatGPT-User\nDisallow: /\n"})),
			advice: []string{"Disallow"}, after: ready()},
		{name: "security.txt expired", check: "security_contact", cause: CauseSecurityTxtIncomplete,
			before: ready(replace("/.well-known/security.txt", &doc{ctype: "text/plain", body: "Contact: mailto:s@acme.test\nExpires: 2020-01-01T00:00:00Z\n"})),
			advice: []string{"Expires", "expires_days"}, after: ready()},
		{name: "tools disabled", check: "tools_permissions_policy", cause: CauseToolsDisabled,
			before: ready(setHeader("/", "Permissions-Policy", "tools=()")), advice: []string{"Permissions-Policy"}, after: ready()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := scanHandler(t, tc.before(t), Options{Pages: -1})
			c := r.checkByID(tc.check)
			if c.Verdict == Pass || c.Receipt.Cause != tc.cause {
				t.Fatalf("before: %s %s, cause %q, want cause %q\n%s", tc.check, c.Verdict, c.Receipt.Cause, tc.cause, receiptText(*c))
			}
			var item *PlanItem
			for i := range r.Plan {
				if r.Plan[i].ID == tc.check {
					item = &r.Plan[i]
				}
			}
			if item == nil {
				t.Fatalf("no plan item for %s", tc.check)
			}
			advice := item.Change + "\n" + item.SiteYAML
			for _, w := range tc.advice {
				if !strings.Contains(advice, w) {
					t.Errorf("advice lacks %q:\n%s", w, advice)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(advice, w) {
					t.Errorf("advice holds %q:\n%s", w, advice)
				}
			}
			after := scanHandler(t, tc.after(t), Options{Pages: -1, Only: tc.check})
			if c := after.checkByID(tc.check); c.Verdict != Pass {
				t.Errorf("after the advice: %s %s\n%s", tc.check, c.Verdict, receiptText(*c))
			}
		})
	}
}
