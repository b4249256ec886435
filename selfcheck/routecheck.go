package selfcheck

import (
	"context"
	"strings"
)

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
