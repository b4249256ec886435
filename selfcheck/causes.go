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
