package ard

import (
	"context"
	"encoding/json"
	"errors"
	"html"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// vectors mirrors testdata/lighthouse-ard-test-vectors.json.
type vectors struct {
	ValidatorCases []struct {
		ID       string          `json:"id"`
		Raw      *string         `json:"raw"`
		Manifest json.RawMessage `json:"manifest"`
		Expect   validatorExpect `json:"expect"`
	} `json:"validator_cases"`
	MediaTypeCountCases []struct {
		ID        string          `json:"id"`
		Manifest  json.RawMessage `json:"manifest"`
		Generator string          `json:"generator"`
		File      string          `json:"file"`
		Expect    struct {
			Errors, Warnings, Infos int
			OutputContains          string `json:"output_contains"`
		} `json:"expect"`
	} `json:"media_type_count_cases"`
	AuditCases []struct {
		ID       string       `json:"id"`
		Artifact artifactJSON `json:"artifact"`
		Expect   auditExpect  `json:"expect"`
	} `json:"audit_cases"`
	GathererCases []gathererCase `json:"gatherer_cases"`
	ParseCases    struct {
		Agentmap []struct {
			RobotsTxt *string `json:"robotsTxt"`
			Expect    *string `json:"expect"`
		} `json:"agentmap"`
		LinkHeader []struct {
			Link   string `json:"link"`
			Expect struct{ Ard, Legacy *string }
		} `json:"linkHeader"`
		BaseURL string `json:"baseUrl"`
	} `json:"parse_cases"`
}

type findingExpect struct {
	Element         string `json:"element"`
	Message         string `json:"message"`
	MessageContains string `json:"message_contains"`
	MessageRegex    string `json:"message_regex"`
}

func (e findingExpect) match(f Finding) bool {
	switch {
	case e.Element != "" && f.Element != e.Element:
		return false
	case e.Message != "" && f.Message != e.Message:
		return false
	case e.MessageContains != "" && !strings.Contains(f.Message, e.MessageContains):
		return false
	case e.MessageRegex != "" && !regexp.MustCompile(e.MessageRegex).MatchString(f.Message):
		return false
	}
	return true
}

type validatorExpect struct {
	Passes          *bool           `json:"passes"`
	ErrorsEmpty     bool            `json:"errors_empty"`
	WarningsEmpty   bool            `json:"warnings_empty"`
	InfosEmpty      bool            `json:"infos_empty"`
	ErrorsContain   []string        `json:"errors_contain"`
	WarningsContain []string        `json:"warnings_contain"`
	InfosContain    []string        `json:"infos_contain"`
	ErrorsInclude   []findingExpect `json:"errors_include"`
	WarningsExact   []findingExpect `json:"warnings_exact"`
}

type artifactJSON struct {
	Status        *int               `json:"status"`
	Content       *string            `json:"content"`
	CatalogURL    string             `json:"catalogUrl"`
	Source        string             `json:"discoverySource"`
	Signals       map[string]*string `json:"discoverySignals"`
	FailedSources []struct {
		Source string `json:"source"`
		URL    string `json:"url"`
		Status *int   `json:"status"`
	} `json:"failedSources"`
}

func (a artifactJSON) discovery() Discovery {
	d := Discovery{CatalogURL: a.CatalogURL, Source: a.Source, Signals: map[string]string{}}
	if a.Status != nil {
		d.Status = *a.Status
	}
	if a.Content != nil {
		d.Content = []byte(*a.Content)
	}
	for k, v := range a.Signals {
		if v != nil {
			d.Signals[k] = *v
		}
	}
	for _, f := range a.FailedSources {
		fs := FailedSource{Source: f.Source, URL: f.URL}
		if f.Status != nil {
			fs.Status = *f.Status
		}
		d.FailedSources = append(d.FailedSources, fs)
	}
	return d
}

type rowExpect struct {
	Element       string `json:"element"`
	Severity      string `json:"severity"`
	Issue         string `json:"issue"`
	IssueContains string `json:"issue_contains"`
}

func (e rowExpect) check(t *testing.T, r Row) {
	t.Helper()
	if e.Element != "" && r.Element != e.Element {
		t.Errorf("row element = %q, want %q", r.Element, e.Element)
	}
	if e.Severity != "" && r.Severity != e.Severity {
		t.Errorf("row severity = %q, want %q", r.Severity, e.Severity)
	}
	if e.Issue != "" && r.Message != e.Issue {
		t.Errorf("row issue = %q, want %q", r.Message, e.Issue)
	}
	if e.IssueContains != "" && !strings.Contains(r.Message, e.IssueContains) {
		t.Errorf("row issue = %q, want it to contain %q", r.Message, e.IssueContains)
	}
}

type auditExpect struct {
	Score         float64         `json:"score"`
	NotApplicable *bool           `json:"notApplicable"`
	Explanation   string          `json:"explanation"`
	FirstItem     *rowExpect      `json:"first_item"`
	Items         []rowExpect     `json:"items"`
	IssuesInclude []string        `json:"issues_include"`
	Details       json.RawMessage `json:"details"`
}

type gathererCase struct {
	ID         string            `json:"id"`
	RobotsTxt  *string           `json:"robotsTxt"`
	DOMLinks   map[string]string `json:"domLinks"`
	LinkHeader string            `json:"linkHeader"`
	Responses  map[string]struct {
		Status  *int    `json:"status"`
		Content *string `json:"content"`
	} `json:"responses"`
	FetchThrows string `json:"fetchThrows"`
	Expect      struct {
		CatalogURL    *string         `json:"catalogUrl"`
		Source        *string         `json:"discoverySource"`
		Status        json.RawMessage `json:"status"`
		FailedSources *[]FailedSource `json:"failedSources"`
		Fetched       []string        `json:"fetched"`
		Content       json.RawMessage `json:"content"`
		ErrorMessage  string          `json:"errorMessage"`
	} `json:"expect"`
}

const pageURL = "https://example.com/page"

func loadVectors(t testing.TB) vectors {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "lighthouse-ard-test-vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decoding vectors: %v", err)
	}
	return v
}

func messages(fs []Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Message
	}
	return out
}

func containsSub(list []string, sub string) bool {
	return slices.ContainsFunc(list, func(s string) bool { return strings.Contains(s, sub) })
}

func TestValidatorVectors(t *testing.T) {
	v := loadVectors(t)
	if len(v.ValidatorCases) == 0 {
		t.Fatal("no validator cases")
	}
	for _, c := range v.ValidatorCases {
		t.Run(c.ID, func(t *testing.T) {
			raw := []byte(c.Manifest)
			if c.Raw != nil {
				raw = []byte(*c.Raw)
			}
			r := Validate(raw)
			e := c.Expect
			t.Logf("result: %+v", r)
			if e.Passes != nil && r.Passed() != *e.Passes {
				t.Errorf("Passed() = %v, want %v", r.Passed(), *e.Passes)
			}
			for _, chk := range []struct {
				empty bool
				list  []Finding
				name  string
			}{{e.ErrorsEmpty, r.Errors, "errors"}, {e.WarningsEmpty, r.Warnings, "warnings"}, {e.InfosEmpty, r.Infos, "infos"}} {
				if chk.empty && len(chk.list) > 0 {
					t.Errorf("%s = %v, want none", chk.name, chk.list)
				}
			}
			for _, chk := range []struct {
				subs []string
				list []Finding
				name string
			}{{e.ErrorsContain, r.Errors, "errors"}, {e.WarningsContain, r.Warnings, "warnings"}, {e.InfosContain, r.Infos, "infos"}} {
				for _, s := range chk.subs {
					if !containsSub(messages(chk.list), s) {
						t.Errorf("%s %q: none contains %q", chk.name, messages(chk.list), s)
					}
				}
			}
			for _, want := range e.ErrorsInclude {
				if !slices.ContainsFunc(r.Errors, want.match) {
					t.Errorf("errors %v: none matches %+v", r.Errors, want)
				}
			}
			if e.WarningsExact != nil {
				if len(r.Warnings) != len(e.WarningsExact) {
					t.Fatalf("warnings = %v, want %d", r.Warnings, len(e.WarningsExact))
				}
				for i, want := range e.WarningsExact {
					if !want.match(r.Warnings[i]) {
						t.Errorf("warning %d = %+v, want %+v", i, r.Warnings[i], want)
					}
				}
			}
		})
	}
}

// isSchemaError reports whether a finding comes from JSON Schema validation.
func isSchemaError(f Finding) bool {
	return strings.HasPrefix(f.Message, "ArdManifest validation failed") ||
		strings.HasPrefix(f.Message, "ArdEntry validation failed")
}

func TestMediaTypeCountVectors(t *testing.T) {
	v := loadVectors(t)
	for _, c := range v.MediaTypeCountCases {
		t.Run(c.ID, func(t *testing.T) {
			raw := []byte(c.Manifest)
			switch {
			case c.File != "":
				var err error
				if raw, err = os.ReadFile(filepath.Join("testdata", c.File)); err != nil {
					t.Fatal(err)
				}
			case c.Generator != "":
				raw = longInvalidManifest()
			}
			r := Validate(raw)
			var schemaErrs, ruleErrs []Finding
			for _, f := range r.Errors {
				if isSchemaError(f) {
					schemaErrs = append(schemaErrs, f)
				} else {
					ruleErrs = append(ruleErrs, f)
				}
			}
			// Upstream counts without JSON Schema validation (_source note); the
			// schema flags `type: 123` under Root and under the entry.
			wantSchema := 0
			if c.ID == "non-string-does-not-abort" {
				wantSchema = 2
			}
			if len(schemaErrs) != wantSchema {
				t.Errorf("schema errors = %v, want %d", schemaErrs, wantSchema)
			}
			if len(ruleErrs) != c.Expect.Errors || len(r.Warnings) != c.Expect.Warnings || len(r.Infos) != c.Expect.Infos {
				t.Errorf("(errors, warnings, infos) = (%d, %d, %d), want (%d, %d, %d)\n%+v",
					len(ruleErrs), len(r.Warnings), len(r.Infos), c.Expect.Errors, c.Expect.Warnings, c.Expect.Infos, r)
			}
			all := append(append(messages(r.Errors), messages(r.Warnings)...), messages(r.Infos)...)
			if c.Expect.OutputContains != "" && !containsSub(all, c.Expect.OutputContains) {
				t.Errorf("no message contains %q: %q", c.Expect.OutputContains, all)
			}
		})
	}
}

// longInvalidManifest is the generator of "long-invalid-no-backtracking":
// type = 'application/' + 'a!'*5000 + 'é'.
func longInvalidManifest() []byte {
	e := map[string]any{
		"identifier":            "urn:air:media-types.test:fixture:entry-1",
		"displayName":           "Media type fixture 1",
		"type":                  "application/" + strings.Repeat("a!", 5000) + "é",
		"url":                   "https://media-types.test/artifacts/1",
		"representativeQueries": []string{"find media type fixture 1", "locate extension artifact 1"},
	}
	b, _ := json.Marshal(map[string]any{"entries": []any{e}})
	return b
}

func TestAuditVectors(t *testing.T) {
	v := loadVectors(t)
	for _, c := range v.AuditCases {
		t.Run(c.ID, func(t *testing.T) {
			res := Audit(c.Artifact.discovery())
			e := c.Expect
			if res.Score != e.Score {
				t.Errorf("score = %v, want %v (rows %+v)", res.Score, e.Score, res.Rows)
			}
			wantNA := e.NotApplicable != nil && *e.NotApplicable
			if res.NotApplicable != wantNA {
				t.Errorf("notApplicable = %v, want %v", res.NotApplicable, wantNA)
			}
			if e.Explanation != "" && res.Explanation != e.Explanation {
				t.Errorf("explanation = %q, want %q", res.Explanation, e.Explanation)
			}
			if string(e.Details) == "null" && len(res.Rows) != 0 {
				t.Errorf("rows = %+v, want none", res.Rows)
			}
			if e.FirstItem != nil {
				if len(res.Rows) == 0 {
					t.Fatal("no rows")
				}
				e.FirstItem.check(t, res.Rows[0])
			}
			if e.Items != nil {
				if len(res.Rows) != len(e.Items) {
					t.Fatalf("rows = %+v, want %d", res.Rows, len(e.Items))
				}
				for i, want := range e.Items {
					want.check(t, res.Rows[i])
				}
			}
			for _, s := range e.IssuesInclude {
				if !slices.ContainsFunc(res.Rows, func(r Row) bool { return strings.Contains(r.Message, s) }) {
					t.Errorf("rows %+v: none contains %q", res.Rows, s)
				}
			}
		})
	}
}

func TestGathererVectors(t *testing.T) {
	v := loadVectors(t)
	for _, c := range v.GathererCases {
		t.Run(c.ID, func(t *testing.T) {
			var fetched []string
			fetch := func(_ context.Context, u string) Response {
				fetched = append(fetched, u)
				if c.FetchThrows != "" {
					return Response{Err: errors.New(c.FetchThrows)}
				}
				r, ok := c.Responses[u]
				if !ok {
					return Response{Status: 404}
				}
				resp := Response{}
				if r.Status != nil {
					resp.Status = *r.Status
				}
				if r.Content != nil {
					resp.Body = []byte(*r.Content)
				}
				return resp
			}
			var page strings.Builder
			page.WriteString("<!doctype html><html><head><title>t</title>")
			for _, rel := range []string{"ard", "legacy"} {
				if href, ok := c.DOMLinks[rel]; ok {
					name := map[string]string{"ard": "ard", "legacy": "ai-catalog"}[rel]
					page.WriteString(`<link rel="` + name + `" href="` + html.EscapeString(href) + `">`)
				}
			}
			page.WriteString("</head><body></body></html>")
			hdr := http.Header{}
			if c.LinkHeader != "" {
				hdr.Set("Link", c.LinkHeader)
			}
			d := Discover(context.Background(), fetch, pageURL, c.RobotsTxt, []byte(page.String()), hdr)
			e := c.Expect
			if e.CatalogURL != nil && d.CatalogURL != *e.CatalogURL {
				t.Errorf("catalogUrl = %q, want %q", d.CatalogURL, *e.CatalogURL)
			}
			if e.Source != nil && d.Source != *e.Source {
				t.Errorf("discoverySource = %q, want %q", d.Source, *e.Source)
			}
			if e.Status != nil {
				want := 0
				_ = json.Unmarshal(e.Status, &want) // null stays 0
				if d.Status != want {
					t.Errorf("status = %d, want %d", d.Status, want)
				}
			}
			if string(e.Content) == "null" && d.Content != nil {
				t.Errorf("content = %q, want null", d.Content)
			}
			if e.FailedSources != nil && !slices.Equal(d.FailedSources, *e.FailedSources) {
				t.Errorf("failedSources = %+v, want %+v", d.FailedSources, *e.FailedSources)
			}
			if e.Fetched != nil && !slices.Equal(fetched, e.Fetched) {
				t.Errorf("fetched = %q, want %q", fetched, e.Fetched)
			}
			if d.ErrorMessage != e.ErrorMessage {
				t.Errorf("errorMessage = %q, want %q", d.ErrorMessage, e.ErrorMessage)
			}
		})
	}
}

func TestParseVectors(t *testing.T) {
	v := loadVectors(t)
	base := v.ParseCases.BaseURL
	for i, c := range v.ParseCases.Agentmap {
		robots, want := "", ""
		if c.RobotsTxt != nil {
			robots = *c.RobotsTxt
		}
		if c.Expect != nil {
			want = *c.Expect
		}
		if got := ParseAgentmap(robots, base); got != want {
			t.Errorf("agentmap case %d: ParseAgentmap = %q, want %q", i, got, want)
		}
	}
	for i, c := range v.ParseCases.LinkHeader {
		ard, legacy := ParseLinkHeader([]string{c.Link}, base)
		deref := func(p *string) string {
			if p == nil {
				return ""
			}
			return *p
		}
		if ard != deref(c.Expect.Ard) || legacy != deref(c.Expect.Legacy) {
			t.Errorf("link case %d: got (%q, %q), want (%q, %q)", i, ard, legacy, deref(c.Expect.Ard), deref(c.Expect.Legacy))
		}
	}
}
