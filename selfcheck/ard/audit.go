package ard

import "strconv"

// Severity labels of the audit table, as Lighthouse shows them.
const (
	SeverityError = "Error"
	SeverityLow   = "Low"
)

// Lighthouse's audit strings.
const (
	// ExplanationNotLoaded is the explanation when no manifest could be validated.
	ExplanationNotLoaded = "ARD manifest could not be loaded for schema validation."
	msgLegacyDiscovery   = "Manifest was only found through a legacy location " +
		"(`/.well-known/ai-catalog.json` or `rel=\"ai-catalog\"`). ARD consumers are not " +
		"required to check these, so ARD consumers may not discover your resources. Serve the " +
		"manifest at `/.well-known/ard.json` or link it with `rel=\"ard\"`."
	msgSourceFetchFailed = "Advertised ARD manifest location could not be loaded."
)

// Row is one line of the audit table: the element (Root, an entry label or a
// URL), the severity (Error or Low) and the issue.
type Row struct {
	Element  string `json:"element"`
	Severity string `json:"severity"`
	Message  string `json:"issue"`
}

// AuditResult is the `ard-schema` audit's verdict: Score 1 (clean), 0.9
// (valid with warnings), 0 (any error, or an advertised manifest that did not
// load); NotApplicable (with Score 1) when nothing was found or advertised.
type AuditResult struct {
	// Score is 1, 0.9 or 0 (1 when not applicable).
	Score float64 `json:"score"`
	// NotApplicable is set when no manifest was found and none advertised.
	NotApplicable bool `json:"notApplicable,omitempty"`
	// Explanation is ExplanationNotLoaded when no manifest could be validated.
	Explanation string `json:"explanation,omitempty"`
	// Rows is the audit table: errors, then warnings, then broken
	// advertised locations, then the legacy-location note. Infos are not
	// shown, as in Lighthouse; they stay in Validation.
	Rows []Row `json:"rows"`
	// Validation is the full validator output (empty when nothing loaded).
	Validation Result `json:"validation"`
	// Discovery is the input, kept for the receipt.
	Discovery Discovery `json:"discovery"`
}

// Audit scores a discovery as Lighthouse's ard-schema audit does.
func Audit(d Discovery) AuditResult {
	res := AuditResult{Discovery: d, Rows: []Row{}}
	explicit := false
	for _, s := range sourcePriority {
		if advertised(s) && d.Signals[s] != "" {
			explicit = true
		}
	}
	clientError := d.Status >= 400 && d.Status < 500
	if !explicit && clientError {
		res.Score, res.NotApplicable = 1, true
		return res
	}
	if d.Status == 0 || d.Status >= 400 || len(d.Content) == 0 {
		for _, f := range d.FailedSources {
			res.Rows = append(res.Rows, failedSourceRow(f, SeverityError))
		}
		res.Score, res.Explanation = 0, ExplanationNotLoaded
		return res
	}

	res.Validation = Validate(d.Content)
	for _, f := range res.Validation.Errors {
		res.Rows = append(res.Rows, Row{f.Element, SeverityError, f.Message})
	}
	for _, f := range res.Validation.Warnings {
		res.Rows = append(res.Rows, Row{f.Element, SeverityLow, f.Message})
	}
	for _, f := range d.FailedSources {
		res.Rows = append(res.Rows, failedSourceRow(f, SeverityLow))
	}
	switch d.Source {
	case SourceLegacyHTMLLink, SourceLegacyHTTPHeaderLink, SourceLegacyWellKnown:
		res.Rows = append(res.Rows, Row{d.CatalogURL, SeverityLow, msgLegacyDiscovery})
	}
	switch {
	case len(res.Validation.Errors) > 0:
		res.Score = 0
	case len(res.Rows) > 0:
		res.Score = 0.9
	default:
		res.Score = 1
	}
	return res
}

func failedSourceRow(f FailedSource, severity string) Row {
	msg := msgSourceFetchFailed
	if f.Status != 0 {
		msg = "Advertised ARD manifest location could not be loaded (HTTP status " + strconv.Itoa(f.Status) + ")."
	}
	return Row{f.URL, severity, msg}
}
