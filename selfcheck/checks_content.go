package selfcheck

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/agentready/caddy-agentready/selfcheck/internal/parse"
	"github.com/agentready/caddy-agentready/selfcheck/llmstxt"
)

func init() {
	register(map[string]checkFunc{
		"sitemap":             checkSitemap,
		"llms_txt":            checkLLMSTxt,
		"capability_manifest": checkCapabilityManifest,
		"crawler_policy":      checkCrawlerPolicy,
		"discovery_links":     checkDiscoveryLinks,
	})
}

// checkSitemap: a real urlset/sitemapindex with ≥1 loc, all on the site's
// origin (rule 11: a real document, not just a 200).
func checkSitemap(ctx context.Context, s *site) outcome {
	const expected = "200 XML <urlset> or <sitemapindex> with ≥1 <loc>, every loc on the site's origin"
	sm := s.sitemap(ctx)
	rec := s.receiptOf(sm.resp, expected)
	for _, t := range sm.tried {
		if t != sm.resp {
			rec.Also = append(rec.Also, s.also(t))
		}
	}
	scope := []string{pathOf(sm.resp.req.url)}
	if !sm.resp.ok() {
		// Every candidate failed: a gap only if none answered honestly.
		for _, t := range sm.tried {
			if !t.unreachable() {
				return outcome{verdict: Fail, missing: fmt.Sprintf("no sitemap: %s answered %d", pathOf(t.req.url), t.status), receipt: rec, scope: scope, cause: CauseSitemapMissing}
			}
		}
		o := s.couldNotCheck(sm.resp, expected)
		o.receipt, o.scope = rec, scope
		return o
	}
	doc := sm.doc
	if doc.Kind == "" {
		msg := "not a sitemap"
		if doc.Err != nil {
			msg += ": " + doc.Err.Error()
		}
		return outcome{verdict: Fail, missing: msg, receipt: rec, scope: scope, cause: CauseSitemapInvalid}
	}
	good, bad := 0, []string{}
	for _, loc := range doc.Locs {
		if onOrigin(loc, s.origin) {
			good++
		} else if len(bad) < 3 {
			bad = append(bad, fmt.Sprintf("%q", loc))
		}
	}
	rec.Note = fmt.Sprintf("<%s> with %d loc(s), %d on the site's origin", doc.Kind, len(doc.Locs), good)
	if doc.Truncated {
		rec.Note += fmt.Sprintf(" (parsing stopped at %d locs)", parse.SitemapMaxLocs)
	}
	if len(doc.Locs) == 0 {
		missing := "no <loc> in the sitemap"
		if doc.Err != nil {
			missing += " (malformed XML: " + doc.Err.Error() + ")"
		}
		return outcome{verdict: Fail, missing: missing, receipt: rec, scope: scope, cause: CauseSitemapInvalid}
	}
	missing := ""
	if len(bad) > 0 {
		missing = "foreign or malformed locs: " + strings.Join(bad, ", ")
	}
	f := float64(good) / float64(len(doc.Locs))
	if doc.Err != nil && !doc.Truncated {
		missing = strings.TrimPrefix(missing+"; malformed XML: "+doc.Err.Error(), "; ")
		f = min(f, 0.5)
	}
	o := fromFraction(f, missing)
	o.receipt, o.scope = rec, scope
	o.cause = CauseSitemapForeign
	if len(bad) == 0 {
		o.cause = CauseSitemapInvalid
	}
	return o
}

// llmsPartialRules are the rules a present llms.txt can miss: each is a
// quarter of the weight.
const llmsPartialRules = 4

// checkLLMSTxt: /llms.txt is 200 text with an H1, ≥ 1 Markdown link and
// direct plain instructions (UAIX llms_minimal_instruction_required). The
// rule set is llmstxt.Evaluate's; Lighthouse's own llms-txt audit rides
// along in the receipt's details.
func checkLLMSTxt(ctx context.Context, s *site) outcome {
	const expected = "200 text/plain or text/markdown with an H1, ≥ 1 Markdown link, and direct plain instructions"
	r := s.llmsTxt(ctx)
	scope := []string{"/llms.txt"}
	if r.unreachable() {
		o := s.couldNotCheck(r, expected)
		o.scope = scope
		return o
	}
	rec := s.receiptOf(r, expected)
	ev := llmstxt.Evaluate(r.status, r.header.Get("Content-Type"), r.body)
	lh := llmstxt.Audit(r.status, r.body)
	rec.Details = map[string]any{"missing_rules": ev.Missing, "lighthouse_llms_txt": lh}
	var missing []string
	for _, id := range ev.Missing {
		missing = append(missing, llmstxt.Describe(id))
	}
	f := ev.Facts
	rec.Note = fmt.Sprintf("H1 %q, %d link(s), instructions: %t, %d bytes", f.H1, len(f.Links), f.HasInstructions, f.Size)
	var o outcome
	switch ev.Verdict {
	case llmstxt.VerdictPass:
		o = outcome{verdict: Pass, fraction: 1}
	case llmstxt.VerdictPartial:
		o = fromFraction(float64(llmsPartialRules-len(ev.Missing))/llmsPartialRules, strings.Join(missing, "; ")).because(CauseLLMsIncomplete)
	default:
		o = outcome{verdict: Fail, missing: strings.Join(missing, "; "), cause: CauseLLMsIncomplete}
		if r.status != 200 {
			o.missing, o.cause = fmt.Sprintf("no llms.txt (%d)", r.status), CauseLLMsMissing
		}
	}
	o.receipt, o.scope = rec, scope
	return o
}

// checkCapabilityManifest: agents.json, valid non-empty JSON naming what is
// published, the interfaces, how to sign in and whom to contact; twins agree.
func checkCapabilityManifest(ctx context.Context, s *site) outcome {
	const expected = "200 JSON object at /.well-known/agents.json or /agents.json with name and content/url, interfaces, authentication, contact; both copies identical"
	m := s.manifest(ctx)
	rec := s.receiptOf(m.chosen, expected)
	other := m.root
	if m.chosen == m.root {
		other = m.wellKnown
	}
	rec.Also = []Exchange{s.also(other)}
	scope := []string{"/.well-known/agents.json", "/agents.json"}
	if m.doc == nil {
		switch {
		case m.parseErr != nil:
			return outcome{verdict: Fail, missing: "agents.json is not a JSON object: " + m.parseErr.Error(), receipt: rec, scope: scope, cause: CauseManifestInvalid}
		case m.wellKnown.unreachable() && m.root.unreachable():
			o := s.couldNotCheck(m.chosen, expected)
			o.receipt, o.scope = rec, scope
			return o
		}
		return outcome{verdict: Fail, missing: "no agents.json at either address", receipt: rec, scope: scope, cause: CauseManifestMissing}
	}
	if len(m.doc) == 0 {
		return outcome{verdict: Fail, missing: "agents.json is an empty object", receipt: rec, scope: scope, cause: CauseManifestIncomplete}
	}
	var missing []string
	have := 0
	if str(m.doc, "name") != "" && (m.doc["content"] != nil || str(m.doc, "url") != "") {
		have++
	} else {
		missing = append(missing, "name and content/url (what is published)")
	}
	if _, ok := m.doc["interfaces"].([]any); ok || len(m.interfaces()) > 0 {
		have++
	} else {
		missing = append(missing, "interfaces")
	}
	if authStated(m.doc["authentication"]) {
		have++
	} else {
		missing = append(missing, "authentication")
	}
	if m.doc["contact"] != nil {
		have++
	} else {
		missing = append(missing, "contact")
	}
	f := float64(have) / 4
	if m.twinsDiffer {
		missing = append(missing, "the copies at /.well-known/agents.json and /agents.json disagree (docs/standard.md#rule-10)")
		f = min(f, 0.5)
	}
	o := fromFraction(f, strings.Join(missing, "; ")).because(CauseManifestIncomplete)
	if m.twinsDiffer {
		o.cause = CauseManifestTwins
	}
	o.receipt, o.scope = rec, scope
	return o
}

// Crawlers that fetch for AI search and citation, and for a page a person
// asked an assistant to open: only these are discovery (rule 6).
var searchAndUserAgents = []string{
	"OAI-SearchBot", "ChatGPT-User", "Claude-SearchBot", "Claude-User",
	"PerplexityBot", "Perplexity-User", "Googlebot", "Bingbot",
}

// checkCrawlerPolicy: robots.txt does not shut out AI search or
// user-initiated agents from the scanned routes; training may be refused.
func checkCrawlerPolicy(ctx context.Context, s *site) outcome {
	const expected = "robots.txt lets AI search and user-initiated agents (" + "OAI-SearchBot, ChatGPT-User, Claude-SearchBot, Claude-User, PerplexityBot, Perplexity-User, Googlebot, Bingbot" + ") fetch the scanned routes; training crawlers may be refused"
	rb := s.robots(ctx)
	rec := s.receiptOf(rb.resp, expected)
	scope := append([]string(nil), s.routes...)
	switch {
	case rb.resp.unreachable():
		o := s.couldNotCheck(rb.resp, expected)
		o.scope = scope
		return o
	case rb.doc == nil:
		// RFC 9309 §2.3.1.3: an unavailable (4xx) robots.txt allows everything.
		rec.Note = "no robots.txt: every crawler is allowed (RFC 9309 §2.3.1.3)"
		return outcome{verdict: Pass, fraction: 1, receipt: rec, scope: scope}
	}
	total, allowed := 0, 0
	var blocked []string
	for _, agent := range searchAndUserAgents {
		for _, route := range s.routes {
			total++
			if rb.doc.Allowed(agent, pathOf(route)) {
				allowed++
			} else if len(blocked) < 6 {
				blocked = append(blocked, agent+" "+pathOf(route))
			}
		}
	}
	missing := ""
	if len(blocked) > 0 {
		missing = "disallowed: " + strings.Join(blocked, ", ")
	}
	rec.Note = fmt.Sprintf("%d of %d agent×route pairs allowed", allowed, total)
	o := fromFraction(float64(allowed)/float64(total), missing).because(CauseRobotsBlocks)
	o.receipt, o.scope = rec, scope
	return o
}

// checkDiscoveryLinks: the home page's Link headers (or head <link>s) point
// to llms.txt (describedby) and agents.json (alternate).
func checkDiscoveryLinks(ctx context.Context, s *site) outcome {
	const expected = `Link: </llms.txt>; rel="describedby" and Link: </agents.json>; rel="alternate" (header or head <link>)`
	home := s.page(ctx, s.home)
	rec := s.receiptOf(home.resp, expected, "Link")
	scope := []string{s.home}
	if home.resp.unreachable() {
		o := s.couldNotCheck(home.resp, expected, "Link")
		o.scope = scope
		return o
	}
	links := s.pageLinks(home)
	llms := hasLink(links, "describedby", "llms.txt")
	agents := hasLink(links, "alternate", "agents.json")
	var missing []string
	if !llms {
		missing = append(missing, `rel="describedby" to llms.txt`)
	}
	if !agents {
		missing = append(missing, `rel="alternate" to agents.json`)
	}
	f := 0.0
	if llms {
		f += 0.5
	}
	if agents {
		f += 0.5
	}
	o := fromFraction(f, strings.Join(missing, "; ")).because(CauseDiscoveryLinksMissing)
	o.receipt, o.scope = rec, scope
	return o
}

// pageLinks returns a page's Link header links followed by its <link>
// elements.
func (s *site) pageLinks(p *page) []parse.Link {
	base, _ := url.Parse(p.url)
	if p.resp.finalURL != "" {
		base, _ = url.Parse(p.resp.finalURL)
	}
	var links []parse.Link
	if p.resp.header != nil {
		links = parse.LinkHeader(p.resp.header.Values("Link"), base)
	}
	return append(links, p.facts.Links...)
}

// hasLink reports a link with rel whose target path ends in suffix.
func hasLink(links []parse.Link, rel, suffix string) bool {
	for _, l := range links {
		if !l.HasRel(rel) {
			continue
		}
		if u, err := url.Parse(l.Target); err == nil && strings.HasSuffix(u.Path, suffix) {
			return true
		}
	}
	return false
}

func init() {
	register(map[string]checkFunc{
		"content_in_initial_html":       checkContentInInitialHTML,
		"markdown_representation":       checkMarkdownRepresentation,
		"vary_accept":                   checkVaryAccept,
		"markdown_front_matter":         checkMarkdownFrontMatter,
		"markdown_alternate_advertised": checkMarkdownAlternate,
		"browser_gets_html":             checkBrowserGetsHTML,
	})
}

// minContentWords is the visible text, in words, below which a page is an
// empty app shell rather than server-rendered content.
const minContentWords = 50

// notHTML is the route outcome of a route that did not answer with HTML.
func notHTML(p *page) routeOutcome {
	return routeFraction(0, fmt.Sprintf("%d %s", p.resp.status, p.resp.mediaType()), "no HTML page")
}

// checkContentInInitialHTML: the initial HTML carries the visible text and
// the main landmark is non-empty.
func checkContentInInitialHTML(ctx context.Context, s *site) outcome {
	expected := fmt.Sprintf("the initial HTML holds ≥ %d words of visible text outside script/style and a non-empty <main> (or role=main, <article>)", minContentWords)
	return s.perRoute(ctx, expected, nil, func(p *page) routeOutcome {
		if !p.resp.ok() || !isHTMLish(p.resp) {
			return notHTML(p)
		}
		f := p.facts
		got := fmt.Sprintf("%d words of visible text, main landmark %d characters", f.TextWords, f.MainChars)
		switch {
		case f.TextWords < minContentWords:
			return routeFraction(0, got, "visible text in the initial HTML (an empty app shell?)").because(CauseAppShell)
		case !f.HasMain:
			return routeFraction(0.5, got, "a <main> landmark").because(CauseNoMain)
		case f.MainChars == 0:
			return routeFraction(0.5, got, "text inside the <main> landmark").because(CauseNoMain)
		}
		return routePass(got)
	})
}

// markdownOf returns the answer of route to Accept: text/markdown.
func (s *site) markdownOf(ctx context.Context, route string) *response {
	return s.f.get(ctx, route, acceptMarkdown)
}

// isMarkdown reports a 200 text/markdown answer.
func isMarkdown(r *response) bool {
	return r.ok() && r.mediaType() == "text/markdown"
}

// checkMarkdownRepresentation: Accept: text/markdown gets 200
// text/markdown; charset=utf-8 (STANDARD.md §6), and so does the Accept
// real agents send, text/markdown tied with text/html (Claude Code's):
// a site that gives a tie to HTML serves Markdown to no agent in use, so
// it gets half the weight, the receipt naming the Accept that got HTML.
func checkMarkdownRepresentation(ctx context.Context, s *site) outcome {
	return s.perRoute(ctx, "200 text/markdown; charset=utf-8 for Accept: "+acceptMarkdown+" and for Accept: "+acceptAgentTie, []string{"Vary"}, func(p *page) routeOutcome {
		md := s.markdownOf(ctx, p.url)
		var ro routeOutcome
		got := recordResponse(md, []string{"Vary"}, s.opts.Redact).summary()
		switch {
		case md.unreachable():
			ro = routeCNC(md)
		case !isMarkdown(md):
			ro = whyNoMarkdown(md, got)
		case !strings.Contains(strings.ToLower(strings.ReplaceAll(md.header.Get("Content-Type"), " ", "")), "charset=utf-8"):
			ro = routeFraction(0.5, got, "charset=utf-8 on the Content-Type").because(CauseMarkdownCharset)
		default:
			tie := s.f.get(ctx, p.url, acceptAgentTie)
			switch {
			case tie.unreachable():
				ro = routeCNC(tie)
			case !isMarkdown(tie):
				ro = routeFraction(0.5, got+"; Accept: "+acceptAgentTie+" got "+orNone(tie.mediaType()),
					"Markdown for Accept: "+acceptAgentTie+" (Claude Code's; a tie with text/html goes to Markdown)").because(CauseMarkdownTieToHTML)
			default:
				ro = routePass(got + "; Accept: " + acceptAgentTie + " got text/markdown too")
			}
		}
		ro.resp = md
		return ro
	})
}

// varyHasAccept reports whether Vary names Accept or is "*" (RFC 9110 §12.5.5).
func varyHasAccept(r *response) bool {
	for _, v := range r.header.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			f = strings.TrimSpace(f)
			if strings.EqualFold(f, "accept") || f == "*" {
				return true
			}
		}
	}
	return false
}

// checkVaryAccept: both forms carry Vary naming Accept (RFC 9110 §12.5.5),
// so no cache hands one form to the other's reader.
func checkVaryAccept(ctx context.Context, s *site) outcome {
	return s.perRoute(ctx, "Vary: Accept on the HTML and on the Markdown answer", []string{"Vary"}, func(p *page) routeOutcome {
		md := s.markdownOf(ctx, p.url)
		if md.unreachable() {
			return routeCNC(md)
		}
		htmlOK, mdOK := varyHasAccept(p.resp), varyHasAccept(md)
		got := fmt.Sprintf("HTML Vary: %q; Markdown request Vary: %q", p.resp.header.Get("Vary"), md.header.Get("Vary"))
		return routeTwoParts(got, htmlOK, mdOK, "Vary: Accept on the HTML answer", "Vary: Accept on the answer to Accept: text/markdown", "Vary: Accept on both forms").because(CauseVaryMissing)
	})
}

// frontMatter reads the YAML front matter at the start of a Markdown body:
// top-level "key: value" lines between two "---" lines. ok is false when
// the body does not open with front matter.
func frontMatter(body []byte) (fields map[string]string, ok bool) {
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 1024), 64<<10)
	if !sc.Scan() || strings.TrimSpace(sc.Text()) != "---" {
		return nil, false
	}
	fields = map[string]string{}
	for n := 0; sc.Scan() && n < 200; n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "---" {
			return fields, true
		}
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			continue
		}
		k, v, found := strings.Cut(line, ":")
		if !found {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		fields[strings.ToLower(strings.TrimSpace(k))] = v
	}
	return nil, false
}

// sameURL compares two URLs ignoring a trailing slash and default ports.
func sameURL(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil || !ua.IsAbs() || !ub.IsAbs() {
		return false
	}
	return sameOrigin(ua, ub) && strings.TrimSuffix(ua.Path, "/") == strings.TrimSuffix(ub.Path, "/") && ua.RawQuery == ub.RawQuery
}

// checkMarkdownFrontMatter: the Markdown opens with front matter holding
// title, canonical (the page's own URL), updated and language.
func checkMarkdownFrontMatter(ctx context.Context, s *site) outcome {
	return s.perRoute(ctx, "the Markdown opens with --- front matter holding title, canonical (the page's own URL), updated, language", nil, func(p *page) routeOutcome {
		md := s.markdownOf(ctx, p.url)
		var ro routeOutcome
		switch fm, ok := frontMatter(md.body); {
		case md.unreachable():
			ro = routeCNC(md)
		case !isMarkdown(md):
			ro = routeFraction(0, fmt.Sprintf("%d %s", md.status, md.mediaType()), "a Markdown answer to carry front matter").because(whyNoMarkdown(md, "").cause)
		case !ok:
			ro = routeFraction(0, "Markdown without front matter", "front matter").because(CauseFrontMatterMissing)
		default:
			var have []string
			var missing []string
			cause := ""
			for _, k := range []string{"title", "canonical", "updated", "language"} {
				v := fm[k]
				switch {
				case v == "":
					missing = append(missing, k)
					if cause == "" {
						cause = "front_matter_no_" + k
					}
				case k == "canonical" && !sameURL(v, p.url) && !sameURL(v, md.finalURL):
					missing = append(missing, fmt.Sprintf("canonical %q is not the page's own URL", v))
					if cause == "" {
						cause = CauseFrontMatterCanonical
					}
				default:
					have = append(have, k)
				}
			}
			ro = routeFraction(float64(len(have))/4, "front matter with "+strings.Join(have, ", "), strings.Join(missing, ", ")).because(cause)
		}
		ro.resp = md
		return ro
	})
}

// checkMarkdownAlternate: the Link header offers the page's Markdown
// alternate (RFC 8288 rel="alternate" type="text/markdown") and the HTML
// head repeats it.
func checkMarkdownAlternate(ctx context.Context, s *site) outcome {
	const expected = `Link: <…>; rel="alternate"; type="text/markdown" and the same <link> in the HTML head`
	return s.perRoute(ctx, expected, []string{"Link"}, func(p *page) routeOutcome {
		if !p.resp.ok() || !isHTMLish(p.resp) {
			return notHTML(p)
		}
		base, _ := url.Parse(p.url)
		header := hasMarkdownAlternate(parse.LinkHeader(p.resp.header.Values("Link"), base))
		head := hasMarkdownAlternate(p.facts.Links)
		got := fmt.Sprintf("Link header alternate: %t; head <link> alternate: %t", header, head)
		return routeTwoParts(got, header, head, "the Link header", "the <link> in the HTML head", "a Markdown alternate link").because(CauseAlternateMissing)
	})
}

// hasMarkdownAlternate reports a rel=alternate type=text/markdown link.
func hasMarkdownAlternate(links []parse.Link) bool {
	for _, l := range links {
		if l.HasRel("alternate") && strings.HasPrefix(l.Type, "text/markdown") {
			return true
		}
	}
	return false
}

// checkBrowserGetsHTML: a browser's Accept and a bare */* both still get
// HTML (RFC 9110 §12.5.1: */* alone prefers nothing, so HTML stays).
func checkBrowserGetsHTML(ctx context.Context, s *site) outcome {
	return s.perRoute(ctx, "text/html for Accept: "+acceptBrowser+" and for Accept: */*", nil, func(p *page) routeOutcome {
		anyResp := s.f.get(ctx, p.url, acceptAny)
		if anyResp.unreachable() {
			return routeCNC(anyResp)
		}
		browser, star := isHTMLish(p.resp), isHTMLish(anyResp)
		got := fmt.Sprintf("browser Accept → %s; */* → %s", p.resp.mediaType(), anyResp.mediaType())
		return routeTwoParts(got, browser, star, "HTML for a browser's Accept", "HTML for Accept: */*", "HTML for browsers").because(CauseBrowserNotHTML)
	})
}

func init() {
	register(map[string]checkFunc{
		"language_declared":    checkLanguageDeclared,
		"canonical_declared":   checkCanonicalDeclared,
		"structured_identity":  checkStructuredIdentity,
		"structured_freshness": checkStructuredFreshness,
	})
}

// bcp47 matches a well-formed language tag (RFC 5646 §2.1: language,
// script, region, variants, extensions, private use; or private use alone;
// grandfathered tags are not accepted).
var bcp47 = regexp.MustCompile(`(?i)^(?:(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4}|[a-z]{5,8})(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*(?:-[0-9a-wy-z](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?|x(?:-[a-z0-9]{1,8})+)$`)

// checkLanguageDeclared: <html lang> holds a well-formed BCP 47 tag.
func checkLanguageDeclared(ctx context.Context, s *site) outcome {
	return s.perRoute(ctx, `<html lang="…"> with a well-formed BCP 47 tag (RFC 5646)`, nil, func(p *page) routeOutcome {
		switch lang := p.facts.Lang; {
		case !p.resp.ok() || !isHTMLish(p.resp):
			return routeFraction(0, fmt.Sprintf("%d %s", p.resp.status, p.resp.mediaType()), "no HTML page")
		case lang == "":
			return routeFraction(0, "<html> without lang", "lang attribute").because(CauseLangMissing)
		case !bcp47.MatchString(lang):
			return routeFraction(0, fmt.Sprintf("lang=%q", lang), fmt.Sprintf("%q is not a well-formed BCP 47 tag", lang)).because(CauseLangMalformed)
		default:
			return routePass(fmt.Sprintf("lang=%q", lang))
		}
	})
}

// checkCanonicalDeclared: <link rel="canonical"> or a Link header gives an
// absolute URL on the site's origin.
func checkCanonicalDeclared(ctx context.Context, s *site) outcome {
	return s.perRoute(ctx, `<link rel="canonical" href="…"> (or Link rel="canonical", RFC 6596) with an absolute URL on the site's origin`, []string{"Link"}, func(p *page) routeOutcome {
		if !p.resp.ok() || !isHTMLish(p.resp) {
			return routeFraction(0, fmt.Sprintf("%d %s", p.resp.status, p.resp.mediaType()), "no HTML page")
		}
		for _, l := range s.pageLinks(p) {
			if !l.HasRel("canonical") {
				continue
			}
			got := fmt.Sprintf("canonical %q", l.Raw)
			u, err := url.Parse(l.Raw)
			switch {
			case err != nil || l.Raw == "":
				return routeFraction(0, got, "canonical URL does not parse").because(CauseCanonicalBad)
			case !u.IsAbs():
				// RFC 6596 §5.2: relative canonicals are allowed but error-prone.
				return routeFraction(0.5, got, "canonical is relative, not absolute").because(CauseCanonicalRelative)
			case !sameOrigin(u, s.origin):
				return routeFraction(0, got, "canonical points off the site's origin: make it "+ownURL(p.url, s.origin)).because(CauseCanonicalOffOrigin)
			default:
				return routePass(got)
			}
		}
		return routeFraction(0, "no canonical link", `<link rel="canonical">`).because(CauseCanonicalMissing)
	})
}

// identityTypes are the schema.org types that say who you are (rule 8);
// Product and Offer count on product pages.
var identityTypes = []string{"Organization", "Corporation", "LocalBusiness", "OnlineStore", "OnlineBusiness", "NGO", "EducationalOrganization", "GovernmentOrganization", "NewsMediaOrganization", "Person", "WebSite", "Product", "Offer", "Store", "Restaurant"}

// contentTypes are the schema.org types that describe something, and so
// owe a dateModified (rule 8).
var contentTypes = []string{"Article", "BlogPosting", "NewsArticle", "TechArticle", "Report", "ScholarlyArticle", "WebPage", "AboutPage", "ContactPage", "FAQPage", "CollectionPage", "ItemPage", "ProfilePage", "QAPage", "SearchResultsPage", "Product", "Recipe", "HowTo", "Dataset", "CreativeWork", "SoftwareApplication", "Course", "Event"}

// ldSite is the JSON-LD of every reachable route.
type ldSite struct {
	nodes             []parse.LDNode
	blocks, bad, seen int
}

// ldAcross gathers the JSON-LD of every reachable route, with the receipt
// and scope of a site-wide check; cnc is set when no route could be read.
func (s *site) ldAcross(ctx context.Context, expected string) (ld ldSite, rec Receipt, scope []string, cnc *outcome) {
	var first *response
	for _, r := range s.routes {
		p := s.page(ctx, r)
		if first == nil {
			first = p.resp
		}
		if p.resp.unreachable() {
			continue
		}
		ld.seen++
		ld.nodes = append(ld.nodes, p.ld.Nodes...)
		ld.blocks += p.ld.Blocks
		ld.bad += p.ld.Bad
	}
	scope = append([]string(nil), s.routes...)
	if ld.seen == 0 {
		o := s.couldNotCheck(first, expected)
		o.scope = scope
		return ld, o.receipt, scope, &o
	}
	return ld, s.receiptOf(first, expected), scope, nil
}

// checkStructuredIdentity: JSON-LD parses and has an identity node with
// name and url. Identity is site-wide: found on any scanned route counts.
func checkStructuredIdentity(ctx context.Context, s *site) outcome {
	const expected = `<script type="application/ld+json"> that parses, with an Organization/LocalBusiness/Person/WebSite (or Product/Offer) node carrying name and url`
	ld, rec, scope, cnc := s.ldAcross(ctx, expected)
	if cnc != nil {
		return *cnc
	}
	nodes, blocks, bad := ld.nodes, ld.blocks, ld.bad
	rec.Note = fmt.Sprintf("%d JSON-LD block(s), %d failed to parse, %d node(s)", blocks, bad, len(nodes))
	if blocks == 0 {
		return outcome{verdict: Fail, missing: "no JSON-LD on the scanned routes", receipt: rec, scope: scope, cause: CauseIdentityMissing}
	}
	if bad == blocks {
		return outcome{verdict: Fail, missing: "no JSON-LD block parses", receipt: rec, scope: scope, cause: CauseJSONLDBroken}
	}
	f, missing := 0.25, "no identity node (Organization, LocalBusiness, Person, WebSite…)"
	for _, n := range nodes {
		if !n.Is(identityTypes...) {
			continue
		}
		if n.Has("name") && n.Has("url") {
			f, missing = 1, ""
			rec.Note += fmt.Sprintf("; identity: %s %q", strings.Join(n.Types, ","), str(n.Props, "name"))
			break
		}
		f, missing = 0.5, fmt.Sprintf("%s node lacks name or url", strings.Join(n.Types, ","))
	}
	if bad > 0 {
		f = min(f, 0.75)
		missing = strings.TrimPrefix(missing+fmt.Sprintf("; %d JSON-LD block(s) fail to parse", bad), "; ")
	}
	o := fromFraction(f, missing)
	o.receipt, o.scope = rec, scope
	switch {
	case bad > 0 && f >= 0.75:
		o.cause = CauseJSONLDBroken
	case f < 1:
		o.cause = CauseIdentityMissing
	}
	return o
}

// checkStructuredFreshness: content-type nodes carry dateModified; never
// asked of the identity node (rule 8). N/A with no content-type node.
func checkStructuredFreshness(ctx context.Context, s *site) outcome {
	const expected = "every content-type JSON-LD node (Article, WebPage, Product…) carries dateModified"
	ld, rec, scope, cnc := s.ldAcross(ctx, expected)
	if cnc != nil {
		return *cnc
	}
	total, dated := 0, 0
	var undated []string
	for _, n := range ld.nodes {
		if !n.Is(contentTypes...) {
			continue
		}
		total++
		if n.Has("dateModified") {
			dated++
		} else if len(undated) < 5 {
			undated = append(undated, strings.Join(n.Types, ","))
		}
	}
	if total == 0 {
		rec.Note = "no content-type node on the scanned routes"
		return outcome{verdict: NotApplicable, receipt: rec, scope: scope}
	}
	rec.Note = fmt.Sprintf("%d of %d content node(s) carry dateModified", dated, total)
	missing := ""
	if len(undated) > 0 {
		missing = "dateModified on " + strings.Join(undated, "; ")
	}
	o := fromFraction(float64(dated)/float64(total), missing)
	o.receipt, o.scope = rec, scope
	o.cause = CauseDateModifiedMissing
	return o
}
