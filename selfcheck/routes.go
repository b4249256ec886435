package selfcheck

import (
	"context"
	"net/url"
	"regexp"
	"strings"
)

// formPagePath matches a path segment of a page that likely holds a form
// (contact, search, sign-up, quote, order…): the route picker reads one
// such page when there is one, so that the Act checks see a form.
var formPagePath = regexp.MustCompile(`(?i)^(?:contact(?:-us)?|search|signup|sign-up|register|subscribe|newsletter|quote|get-a-quote|book(?:ing)?|order|checkout|feedback|support|help|demo|request-demo|apply|login|sign-in)(?:\.html?|\.php)?$`)

// pickRoutes chooses up to n pages that represent the site from the
// candidates (sitemap order, or the home page's links): a page that likely
// holds a form first, when there is one; then one page per section (the
// first path segment), sections in the order they first appear,
// alternating listing pages (a path ending in / or index.html) and
// content pages, round after round, until n are picked.
func pickRoutes(candidates []string, n int) []string {
	if n <= 0 {
		return nil
	}
	type section struct {
		listing, content []string
	}
	var order []string
	sections := map[string]*section{}
	var form string
	for _, c := range candidates {
		u, err := url.Parse(c)
		if err != nil {
			continue
		}
		segs := strings.Split(strings.Trim(u.Path, "/"), "/")
		if form == "" && formPagePath.MatchString(segs[len(segs)-1]) {
			form = c
			continue
		}
		key := segs[0]
		if len(segs) == 1 {
			key = "" // top-level pages are one section
		}
		sec := sections[key]
		if sec == nil {
			sec = &section{}
			sections[key] = sec
			order = append(order, key)
		}
		if strings.HasSuffix(u.Path, "/") || strings.HasSuffix(u.Path, "/index.html") {
			sec.listing = append(sec.listing, c)
		} else {
			sec.content = append(sec.content, c)
		}
	}
	var out []string
	if form != "" {
		out = append(out, form)
	}
	rounds := 0
	for _, sec := range sections {
		rounds = max(rounds, 2*len(sec.content), 2*len(sec.listing))
	}
	// Round r takes each section's content page r/2 (even r) or listing
	// page r/2 (odd r): content first, it holds what agents read.
	for round := 0; round < rounds && len(out) < n; round++ {
		for _, key := range order {
			sec := sections[key]
			list := sec.content
			if round%2 == 1 {
				list = sec.listing
			}
			if i := round / 2; i < len(list) && len(out) < n {
				out = append(out, list[i])
			}
		}
	}
	return out
}

// homeLinks returns the home page's same-origin links, in page order,
// fragments dropped: the candidates of a site without a sitemap.
func (s *site) homeLinks(ctx context.Context) []string {
	home := s.page(ctx, s.home)
	var out []string
	for _, a := range home.facts.Anchors {
		u, err := url.Parse(a)
		if err != nil || !onOrigin(a, s.origin) || !pageLike(u.Path) {
			continue
		}
		u.Fragment = ""
		if u.Path == "" {
			u.Path = "/"
		}
		out = append(out, u.String())
	}
	return out
}

// pageLike reports a path that names a page rather than a file: no
// extension, or an HTML one.
func pageLike(p string) bool {
	last := p[strings.LastIndex(p, "/")+1:]
	i := strings.LastIndex(last, ".")
	if i < 0 {
		return true
	}
	switch strings.ToLower(last[i+1:]) {
	case "html", "htm", "php", "asp", "aspx", "jsp":
		return true
	}
	return false
}

// routeOutcome is one route's share of a page-level check.
type routeOutcome struct {
	verdict  Verdict // Pass, Partial, Fail, NotApplicable or CouldNotCheck
	fraction float64
	received string
	missing  string
	resp     *response // the answer judged, when not the page's HTML
	cause    string    // why the route did not pass
	fix      string    // a site.yaml snippet built from the route's page
}

// because sets the route's cause and returns it.
func (ro routeOutcome) because(cause string) routeOutcome {
	if ro.verdict != Pass {
		ro.cause = cause
	}
	return ro
}

// routePass, routeFail, routeNA and routeFraction build route outcomes.
func routePass(received string) routeOutcome {
	return routeOutcome{verdict: Pass, fraction: 1, received: received}
}

func routeNA(received string) routeOutcome {
	return routeOutcome{verdict: NotApplicable, received: received}
}

func routeFraction(f float64, received, missing string) routeOutcome {
	o := fromFraction(f, missing)
	if o.verdict == Pass {
		missing = ""
	}
	return routeOutcome{verdict: o.verdict, fraction: o.fraction, received: received, missing: missing}
}

// routeCNC is a route whose answer never came back or was a 5xx.
func routeCNC(r *response) routeOutcome {
	return routeOutcome{verdict: CouldNotCheck, received: r.errText(), missing: r.errText()}
}

// perRoute runs fn on every scanned route and folds the results as
// STANDARD.md §7 says: PASS when all routes pass, PARTIAL when some do, the
// receipt listing each route. Routes that do not apply leave the check; a
// route that could not be checked counts as zero and is named; when no
// applicable route could be checked the check is COULD_NOT_CHECK.
func (s *site) perRoute(ctx context.Context, expected string, headers []string, fn func(p *page) routeOutcome) outcome {
	var (
		findings   []RouteFinding
		scope      []string
		sum        float64
		applicable int
		cnc        int
		missing    []string
		main       *response
		worst      = 2.0
		cause, fix string
	)
	for _, route := range s.routes {
		p := s.page(ctx, route)
		var ro routeOutcome
		if p.resp.unreachable() {
			ro = routeCNC(p.resp)
		} else {
			ro = fn(p)
		}
		ro.fraction = round2(ro.fraction)
		if main == nil {
			main = p.resp
			if ro.resp != nil {
				main = ro.resp
			}
		}
		findings = append(findings, RouteFinding{Route: route, Verdict: ro.verdict, Fraction: ro.fraction, Received: ro.received, Missing: ro.missing, Cause: ro.cause})
		if ro.cause != "" && ro.verdict != NotApplicable && ro.fraction < worst {
			worst, cause = ro.fraction, ro.cause
		}
		if fix == "" {
			fix = ro.fix
		}
		if ro.verdict == NotApplicable {
			continue
		}
		applicable++
		scope = append(scope, route)
		sum += ro.fraction
		if ro.verdict == CouldNotCheck {
			cnc++
		}
		if ro.missing != "" {
			missing = append(missing, pathOf(route)+": "+ro.missing)
		}
	}
	rec := s.receiptOf(main, expected, headers...)
	rec.Routes = findings
	var o outcome
	switch {
	case applicable == 0:
		o = outcome{verdict: NotApplicable, missing: "no scanned route applies"}
	case cnc == applicable:
		o = outcome{verdict: CouldNotCheck, missing: strings.Join(missing, "; ")}
	default:
		o = fromFraction(sum/float64(applicable), strings.Join(missing, "; "))
	}
	o.receipt, o.scope = rec, scope
	if o.verdict != Pass && o.verdict != NotApplicable {
		o.cause, o.fix = cause, fix
	}
	if o.scope == nil {
		o.scope = append([]string(nil), s.routes...)
	}
	return o
}

// routeTwoParts judges a route where two things must hold: both is a PASS,
// one is half the weight (naming the other), neither is a FAIL.
func routeTwoParts(got string, a, b bool, missingA, missingB, missingBoth string) routeOutcome {
	switch {
	case a && b:
		return routePass(got)
	case a:
		return routeFraction(0.5, got, missingB)
	case b:
		return routeFraction(0.5, got, missingA)
	}
	return routeFraction(0, got, missingBoth)
}
