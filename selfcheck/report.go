package selfcheck

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// SchemaVersion is the version of the JSON report schema documented in
// docs/report-schema.md. It changes only when a field changes meaning or
// disappears; added fields keep it.
const SchemaVersion = "1.1"

// StandardName and StandardRevision name the standard the report scores under.
const (
	StandardName     = "AI Agent Ready"
	StandardRevision = "1.2"
)

// Version is the scanner's version, sent in the User-Agent and recorded in
// every report.
const Version = "0.1.0"

// Report is the one result object of a scan. The JSON, Markdown and HTML
// renderings are all produced from it.
type Report struct {
	// SchemaVersion is the version of this JSON shape (see SchemaVersion).
	SchemaVersion string `json:"schema_version"`
	// Standard names the standard and the revision scored.
	Standard StandardRef `json:"standard"`
	// Scanner names the program that produced the report.
	Scanner ScannerRef `json:"scanner"`
	// Target is the URL the scan started from, normalised.
	Target string `json:"target"`
	// TargetNote says why this URL was scanned, when the program that ran
	// the scan chose it (a server scanning its own site names the setting
	// it took the address from). Empty: the URL was given.
	TargetNote string `json:"target_note,omitempty"`
	// Started is when the scan began (UTC).
	Started time.Time `json:"started"`
	// DurationMS is how long the scan took, in milliseconds.
	DurationMS int64 `json:"duration_ms"`
	// Score is 100 × Earned ÷ Applicable, rounded to one decimal; 0 when
	// nothing applies.
	Score float64 `json:"score"`
	// Earned is the sum of the points earned by scored checks.
	Earned float64 `json:"earned"`
	// Applicable is the sum of the weights of scored checks that apply
	// (everything but NOT_APPLICABLE; COULD_NOT_CHECK stays in).
	Applicable float64 `json:"applicable"`
	// Routes lists the pages the scan actually read: the home page first,
	// then the pages picked from the sitemap (or, without one, from the
	// home page's links) to represent the site's sections and page kinds.
	// Page-level findings describe these routes and no others.
	Routes []string `json:"routes"`
	// Sections holds the six sections in order.
	Sections []SectionResult `json:"sections"`
	// Checks holds the 35 checks in catalogue order.
	Checks []CheckResult `json:"checks"`
	// CouldNotCheck lists the ids of checks whose verdict is COULD_NOT_CHECK.
	CouldNotCheck []string `json:"could_not_check"`
	// Unverified lists what the scanner cannot measure without credentials
	// (always execution_tested); never counted for or against the site.
	Unverified []UnverifiedLine `json:"unverified"`
	// Checkpoints is the second lens (STANDARD.md §11): the 28 agent-protocol
	// checkpoints in catalogue order. Never changes the score. (Schema 1.1.)
	Checkpoints []CheckpointResult `json:"checkpoints"`
	// CheckpointSummary counts the checkpoints per verdict. (Schema 1.1.)
	CheckpointSummary CheckpointSummary `json:"checkpoint_summary"`
	// Plan is the fix-first plan: fixes ranked by score points recovered
	// per unit of effort, then by strength and kind. (Schema 1.1.)
	Plan []PlanItem `json:"plan"`
	// Lint is the third lens (STANDARD.md §12): the 20 UAIX rules and the
	// executability level. Never changes the score. (Schema 1.1.)
	Lint *LintReport `json:"lint"`
}

// StandardRef names a standard and its revision.
type StandardRef struct {
	// Name is the standard's name ("AI Agent Ready").
	Name string `json:"name"`
	// Revision is the revision scored ("1.2").
	Revision string `json:"revision"`
}

// ScannerRef names the scanner and its version.
type ScannerRef struct {
	// Name is "agentready-selfcheck".
	Name string `json:"name"`
	// Version is the scanner's Version.
	Version string `json:"version"`
}

// SectionResult is one section's total.
type SectionResult struct {
	// ID is the section id (discover, understand, read, act, connect, trust).
	ID Section `json:"id"`
	// Title is the section's display name.
	Title string `json:"title"`
	// Points is what the section is worth in the standard.
	Points float64 `json:"points"`
	// Earned is the sum of points earned by its checks.
	Earned float64 `json:"earned"`
	// Applicable is the sum of weights of its checks that apply.
	Applicable float64 `json:"applicable"`
	// Unverified lists what the section cannot prove without credentials
	// (Connect: execution_tested whenever a backend interface applies).
	// Rule 3: such a section is never presented as perfect, even when it
	// earns every applicable point; the points themselves are never
	// withheld (an UNVERIFIED line is never held against the site, §3).
	Unverified []string `json:"unverified,omitempty"`
}

// Perfect reports a section that earned every applicable point and has
// nothing left unverified.
func (s SectionResult) Perfect() bool {
	return s.Applicable > 0 && s.Earned >= s.Applicable && len(s.Unverified) == 0
}

// label is the section's points as the Markdown and HTML reports print
// them: "earned / applicable", with the unverified part named.
func (s SectionResult) label() string {
	l := num(s.Earned) + " / " + num(s.Applicable)
	if len(s.Unverified) > 0 {
		l += ", not perfect: " + strings.Join(s.Unverified, ", ") + " UNVERIFIED"
	}
	return l
}

// CheckResult is one check's verdict with its receipt.
type CheckResult struct {
	// ID is the stable check id of the catalogue.
	ID string `json:"id"`
	// Title says in a few words what passes.
	Title string `json:"title"`
	// Section is the check's section ("optional" for unscored checks).
	Section Section `json:"section"`
	// Requirement is R1..R10, or empty for a supporting diagnostic.
	Requirement string `json:"requirement,omitempty"`
	// Weight is the check's points in the standard (0 when optional).
	Weight float64 `json:"weight"`
	// Earned is Weight × Fraction for PASS and PARTIAL, else 0.
	Earned float64 `json:"earned"`
	// Verdict is one of the seven verdicts.
	Verdict Verdict `json:"verdict"`
	// Fraction is the share of the weight earned (PARTIAL states it).
	Fraction float64 `json:"fraction"`
	// Missing names what is missing for PARTIAL and FAIL, or why the check
	// could not be made for COULD_NOT_CHECK.
	Missing string `json:"missing,omitempty"`
	// Found reports, for optional checks, whether the feature was found.
	Found *bool `json:"found,omitempty"`
	// Scope lists the routes the finding describes.
	Scope []string `json:"scope"`
	// Receipt is the evidence: the call made, what was expected, what came
	// back.
	Receipt Receipt `json:"receipt"`
	// fix is a site.yaml snippet built from the site's own values (a
	// WebMCP annotation of the form the scan found), preferred by the plan.
	fix string
}

// UnverifiedLine is a finding the scanner reports on its own line because it
// would need credentials (rule 1: tested execution).
type UnverifiedLine struct {
	// ID names the finding ("execution_tested").
	ID string `json:"id"`
	// Section is the section it belongs to.
	Section Section `json:"section"`
	// Verdict is always Unverified.
	Verdict Verdict `json:"verdict"`
	// Reason says why the scanner cannot measure it.
	Reason string `json:"reason"`
}

// Verdict is the single outcome of a check (STANDARD.md §3); none is rounded
// into another.
type Verdict string

// The seven verdicts of STANDARD.md §3.
const (
	// Pass: what the rule expects came back; full weight.
	Pass Verdict = "PASS"
	// Partial: part is in place; a stated fraction of the weight, and the
	// receipt names the missing part.
	Partial Verdict = "PARTIAL"
	// Fail: asked for, nothing there; zero.
	Fail Verdict = "FAIL"
	// Optional: an unsettled rule, noted found or not found; no points.
	Optional Verdict = "OPTIONAL"
	// NotApplicable: the rule does not apply; leaves the denominator.
	NotApplicable Verdict = "NOT_APPLICABLE"
	// CouldNotCheck: refused, timeout, redirect loop, oversize, 5xx; keeps
	// its weight, earns zero, listed separately.
	CouldNotCheck Verdict = "COULD_NOT_CHECK"
	// Unverified: measurable only with credentials the scanner never holds.
	Unverified Verdict = "UNVERIFIED"
)

// outcome is what a check decides before it is weighed: a verdict, the
// fraction of the weight earned (1 for PASS, 0 for FAIL, strictly between for
// PARTIAL), what is missing, and the receipt.
type outcome struct {
	verdict  Verdict
	fraction float64
	missing  string
	found    *bool
	receipt  Receipt
	scope    []string
	cause    string // why it did not pass (Receipt.Cause)
	fix      string // a site.yaml snippet built from the site's own values
}

// because sets the outcome's cause and returns it.
func (o outcome) because(cause string) outcome {
	o.cause = cause
	return o
}

// fromFraction turns a fraction into PASS, PARTIAL or FAIL.
func fromFraction(f float64, missing string) outcome {
	switch {
	case f >= 1:
		return outcome{verdict: Pass, fraction: 1}
	case f <= 0:
		return outcome{verdict: Fail, missing: missing}
	default:
		// A PARTIAL never rounds into a PASS or a FAIL.
		return outcome{verdict: Partial, fraction: min(max(round2(f), 0.01), 0.99), missing: missing}
	}
}

// round2 rounds to two decimals so that fractions and points print stably.
func round2(f float64) float64 {
	if f < 0 {
		return -round2(-f)
	}
	return float64(int64(f*100+0.5)) / 100
}

// score fills the totals of r from its checks (STANDARD.md §1): optional
// checks never score; NOT_APPLICABLE leaves the denominator;
// COULD_NOT_CHECK keeps its weight and earns nothing.
func (r *Report) score() {
	r.Sections = r.Sections[:0]
	r.Earned, r.Applicable = 0, 0
	r.CouldNotCheck = []string{}
	bySection := map[Section]*SectionResult{}
	for _, s := range Sections() {
		r.Sections = append(r.Sections, SectionResult{ID: s.ID, Title: s.Title, Points: s.Points})
	}
	for i := range r.Sections {
		bySection[r.Sections[i].ID] = &r.Sections[i]
	}
	for i := range r.Checks {
		c := &r.Checks[i]
		switch c.Verdict {
		case Pass:
			c.Fraction = 1
		case Partial:
		default:
			c.Fraction = 0
		}
		c.Earned = round2(c.Weight * c.Fraction)
		if c.Verdict == CouldNotCheck {
			r.CouldNotCheck = append(r.CouldNotCheck, c.ID)
		}
		s := bySection[c.Section]
		if s == nil || c.Verdict == NotApplicable || c.Verdict == Optional || c.Verdict == Unverified {
			continue
		}
		s.Earned = round2(s.Earned + c.Earned)
		s.Applicable += c.Weight
		r.Earned = round2(r.Earned + c.Earned)
		r.Applicable += c.Weight
	}
	// Rule 3: no perfect Connect score on missing evidence. Wherever a
	// backend interface applies (R9 is not NOT_APPLICABLE), tested
	// execution stays UNVERIFIED and the section says so.
	if c := r.checkByID("backend_interface_declared"); c != nil && c.Verdict != NotApplicable {
		if s := bySection[SectionConnect]; s != nil {
			for _, u := range r.Unverified {
				s.Unverified = append(s.Unverified, u.ID)
			}
		}
	}
	r.Score = 0
	if r.Applicable > 0 {
		r.Score = float64(int64(1000*r.Earned/r.Applicable+0.5)) / 10
	}
}

// excerptLimit is the longest body excerpt a receipt keeps, in bytes.
const excerptLimit = 240

// Receipt is the evidence behind a verdict (STANDARD.md §4): the call made,
// the answer the standard expects, and the answer actually received.
type Receipt struct {
	// Request is the main call the check made (nil when it made none).
	Request *RequestRecord `json:"request,omitempty"`
	// Expected states the answer the standard expects.
	Expected string `json:"expected"`
	// Received is what the main call got back.
	Received *ResponseRecord `json:"received,omitempty"`
	// Also lists further calls the check relied on, in order.
	Also []Exchange `json:"also,omitempty"`
	// Routes holds the per-route findings of a page-level check.
	Routes []RouteFinding `json:"routes,omitempty"`
	// Details holds structured evidence of checks that record more than one
	// exchange (mcp_transport, ard_manifest…).
	Details any `json:"details,omitempty"`
	// Note is a free-text observation (what was found, how it was judged).
	Note string `json:"note,omitempty"`
	// Cause is the stable id of why the check did not pass (for a
	// page-level check, the cause of its worst route), from which the
	// fix-first plan takes its advice; empty on a PASS. docs/standard.md
	// lists every check's causes.
	Cause string `json:"cause,omitempty"`
}

// RequestRecord is a request as a receipt records it: only the headers that
// shape the answer, credentials redacted.
type RequestRecord struct {
	// Method is the HTTP method.
	Method string `json:"method"`
	// URL is the URL asked for, credentials redacted.
	URL string `json:"url"`
	// Header holds the request headers that shape the answer (Accept…).
	Header map[string]string `json:"header,omitempty"`
}

// ResponseRecord is a response as a receipt records it.
type ResponseRecord struct {
	// Status is the HTTP status code, 0 when no response came back.
	Status int `json:"status"`
	// ContentType is the Content-Type header.
	ContentType string `json:"content_type,omitempty"`
	// Header holds the headers relevant to the check, credentials redacted.
	Header map[string]string `json:"header,omitempty"`
	// Excerpt is the start of the body (valid UTF-8, at most 240 bytes).
	Excerpt string `json:"excerpt,omitempty"`
	// URL is the final URL when redirects were followed.
	URL string `json:"url,omitempty"`
	// Error says why no usable response came back (refused, timeout,
	// redirect loop, oversize…).
	Error string `json:"error,omitempty"`
}

// Exchange is one request with its response.
type Exchange struct {
	// Request is the call made.
	Request RequestRecord `json:"request"`
	// Received is what came back.
	Received ResponseRecord `json:"received"`
}

// RouteFinding is one route's share of a page-level check.
type RouteFinding struct {
	// Route is the page's URL.
	Route string `json:"route"`
	// Verdict is the route's own verdict.
	Verdict Verdict `json:"verdict"`
	// Fraction is the route's share of the weight (0..1).
	Fraction float64 `json:"fraction"`
	// Received summarises what the route answered.
	Received string `json:"received,omitempty"`
	// Missing names what the route lacks.
	Missing string `json:"missing,omitempty"`
	// Cause is the stable id of why the route did not pass.
	Cause string `json:"cause,omitempty"`
}

// recordRequest builds the request half of a receipt.
func recordRequest(req request, redact []string) *RequestRecord {
	rr := &RequestRecord{Method: req.method, URL: redactURL(req.url)}
	if req.accept != "" {
		rr.Header = map[string]string{"Accept": req.accept}
	}
	for k, v := range req.header {
		if rr.Header == nil {
			rr.Header = map[string]string{}
		}
		rr.Header[k] = redactHeaderValue(k, v, redact)
	}
	return rr
}

// recordResponse builds the received half of a receipt, keeping only the
// named headers.
func recordResponse(resp *response, headers []string, redact []string) *ResponseRecord {
	rr := &ResponseRecord{Status: resp.status, Error: resp.errText()}
	if resp.finalURL != "" && resp.finalURL != resp.req.url {
		rr.URL = redactURL(resp.finalURL)
	}
	if resp.header != nil {
		rr.ContentType = resp.header.Get("Content-Type")
		for _, h := range headers {
			vals := resp.header.Values(h)
			if len(vals) == 0 {
				continue
			}
			if rr.Header == nil {
				rr.Header = map[string]string{}
			}
			rr.Header[http.CanonicalHeaderKey(h)] = redactHeaderValue(h, strings.Join(vals, ", "), redact)
		}
	}
	rr.Excerpt = excerpt(resp.body)
	return rr
}

// exchange records a request and its response.
func exchange(resp *response, headers []string, redact []string) Exchange {
	return Exchange{Request: *recordRequest(resp.req, redact), Received: *recordResponse(resp, headers, redact)}
}

// excerpt returns the start of body as valid UTF-8, whitespace collapsed.
func excerpt(body []byte) string {
	if len(body) == 0 {
		return ""
	}
	b := body
	if len(b) > excerptLimit {
		b = b[:excerptLimit]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
	}
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	s = redactText(strings.Join(strings.Fields(s), " "))
	if len(body) > excerptLimit {
		s += " …"
	}
	return s
}

// summary renders a response record on one line, as §4 prints "received".
func (rr *ResponseRecord) summary() string {
	if rr == nil {
		return ""
	}
	if rr.Error != "" {
		return "no answer: " + rr.Error
	}
	var b strings.Builder
	b.WriteString(itoa(rr.Status))
	if rr.ContentType != "" {
		b.WriteString(" " + rr.ContentType)
	}
	for _, k := range slices.Sorted(maps.Keys(rr.Header)) {
		b.WriteString("; " + k + ": " + rr.Header[k])
	}
	return b.String()
}
