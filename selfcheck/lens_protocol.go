package selfcheck

import (
	"context"
	"fmt"
	"strings"
)

// protocolLens is the second lens (STANDARD.md §11): the 28 agent-protocol
// checkpoints of the IsAgentReady methodology, each with a verdict, a
// receipt, the fix and a read-only command a person can paste to verify it.
// It runs after the 100-point lens and never changes the score; where a
// checkpoint judges the same fact as a scored check (CheckpointInfo.Agrees)
// the two verdicts agree (TestLensesAgree).
type protocolLens struct{}

// Strength is a checkpoint's strength (RFC 2119 words); it never changes a
// score.
type Strength string

// The three strengths of STANDARD.md §11.
const (
	Must   Strength = "MUST"
	Should Strength = "SHOULD"
	May    Strength = "MAY"
)

// CheckpointInfo is one entry of the checkpoint catalogue.
type CheckpointInfo struct {
	// ID is the stable id ("ia.mcp-live").
	ID string `json:"id"`
	// Legacy is the methodology's numbering ("4.20").
	Legacy string `json:"legacy"`
	// Strength is MUST, SHOULD or MAY.
	Strength Strength `json:"strength"`
	// Title says in a few words what passes.
	Title string `json:"title"`
	// Agrees names the scored check that judges the same fact, if any.
	Agrees string `json:"agrees,omitempty"`
	// Fix is the change that makes the checkpoint pass.
	Fix string `json:"fix"`
	// Verify is a read-only shell command (curl, jq) that checks the fix;
	// {origin} stands for the site's origin.
	Verify string `json:"verify"`
}

// CheckpointResult is one checkpoint's verdict with its receipt.
type CheckpointResult struct {
	// ID, Legacy, Strength and Title repeat the catalogue entry.
	ID       string   `json:"id"`
	Legacy   string   `json:"legacy"`
	Strength Strength `json:"strength"`
	Title    string   `json:"title"`
	// Agrees names the scored check judging the same fact, if any.
	Agrees string `json:"agrees,omitempty"`
	// Verdict is PASS, PARTIAL, FAIL, NOT_APPLICABLE or COULD_NOT_CHECK.
	Verdict Verdict `json:"verdict"`
	// Missing names what is missing, or why it could not be checked.
	Missing string `json:"missing,omitempty"`
	// Fix is the change that makes it pass (empty on PASS and N/A).
	Fix string `json:"fix,omitempty"`
	// Verify is the read-only command that checks it, for this site.
	Verify string `json:"verify"`
	// Scope lists the addresses the finding describes.
	Scope []string `json:"scope"`
	// Receipt is the evidence.
	Receipt Receipt `json:"receipt"`
}

// checkpointFunc decides one checkpoint; r holds the scored checks already
// judged, which checkpoints judging the same fact read.
type checkpointFunc func(ctx context.Context, s *site, r *Report) outcome

// checkpointFuncs maps every checkpoint id to its implementation; filled
// by the protocol_*.go files.
var checkpointFuncs = map[string]checkpointFunc{}

// registerCheckpoints adds implementations; called from init.
func registerCheckpoints(fns map[string]checkpointFunc) {
	for id, fn := range fns {
		checkpointFuncs[id] = fn
	}
}

// Checkpoints returns a copy of the checkpoint catalogue in report order.
func Checkpoints() []CheckpointInfo {
	return append([]CheckpointInfo(nil), checkpoints...)
}

// run judges every checkpoint, in catalogue order.
func (protocolLens) run(ctx context.Context, s *site, r *Report) {
	r.Checkpoints = make([]CheckpointResult, 0, len(checkpoints))
	for _, c := range checkpoints {
		if s.opts.Only != "" && s.opts.Only != c.ID {
			continue
		}
		r.Checkpoints = append(r.Checkpoints, checkpointResult(s, c, runCheckpoint(ctx, s, r, c)))
	}
}

// unreachable records every checkpoint COULD_NOT_CHECK.
func (protocolLens) unreachable(s *site, home *response, r *Report) {
	for _, c := range checkpoints {
		if s.opts.Only != "" && s.opts.Only != c.ID {
			continue
		}
		o := s.couldNotCheck(home, "the home page answers")
		o.scope = []string{s.home}
		r.Checkpoints = append(r.Checkpoints, checkpointResult(s, c, o))
	}
}

// runCheckpoint runs one checkpoint, turning a panic into COULD_NOT_CHECK.
func runCheckpoint(ctx context.Context, s *site, r *Report, c CheckpointInfo) (o outcome) {
	fn := checkpointFuncs[c.ID]
	if fn == nil {
		return outcome{verdict: CouldNotCheck, missing: "checkpoint not implemented"}
	}
	defer func() {
		if v := recover(); v != nil {
			o = outcome{verdict: CouldNotCheck, missing: fmt.Sprintf("internal error: %v", v)}
		}
	}()
	return fn(ctx, s, r)
}

// checkpointResult turns an outcome into the report entry.
func checkpointResult(s *site, c CheckpointInfo, o outcome) CheckpointResult {
	res := CheckpointResult{
		ID: c.ID, Legacy: c.Legacy, Strength: c.Strength, Title: c.Title, Agrees: c.Agrees,
		Verdict: o.verdict, Missing: redactText(o.missing), Scope: redactAll(o.scope),
		Verify: strings.ReplaceAll(c.Verify, "{origin}", strings.TrimSuffix(s.origin.String(), "/")),
	}
	if res.Scope == nil {
		res.Scope = []string{}
	}
	if o.verdict == Partial || o.verdict == Fail {
		res.Fix = c.Fix
	}
	// Route findings come from s.scored, redacted there; the note passes
	// the redactor once more.
	res.Receipt = o.receipt
	res.Receipt.Note = redactText(res.Receipt.Note)
	return res
}

// CheckpointSummary counts checkpoint verdicts.
type CheckpointSummary struct {
	// Total is the number of checkpoints judged.
	Total int `json:"total"`
	// ByVerdict counts them per verdict.
	ByVerdict map[Verdict]int `json:"by_verdict"`
	// MustFailing lists MUST checkpoints that FAIL.
	MustFailing []string `json:"must_failing"`
}

// checkpointSummary counts the checkpoints of r.
func (r *Report) checkpointSummary() CheckpointSummary {
	cs := CheckpointSummary{ByVerdict: map[Verdict]int{}, MustFailing: []string{}}
	for _, c := range r.Checkpoints {
		cs.Total++
		cs.ByVerdict[c.Verdict]++
		if c.Strength == Must && c.Verdict == Fail {
			cs.MustFailing = append(cs.MustFailing, c.ID)
		}
	}
	return cs
}

// checkpointByID returns the checkpoint with id, or nil.
func (r *Report) checkpointByID(id string) *CheckpointResult {
	for i := range r.Checkpoints {
		if r.Checkpoints[i].ID == id {
			return &r.Checkpoints[i]
		}
	}
	return nil
}
