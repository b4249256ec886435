package selfcheck

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/agentready/caddy-agentready/selfcheck/internal/parse"
)

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
