package selfcheck

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/agentready/caddy-agentready/selfcheck/ard"
	"github.com/agentready/caddy-agentready/selfcheck/internal/parse"
	"github.com/agentready/caddy-agentready/selfcheck/mcpprobe"
	"github.com/tiktoken-go/tokenizer"
	"github.com/tiktoken-go/tokenizer/codec"
)

func init() {
	register(map[string]checkFunc{
		"ard_manifest":       checkARDManifest,
		"a2a_agent_card":     checkA2ACard,
		"mcp_server_card":    checkMCPServerCard,
		"agent_skills_index": checkAgentSkills,
		"api_catalog":        checkAPICatalog,
		"content_signals":    checkContentSignals,
		"markdown_tokens":    checkMarkdownTokens,
		"nlweb_ask":          checkNLWebAsk,
	})
}

// optional builds the outcome of an unscored check: found or not, with a
// note saying what was seen.
func optional(found bool, rec Receipt, note string, scope ...string) outcome {
	rec.Note = note
	return outcome{verdict: Optional, found: &found, receipt: rec, scope: scope}
}

// optionalDoc reports a JSON document found at one of paths, or why not.
func (s *site) optionalDoc(ctx context.Context, expected string, paths ...string) (jsonResult, Receipt, string, bool) {
	j := s.jsonDoc(ctx, paths...)
	rec := s.receiptOf(j.resp, expected)
	for _, t := range j.tried {
		if t != j.resp {
			rec.Also = append(rec.Also, s.also(t))
		}
	}
	switch {
	case j.doc != nil && len(j.doc) == 0:
		// STANDARD.md §9: an empty {} passes no discovery check.
		return j, rec, "found an empty {} document", false
	case j.doc != nil:
		return j, rec, "", true
	case j.parseErr != nil:
		return j, rec, "found but not a JSON object: " + j.parseErr.Error(), false
	case j.allUnreachable():
		return j, rec, "could not check: " + j.resp.errText(), false
	}
	return j, rec, fmt.Sprintf("not found (%d)", j.resp.status), false
}

// ardFetcher adapts the scan's shared, memoising fetcher to ard.Fetcher, so
// that the ARD discovery reads the same answers as the other checks.
func (s *site) ardFetcher() ard.Fetcher {
	return func(ctx context.Context, u string) ard.Response {
		r := s.f.get(ctx, u, acceptJSON)
		out := ard.Response{Status: r.status, Header: r.header, Body: r.body}
		if r.failed() {
			out.Err = errors.New(r.errText())
			out.Body = nil
		}
		return out
	}
}

// checkARDManifest: the Lighthouse ard-schema audit (STANDARD.md §8) with
// its own 1 / 0.9 / 0 / N/A score and Root/entry table; unscored here.
func checkARDManifest(ctx context.Context, s *site) outcome {
	home := s.page(ctx, s.home)
	var robots *string
	if rb := s.robots(ctx); rb.doc != nil {
		txt := string(rb.resp.body)
		robots = &txt
	}
	d := ard.Discover(ctx, s.ardFetcher(), home.resp.finalURLOrReq().String(), robots, home.resp.body, home.resp.header)
	res := ard.Audit(d)
	rec := Receipt{
		Request:  &RequestRecord{Method: "GET", URL: redactURL(d.CatalogURL), Header: map[string]string{"Accept": acceptJSON}},
		Expected: "an ARD manifest (robots Agentmap, rel=\"ard\", Link rel=\"ard\", /.well-known/ard.json) that validates against ARD v0.91",
		Received: &ResponseRecord{Status: d.Status, ContentType: d.Header.Get("Content-Type"), Excerpt: excerpt(d.Content), Error: d.ErrorMessage},
		Details: map[string]any{
			"score": res.Score, "notApplicable": res.NotApplicable, "explanation": res.Explanation,
			"discoverySource": d.Source, "rows": res.Rows, "failedSources": d.FailedSources,
		},
	}
	scope := pathOf(d.CatalogURL)
	if res.NotApplicable {
		return optional(false, rec, "no ARD manifest found or advertised (audit not applicable)", scope)
	}
	return optional(true, rec, fmt.Sprintf("ard-schema audit score %g (%d row(s)), found via %s", res.Score, len(res.Rows), d.Source), scope)
}

// checkA2ACard: an A2A 1.0 agent card (name, description, version,
// capabilities, supportedInterfaces); a 0.3 card (top-level url) is partial.
func checkA2ACard(ctx context.Context, s *site) outcome {
	j, rec, why, ok := s.optionalDoc(ctx, "A2A 1.0 card with name, description, version, capabilities and supportedInterfaces", "/.well-known/agent-card.json", "/.well-known/agent.json")
	scope := pathOf(j.resp.req.url)
	if !ok {
		return optional(false, rec, why, scope)
	}
	var missing []string
	for _, k := range []string{"name", "description", "version", "capabilities", "supportedInterfaces"} {
		if j.doc[k] == nil {
			missing = append(missing, k)
		}
	}
	switch {
	case len(missing) == 0:
		return optional(true, rec, "A2A 1.0 card", scope)
	case j.doc["url"] != nil && j.doc["supportedInterfaces"] == nil:
		return optional(true, rec, "A2A 0.3 card (top-level url), partial; missing: "+strings.Join(missing, ", "), scope)
	}
	return optional(true, rec, "card missing: "+strings.Join(missing, ", "), scope)
}

// checkMCPServerCard: an MCP server card valid against the v1 schema.
func checkMCPServerCard(ctx context.Context, s *site) outcome {
	_, rec, why, ok := s.optionalDoc(ctx, "an MCP server card valid against server-card.schema.json (v1)", "/.well-known/mcp/server-card.json", "/.well-known/mcp.json", "/.well-known/mcp/server-cards.json")
	card := s.serverCard(ctx)
	scope := pathOf(card.resp.req.url)
	if !ok {
		return optional(false, rec, why, scope)
	}
	msg, err := mcpprobe.ValidateServerCard(card.doc)
	switch {
	case err != nil:
		return optional(true, rec, "found; schema unavailable: "+err.Error(), scope)
	case msg != "":
		if len(msg) > 300 {
			msg = msg[:300] + " …"
		}
		return optional(true, rec, "found; invalid against the v1 schema: "+msg, scope)
	}
	return optional(true, rec, fmt.Sprintf("valid v1 server card %q", str(card.doc, "name")), scope)
}

// skillsMaxArtifacts bounds the artifacts fetched to verify digests.
const skillsMaxArtifacts = 5

// checkAgentSkills: the agent-skills index v0.2.0, every skill with name,
// type, description, url and a sha256 digest matching its artifact.
func checkAgentSkills(ctx context.Context, s *site) outcome {
	j, rec, why, ok := s.optionalDoc(ctx, "agent-skills index v0.2.0: every skill has name, type, description, url and a sha256: digest matching the artifact", "/.well-known/agent-skills/index.json")
	scope := "/.well-known/agent-skills/index.json"
	if !ok {
		return optional(false, rec, why, scope)
	}
	skills, _ := j.doc["skills"].([]any)
	var problems []string
	if !strings.Contains(str(j.doc, "$schema"), "0.2.0") {
		problems = append(problems, "$schema is not the 0.2.0 discovery schema")
	}
	matched, fetched := 0, 0
	for i, sk := range skills {
		o, _ := sk.(map[string]any)
		name := fmt.Sprintf("skill #%d", i+1)
		if str(o, "name") != "" {
			name = str(o, "name")
		}
		for _, k := range []string{"name", "type", "description", "url", "digest"} {
			if str(o, k) == "" {
				problems = append(problems, name+" lacks "+k)
			}
		}
		digest := str(o, "digest")
		if !strings.HasPrefix(digest, "sha256:") || str(o, "url") == "" || fetched >= skillsMaxArtifacts {
			continue
		}
		u := parse.Resolve(j.resp.finalURLOrReq(), str(o, "url"))
		if !onOrigin(u, s.origin) {
			continue
		}
		fetched++
		art := s.f.get(ctx, u, acceptAny)
		rec.Also = append(rec.Also, s.also(art))
		sum := sha256.Sum256(art.body)
		if art.ok() && strings.EqualFold(strings.TrimPrefix(digest, "sha256:"), hex.EncodeToString(sum[:])) {
			matched++
		} else {
			problems = append(problems, name+": digest does not match the fetched artifact")
		}
	}
	note := fmt.Sprintf("%d skill(s), %d of %d digest(s) verified", len(skills), matched, fetched)
	if len(skills) == 0 {
		problems = append(problems, "no skills")
	}
	if len(problems) > 0 {
		note += "; " + strings.Join(problems[:min(len(problems), 6)], "; ")
	}
	return optional(true, rec, note, scope)
}

// checkAPICatalog: an RFC 9727 api-catalog, application/linkset+json
// (RFC 9264), each entry an anchor plus service-desc/service-doc/status/item.
func checkAPICatalog(ctx context.Context, s *site) outcome {
	j, rec, why, ok := s.optionalDoc(ctx, "application/linkset+json linkset; each entry an anchor plus service-desc, service-doc, status or item (RFC 9727)", "/.well-known/api-catalog")
	scope := "/.well-known/api-catalog"
	if !ok {
		return optional(false, rec, why, scope)
	}
	var problems []string
	if mt := j.resp.mediaType(); mt != "application/linkset+json" {
		problems = append(problems, "Content-Type "+mt+", not application/linkset+json")
	}
	set, _ := j.doc["linkset"].([]any)
	if len(set) == 0 {
		problems = append(problems, "no linkset array")
	}
	problems = append(problems, linksetEntryProblems(set)...)
	note := fmt.Sprintf("linkset with %d entr(ies)", len(set))
	if len(problems) > 0 {
		note += "; " + strings.Join(problems[:min(len(problems), 6)], "; ")
	}
	return optional(true, rec, note, scope)
}

// checkContentSignals: a Content-Signal policy in robots.txt or a header.
func checkContentSignals(ctx context.Context, s *site) outcome {
	rb := s.robots(ctx)
	rec := s.receiptOf(rb.resp, "a Content-Signal line in robots.txt or a Content-Signal response header (search=yes, ai-input=yes, ai-train=no)")
	rec.Also = []Exchange{s.also(s.page(ctx, s.home).resp, "Content-Signal")}
	if sig := s.contentSignal(ctx); sig != "" {
		return optional(true, rec, "Content-Signal: "+sig, "/robots.txt", s.home)
	}
	return optional(false, rec, "no Content-Signal", "/robots.txt", s.home)
}

// tokenCountLimit is the largest Markdown body the scanner counts itself.
const tokenCountLimit = 1 << 20

// o200k loads the o200k_base tokenizer once: codec.NewO200kBase is what
// tokenizer.Get(tokenizer.O200kBase) returns, without the reference to
// Get that links every vocabulary into the binary.
var o200k = sync.OnceValues(func() (tokenizer.Codec, error) { return codec.NewO200kBase(), nil })

// checkMarkdownTokens: x-markdown-tokens on the Markdown response, and how
// far it is from the scanner's own o200k_base count.
func checkMarkdownTokens(ctx context.Context, s *site) outcome {
	md := s.markdownOf(ctx, s.home)
	rec := s.receiptOf(md, "x-markdown-tokens on the answer to Accept: text/markdown", "X-Markdown-Tokens")
	h := md.header.Get("X-Markdown-Tokens")
	if !isMarkdown(md) || h == "" {
		return optional(false, rec, "no x-markdown-tokens header on a Markdown answer", s.home)
	}
	claimed, err := strconv.Atoi(strings.TrimSpace(h))
	if err != nil {
		return optional(true, rec, fmt.Sprintf("x-markdown-tokens %q is not a number", h), s.home)
	}
	if len(md.body) > tokenCountLimit {
		return optional(true, rec, fmt.Sprintf("x-markdown-tokens: %d (body too large to count)", claimed), s.home)
	}
	codec, err := o200k()
	if err != nil {
		return optional(true, rec, fmt.Sprintf("x-markdown-tokens: %d (tokenizer unavailable)", claimed), s.home)
	}
	own, err := codec.Count(strings.ToValidUTF8(string(md.body), "\uFFFD"))
	if err != nil {
		return optional(true, rec, fmt.Sprintf("x-markdown-tokens: %d (count failed)", claimed), s.home)
	}
	diff := 0.0
	if own > 0 {
		diff = 100 * float64(claimed-own) / float64(own)
	}
	rec.Details = map[string]any{"claimed": claimed, "counted_o200k": own, "difference_percent": round2(diff)}
	return optional(true, rec, fmt.Sprintf("x-markdown-tokens: %d; scanner's o200k_base count: %d (%+.1f%%)", claimed, own, diff), s.home)
}

// checkNLWebAsk: /ask?query=… answers JSON with a results array.
func checkNLWebAsk(ctx context.Context, s *site) outcome {
	r := s.f.get(ctx, s.abs("/ask")+"?query=what+do+you+offer", acceptJSON)
	rec := s.receiptOf(r, "200 JSON with a schema.org results array")
	var v map[string]any
	switch {
	case !r.ok():
		return optional(false, rec, "no /ask endpoint: "+orNone(r.errText())+fmt.Sprintf(" (%d)", r.status), "/ask")
	case json.Unmarshal(r.body, &v) != nil:
		return optional(false, rec, "/ask does not answer JSON", "/ask")
	}
	res, ok := v["results"].([]any)
	if !ok {
		return optional(false, rec, "/ask JSON has no results array", "/ask")
	}
	return optional(true, rec, fmt.Sprintf("/ask answers %d result(s)", len(res)), "/ask")
}

// linksetEntryProblems names the entries of an API catalog's linkset
// (RFC 9727) that lack an anchor or one of the relations it expects.
func linksetEntryProblems(set []any) []string {
	var problems []string
	for i, e := range set {
		o, _ := e.(map[string]any)
		rels := 0
		for _, r := range []string{"service-desc", "service-doc", "status", "item"} {
			if o[r] != nil {
				rels++
			}
		}
		if str(o, "anchor") == "" || rels == 0 {
			problems = append(problems, fmt.Sprintf("entry %d lacks an anchor or a relation", i+1))
		}
	}
	return problems
}
