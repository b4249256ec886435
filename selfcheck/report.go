package selfcheck

import (
	"strings"
	"time"
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
