package selfcheck

import (
	"context"
	"fmt"
	"net/url"
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
