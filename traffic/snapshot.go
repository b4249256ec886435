package traffic

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"
)

// SnapshotVersion is the version of the Snapshot JSON and of the saved file.
const SnapshotVersion = 1

// fileFormat names the saved file's format.
const fileFormat = "caddy-agentready-traffic"

// A Snapshot is a copy of a Store's counts: exactly what
// GET /agent-ready/traffic.json serves and what Save writes. All counts are
// since Since.
type Snapshot struct {
	// Version is SnapshotVersion.
	Version int `json:"version"`
	// Since is when counting began (the earliest start of the counts
	// merged in by Load).
	Since time.Time `json:"since"`
	// Generated is when the snapshot was taken.
	Generated time.Time `json:"generated"`
	// Totals are the counts of every request.
	Totals Counts `json:"totals"`
	// Purposes are the counts per purpose ("training", "search", "user",
	// "agent", "bot", "tool", "headless", "browser", "unknown"), in that
	// order, those with requests only.
	Purposes []PurposeCounts `json:"purposes"`
	// Clients are the counts per client, most requests first.
	Clients []ClientStats `json:"clients"`
	// Minutes is the per-minute series of the last 24 hours.
	Minutes Series `json:"minutes"`
	// Hours is the per-hour series of the last 30 days.
	Hours Series `json:"hours"`
	// Verifier are the verifier's counters, when the caller adds them.
	Verifier *VerifierStats `json:"verifier,omitempty"`
	// Fleet, when instances share their counts (package fleet), is each
	// instance's part of the totals; the other fields are then the
	// fleet's sums.
	Fleet []InstanceCounts `json:"fleet,omitempty"`
}

// InstanceCounts are one instance's part of a fleet's counts.
type InstanceCounts struct {
	// Instance is the instance's id.
	Instance string `json:"instance"`
	// Self marks the instance that answered.
	Self bool `json:"self,omitempty"`
	// Saved is when the instance last wrote its counts (now for Self).
	Saved time.Time `json:"saved"`
	// Totals are the instance's counts.
	Totals Counts `json:"totals"`
}

// Counts are the counters of a set of requests.
type Counts struct {
	// Requests is the number of requests.
	Requests uint64 `json:"requests"`
	// Bytes is the body bytes served.
	Bytes uint64 `json:"bytes"`
	// MarkdownTokens is the Markdown tokens served.
	MarkdownTokens uint64 `json:"markdown_tokens"`
	// TokensSaved is the estimated tokens saved against the HTML.
	TokensSaved uint64 `json:"tokens_saved"`
	// Blocked is the requests enforcement answered with 403.
	Blocked uint64 `json:"blocked"`
}

func (c *Counts) add(o Counts) {
	c.Requests += o.Requests
	c.Bytes += o.Bytes
	c.MarkdownTokens += o.MarkdownTokens
	c.TokensSaved += o.TokensSaved
	c.Blocked += o.Blocked
}

// PurposeCounts are the counts of one purpose.
type PurposeCounts struct {
	// Purpose is the purpose or client class.
	Purpose string `json:"purpose"`
	Counts
}

// ClientStats are the counts of one client (an agent, a generic client,
// "browser", or "other" per purpose).
type ClientStats struct {
	// Client is the agent's or client's name ("browser", "other").
	Client string `json:"client"`
	// Label is the bounded metrics label value (Classification.Label).
	Label string `json:"label"`
	// Purpose is its purpose or client class.
	Purpose string `json:"purpose"`
	// Operator is the agent's operator, for agents.
	Operator string `json:"operator,omitempty"`
	// Totals are the client's counts.
	Totals Counts `json:"totals"`
	// Verification counts the requests by verification state.
	Verification VerificationCounts `json:"verification"`
	// Cells are the non-zero counts by form, status class and verification.
	Cells []Cell `json:"cells"`
	// TopPages are the tracked pages, most requested first (at most
	// StoreConfig.TopPages). Each count may be over by at most its error.
	TopPages []PageCount `json:"top_pages"`
}

// VerificationCounts are requests by verification state.
type VerificationCounts struct {
	Verified   uint64 `json:"verified"`
	Unverified uint64 `json:"unverified"`
	Failed     uint64 `json:"failed"`
}

// Cell are the counts of one form, status class and verification state.
type Cell struct {
	// Form is "html", "markdown", "discovery", "mcp", "ask" or "other".
	Form string `json:"form"`
	// Status is "1xx" … "5xx", or "other".
	Status string `json:"status"`
	// Verification is "verified", "unverified" or "failed".
	Verification string `json:"verification"`
	Counts
}

// PageCount is one tracked page of a client.
type PageCount struct {
	// Path is the page path, without query.
	Path string `json:"path"`
	// Count is its (over)estimated request count.
	Count uint64 `json:"count"`
	// Error bounds the overestimate: the true count is within
	// [Count-Error, Count].
	Error uint64 `json:"error"`
}

// Series is a time series, one point per step, oldest first, ending with
// the step that holds Generated.
type Series struct {
	// StepSeconds is the step: 60 or 3600.
	StepSeconds int64 `json:"step_seconds"`
	// Start is the start of the first point.
	Start time.Time `json:"start"`
	// Requests are the requests per point, by purpose (purposes with
	// requests only).
	Requests map[string][]uint64 `json:"requests"`
	// Markdown is the Markdown responses per point.
	Markdown []uint64 `json:"markdown"`
	// TokensSaved is the tokens saved per point.
	TokensSaved []uint64 `json:"tokens_saved"`
	// Blocked is the blocked requests per point.
	Blocked []uint64 `json:"blocked"`
}

// Snapshot copies the store's counts.
func (s *Store) Snapshot() Snapshot {
	now := s.cfg.Now()
	snap := Snapshot{Version: SnapshotVersion, Since: time.Unix(0, s.since.Load()).UTC(), Generated: now.UTC(),
		Purposes: []PurposeCounts{}, Clients: []ClientStats{},
		Minutes: s.minutes.snapshot(now), Hours: s.hours.snapshot(now)}
	var purposes [len(purposeSlots)]Counts
	for _, r := range *s.rows.Load() {
		cs := ClientStats{Client: r.key.name, Label: r.label, Purpose: r.key.purpose, Operator: r.operator,
			Cells: []Cell{}, TopPages: r.pages.top()}
		for f := range numForms {
			for st := range numStatus {
				for v := range numVerif {
					c := &r.cells[f][st][v]
					n := Counts{Requests: c.requests.Load(), Bytes: c.bytes.Load(), MarkdownTokens: c.tokens.Load(),
						TokensSaved: c.saved.Load(), Blocked: c.blocked.Load()}
					if n == (Counts{}) {
						continue
					}
					cs.Cells = append(cs.Cells, Cell{Form: formNames[f], Status: statusNames[st],
						Verification: verificationNames[v], Counts: n})
					cs.Totals.add(n)
					switch Verification(v) {
					case Verified:
						cs.Verification.Verified += n.Requests
					case Failed:
						cs.Verification.Failed += n.Requests
					default:
						cs.Verification.Unverified += n.Requests
					}
				}
			}
		}
		if cs.Totals.Requests == 0 && len(cs.TopPages) == 0 {
			continue
		}
		purposes[purposeIndex(r.key.purpose)].add(cs.Totals)
		snap.Totals.add(cs.Totals)
		snap.Clients = append(snap.Clients, cs)
	}
	for i, c := range purposes {
		if c.Requests > 0 {
			snap.Purposes = append(snap.Purposes, PurposeCounts{Purpose: purposeSlots[i], Counts: c})
		}
	}
	slices.SortFunc(snap.Clients, func(a, b ClientStats) int {
		if c := cmp.Compare(b.Totals.Requests, a.Totals.Requests); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(a.Client, b.Client), cmp.Compare(a.Purpose, b.Purpose))
	})
	return snap
}

// savedFile is the shape of the file Save writes.
type savedFile struct {
	Format   string   `json:"format"`
	Version  int      `json:"version"`
	Snapshot Snapshot `json:"snapshot"`
}

// Save writes the store's counts as versioned JSON (the Snapshot in an
// envelope naming the format), for Load after a restart.
func (s *Store) Save(w io.Writer) error {
	enc := json.NewEncoder(w)
	if err := enc.Encode(savedFile{Format: fileFormat, Version: SnapshotVersion, Snapshot: s.Snapshot()}); err != nil {
		return fmt.Errorf("saving traffic counts: %w", err)
	}
	return nil
}

// MaxSavedBytes bounds what Load reads.
const MaxSavedBytes = 64 << 20

// Load adds counts saved by Save into the store (which may already hold
// counts of its own). Rows map by client name and purpose; past MaxRows
// they go to "other". Series points older than the series' reach are
// dropped. A file of another format or version is an error and changes
// nothing; unknown forms, statuses or states in a cell skip that cell.
func (s *Store) Load(r io.Reader) error {
	data, err := io.ReadAll(io.LimitReader(r, MaxSavedBytes+1))
	if err != nil {
		return fmt.Errorf("loading traffic counts: %w", err)
	}
	if len(data) > MaxSavedBytes {
		return fmt.Errorf("loading traffic counts: file over %d bytes", MaxSavedBytes)
	}
	var f savedFile
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("loading traffic counts: %w", err)
	}
	if f.Format != fileFormat || f.Version != SnapshotVersion {
		return fmt.Errorf("loading traffic counts: format %q version %d, want %q version %d", f.Format, f.Version, fileFormat, SnapshotVersion)
	}
	snap := f.Snapshot
	if snap.Clients == nil {
		return errors.New("loading traffic counts: no clients")
	}
	now := s.cfg.Now()
	if since := snap.Since.UnixNano(); !snap.Since.IsZero() && snap.Since.Before(now) && since < s.since.Load() {
		s.since.Store(since)
	}
	for _, c := range snap.Clients {
		if c.Client == "" || len(c.Client) > 64 {
			continue
		}
		purpose := purposeSlots[purposeIndex(c.Purpose)]
		label := c.Label
		if !validLabel(label) {
			label = OtherLabel
		}
		operator := c.Operator
		if len(operator) > 128 {
			operator = operator[:128]
		}
		row := s.row(rowKey{c.Client, purpose}, operator, label)
		for _, cl := range c.Cells {
			fm, ok1 := parseForm(cl.Form)
			st, ok2 := parseStatus(cl.Status)
			v, ok3 := parseVerification(cl.Verification)
			if !ok1 || !ok2 || !ok3 {
				continue
			}
			dst := &row.cells[fm][st][v]
			dst.requests.Add(cl.Requests)
			dst.bytes.Add(cl.Bytes)
			dst.tokens.Add(cl.MarkdownTokens)
			dst.saved.Add(cl.TokensSaved)
			dst.blocked.Add(cl.Blocked)
		}
		for _, p := range c.TopPages {
			if p.Count > 0 && p.Error <= p.Count {
				row.pages.add(PagePath(p.Path), p.Count, p.Error)
			}
		}
	}
	s.minutes.merge(snap.Minutes, now)
	s.hours.merge(snap.Hours, now)
	return nil
}

// validLabel reports whether a loaded label is one the classifier can give.
func validLabel(l string) bool {
	return slices.Contains(Labels(), l)
}
