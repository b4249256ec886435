package selfcheck

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

func init() {
	registerCheckpoints(map[string]checkpointFunc{
		"ia.api-catalog":         cpAPICatalog,
		"ia.ai-catalog":          cpAICatalog,
		"ia.agent-skills-index":  cpAgentSkills,
		"ia.agents-json":         cpAgentsJSON,
		"ia.developer-docs-link": cpDevDocsLink,
		"ia.docs-answer":         cpDocsAnswer,
		"ia.sdk-cli":             cpSDKCLI,
		"ia.agent-task-access":   cpAgentTaskAccess,
		"ia.nlweb-ask":           cpNLWebAsk,
	})
}

// cpAPICatalog: an RFC 9727 linkset whose every entry has an anchor and a
// relation, served as application/linkset+json.
func cpAPICatalog(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "/.well-known/api-catalog: application/linkset+json; every entry an anchor plus item, service-desc, service-doc or status"
	j := s.jsonDoc(ctx, "/.well-known/api-catalog")
	if len(j.doc) == 0 {
		return s.notFound(j, expected, !s.backend(ctx).offered)
	}
	set, _ := j.doc["linkset"].([]any)
	var problems []string
	if len(set) == 0 {
		problems = append(problems, "no linkset entries")
	}
	problems = append(problems, linksetEntryProblems(set)...)
	return s.docOutcome(j, expected, problems, wellKnownType(j.resp, "application/linkset+json"), false, 1)
}

// aiCatalogMaxEntries bounds an AI catalog's entries list.
const aiCatalogMaxEntries = 1000

// cpAICatalog: found through a same-origin Link relation or at
// /.well-known/ai-catalog.json: specVersion, a bounded entries list, each
// entry a media type and a url (same origin) or inline data.
func cpAICatalog(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "specVersion, a bounded entries list (≤ 1000), each entry a media type and a same-origin url or inline data"
	paths := []string{"/.well-known/ai-catalog.json"}
	for _, l := range s.pageLinks(s.page(ctx, s.home)) {
		if (l.HasRel("ai-catalog") || l.HasRel("aicatalog")) && onOrigin(l.Target, s.origin) {
			paths = append([]string{l.Target}, paths...)
			break
		}
	}
	j := s.jsonDoc(ctx, paths...)
	if len(j.doc) == 0 {
		return s.notFound(j, expected, !s.backend(ctx).offered)
	}
	var problems []string
	if j.doc["specVersion"] == nil {
		problems = append(problems, "no specVersion")
	}
	entries, ok := j.doc["entries"].([]any)
	switch {
	case !ok || len(entries) == 0:
		problems = append(problems, "no entries list")
	case len(entries) > aiCatalogMaxEntries:
		problems = append(problems, fmt.Sprintf("%d entries (more than %d)", len(entries), aiCatalogMaxEntries))
	}
	base := j.resp.finalURLOrReq()
	for i, e := range entries {
		if len(problems) > 6 {
			break
		}
		o, _ := e.(map[string]any)
		if str(o, "mediaType") == "" && str(o, "type") == "" && str(o, "media_type") == "" {
			problems = append(problems, fmt.Sprintf("entry %d has no media type", i+1))
		}
		u := str(o, "url")
		switch {
		case u == "" && o["data"] == nil:
			problems = append(problems, fmt.Sprintf("entry %d has neither url nor inline data", i+1))
		case u != "" && !onOrigin(resolveAgainst(base, u), s.origin):
			problems = append(problems, fmt.Sprintf("entry %d url %s is not on the site's origin", i+1, redactURL(u)))
		}
	}
	return s.docOutcome(j, expected, problems, wellKnownType(j.resp), false, 1)
}

// resolveAgainst resolves ref against base.
func resolveAgainst(base *url.URL, ref string) string {
	u, err := url.Parse(strings.TrimSpace(ref))
	if err != nil || base == nil {
		return ref
	}
	return base.ResolveReference(u).String()
}

// cpAgentSkills: the skills index at either address; every skill has
// name, type, description, url and digest.
func cpAgentSkills(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "/.well-known/agent-skills/index.json (or /.well-known/skills/index.json): skills, each with name, type, description, url, digest"
	j := s.jsonDoc(ctx, "/.well-known/agent-skills/index.json", "/.well-known/skills/index.json")
	if len(j.doc) == 0 {
		return s.notFound(j, expected, false)
	}
	skills, _ := j.doc["skills"].([]any)
	var problems []string
	if len(skills) == 0 {
		problems = append(problems, "no skills")
	}
	for i, sk := range skills {
		o, _ := sk.(map[string]any)
		for _, k := range []string{"name", "type", "description", "url", "digest"} {
			if str(o, k) == "" && len(problems) < 8 {
				problems = append(problems, fmt.Sprintf("skill %d lacks %s", i+1, k))
			}
		}
	}
	return s.docOutcome(j, expected, problems, wellKnownType(j.resp), false, 1)
}

// cpAgentsJSON: valid, non-empty JSON at either address.
func cpAgentsJSON(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "valid, non-empty JSON at /.well-known/agents.json or /agents.json"
	m := s.manifest(ctx)
	rec := s.receiptOf(m.chosen, expected)
	rec.Also = []Exchange{s.also(m.root)}
	scope := []string{"/.well-known/agents.json", "/agents.json"}
	switch {
	case len(m.doc) > 0:
		if p := wellKnownType(m.chosen); p != "" {
			o := cp(Partial, rec, p, scope...)
			o.fraction = 0.5
			return o
		}
		return cp(Pass, rec, "", scope...)
	case m.doc != nil:
		return cp(Fail, rec, "an empty {} document passes nothing", scope...)
	case m.wellKnown.unreachable() && m.root.unreachable():
		return cp(CouldNotCheck, rec, m.chosen.errText(), scope...)
	case m.parseErr != nil:
		return cp(Fail, rec, "not a JSON object: "+m.parseErr.Error(), scope...)
	}
	return cp(Fail, rec, "not found at either address", scope...)
}

// docsPaths are the developer-docs paths the home page may link.
var docsPaths = []string{"/docs", "/developers", "/api", "/api-docs", "/documentation", "/reference"}

// docsLinks lists same-origin developer-docs links on the home page:
// Link rel="service-doc" first, then anchors to the usual paths.
func (s *site) docsLinks(ctx context.Context) []string {
	home := s.page(ctx, s.home)
	var out []string
	seen := map[string]bool{}
	add := func(u string) {
		if !seen[u] && onOrigin(u, s.origin) && len(out) < 3 {
			seen[u] = true
			out = append(out, u)
		}
	}
	for _, l := range s.pageLinks(home) {
		if l.HasRel("service-doc") {
			add(l.Target)
		}
	}
	for _, a := range home.facts.Anchors {
		u, err := url.Parse(a)
		if err != nil {
			continue
		}
		p := strings.TrimSuffix(u.Path, "/")
		for _, d := range docsPaths {
			if p == d || strings.HasPrefix(p, d+"/") {
				u.Fragment = ""
				add(u.String())
			}
		}
	}
	return out
}

// cpDevDocsLink: when an interface exists, the home page links docs.
func cpDevDocsLink(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "the home page links /docs, /developers, /api, /api-docs, /documentation or /reference, or sends Link rel=\"service-doc\""
	if !s.backend(ctx).offered {
		return noBackend(expected, s.home)
	}
	home := s.page(ctx, s.home)
	rec := s.receiptOf(home.resp, expected, "Link")
	if home.resp.unreachable() {
		return cp(CouldNotCheck, rec, home.resp.errText(), s.home)
	}
	links := s.docsLinks(ctx)
	if len(links) == 0 {
		return cp(Fail, rec, "no developer-docs link on the home page", s.home)
	}
	rec.Note = "docs: " + strings.Join(redactAll(links), ", ")
	return cp(Pass, rec, "", s.home)
}

// docsMinWords is "enough text" for a docs page.
const docsMinWords = 80

// cpDocsAnswer: 1–3 docs pages answer 200 with server-rendered text, a
// heading, enough text and a fenced code block with a language class.
func cpDocsAnswer(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "1–3 docs pages: 200 server-rendered HTML with a heading, ≥ 80 words and a code block with a language-* class"
	links := s.docsLinks(ctx)
	if len(links) == 0 || !s.backend(ctx).offered {
		return cp(NotApplicable, Receipt{Expected: expected, Note: "no developer docs linked (ia.developer-docs-link)"}, "", s.home)
	}
	var rec Receipt
	good, checked := 0, 0
	var missing []string
	for i, u := range links {
		p := s.page(ctx, u)
		if i == 0 {
			rec = s.receiptOf(p.resp, expected)
		} else {
			rec.Also = append(rec.Also, s.also(p.resp))
		}
		if p.resp.unreachable() {
			continue
		}
		checked++
		var lack []string
		if !p.resp.ok() || !isHTMLish(p.resp) {
			lack = append(lack, fmt.Sprintf("a 200 HTML answer (got %d)", p.resp.status))
		} else {
			if p.facts.Headings == 0 {
				lack = append(lack, "a heading")
			}
			if p.facts.TextWords < docsMinWords {
				lack = append(lack, fmt.Sprintf("enough text (%d words)", p.facts.TextWords))
			}
			if !p.facts.CodeLang {
				lack = append(lack, "a code block with a language class")
			}
		}
		if len(lack) == 0 {
			good++
		} else {
			missing = append(missing, pathOf(u)+": "+strings.Join(lack, ", "))
		}
	}
	scope := redactAll(links)
	switch {
	case checked == 0:
		return cp(CouldNotCheck, rec, "no docs page answered", scope...)
	case good == checked:
		return cp(Pass, rec, "", scope...)
	case good == 0:
		return cp(Fail, rec, strings.Join(missing, "; "), scope...)
	}
	o := cp(Partial, rec, strings.Join(missing, "; "), scope...)
	o.fraction = round2(float64(good) / float64(checked))
	return o
}

// installRe matches an install command or a package registry link.
var installRe = regexp.MustCompile(`(?i)(npmjs\.com/package/|pypi\.org/project/|crates\.io/crates/|formulae\.brew\.sh/|\bnpm (i|install) |\bpip3? install |\bcargo install |\bbrew install |\bgo install |\bgo get |\bgem install |\bnpx )`)

// sdkEvidence looks for an SDK or CLI: the docs pages and the home page
// (registry links, install commands), llms.txt, and cli/sdk interfaces in
// the capability card.
func (s *site) sdkEvidence(ctx context.Context) (string, *response) {
	for _, it := range s.manifest(ctx).interfaces() {
		t := strings.ToLower(str(it, "type"))
		if (t == "cli" || t == "sdk") && (str(it, "install") != "" || str(it, "docs") != "") {
			return "agents.json names a " + t + " (" + str(it, "name") + ")", s.manifest(ctx).chosen
		}
	}
	for _, u := range append(s.docsLinks(ctx), s.home) {
		p := s.page(ctx, u)
		if m := installRe.Find(p.resp.body); m != nil {
			return fmt.Sprintf("%s shows %q", pathOf(u), strings.TrimSpace(string(m))), p.resp
		}
	}
	if l := s.llmsTxt(ctx); llmsUsable(l) {
		if m := installRe.Find(l.body); m != nil {
			return fmt.Sprintf("llms.txt shows %q", strings.TrimSpace(string(m))), l
		}
		if bytes.Contains(bytes.ToLower(l.body), []byte(" cli")) {
			return "llms.txt lists a CLI", l
		}
	}
	return "", nil
}

// cpSDKCLI: an SDK or CLI is findable.
func cpSDKCLI(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "docs link npm, PyPI, crates.io or Homebrew, or show an install command, or llms.txt / the card lists a CLI"
	if !s.backend(ctx).offered {
		return noBackend(expected, "/llms.txt")
	}
	why, resp := s.sdkEvidence(ctx)
	if resp == nil {
		rec := s.receiptOf(s.llmsTxt(ctx), expected)
		return cp(Fail, rec, "no SDK, CLI or install command found", "/llms.txt", s.home)
	}
	rec := s.receiptOf(resp, expected)
	rec.Note = why
	return cp(Pass, rec, "", pathOf(resp.req.url))
}

// taskSite reports a task or transaction site: it offers a backend, a form
// that writes, or commerce.
func (s *site) taskSite(ctx context.Context) (bool, string) {
	if b := s.backend(ctx); b.offered {
		return true, b.why
	}
	if ok, why := s.commerce(ctx); ok {
		return true, why
	}
	return false, ""
}

// cpAgentTaskAccess: (task and transaction sites) a verified MCP server or
// a CLI.
func cpAgentTaskAccess(ctx context.Context, s *site, r *Report) outcome {
	const expected = "ia.mcp-live verified an MCP server, or ia.sdk-cli found a CLI"
	task, why := s.taskSite(ctx)
	if !task {
		return cp(NotApplicable, Receipt{Expected: expected, Note: "not a task or transaction site: no backend, no form that writes, no commerce"}, "", s.home)
	}
	mc := s.mcp(ctx)
	rec := Receipt{Expected: expected, Note: "task site: " + why}
	if mc.probe.Initialize && mc.probe.ToolsList || mc.probe.Discover {
		rec.Note += "; MCP endpoint " + redactURL(mc.url) + " verified"
		return cp(Pass, rec, "", pathOf(mc.url))
	}
	if ev, resp := s.sdkEvidence(ctx); resp != nil {
		rec.Note += "; " + ev
		return cp(Pass, rec, "", pathOf(resp.req.url))
	}
	if mc.probe.Unreachable() && mc.declared {
		return cp(CouldNotCheck, rec, "the MCP endpoint gave no usable answer", pathOf(mc.url))
	}
	return cp(Fail, rec, "no verified MCP server and no CLI for agents to do the site's tasks", pathOf(mc.url), "/llms.txt")
}

// cpNLWebAsk: /ask answers JSON whose results each carry @type.
func cpNLWebAsk(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "GET /ask?query=… → JSON with a schema.org results array, each result with @type"
	r := s.f.get(ctx, s.abs("/ask")+"?query=what+do+you+offer", acceptJSON)
	rec := s.receiptOf(r, expected)
	var v map[string]any
	switch {
	case r.unreachable() && r.status == 0:
		return cp(CouldNotCheck, rec, r.errText(), "/ask")
	case !r.ok():
		return cp(Fail, rec, fmt.Sprintf("no /ask endpoint (%s)", statusText(r)), "/ask")
	case json.Unmarshal(r.body, &v) != nil:
		return cp(Fail, rec, "/ask does not answer JSON", "/ask")
	}
	res, ok := v["results"].([]any)
	if !ok {
		return cp(Fail, rec, "no results array", "/ask")
	}
	for i, e := range res {
		if o, _ := e.(map[string]any); o == nil || o["@type"] == nil {
			return cp(Fail, rec, fmt.Sprintf("result %d has no @type", i+1), "/ask")
		}
	}
	rec.Note = fmt.Sprintf("%d result(s)", len(res))
	return cp(Pass, rec, "", "/ask")
}

// Commerce checkpoints (STANDARD.md §11, 4.12–4.16 and 4.27) are read-only:
// GET only, never a POST to a commerce endpoint. They apply to commerce
// sites (Product or Offer JSON-LD on a scanned page) and to any site that
// publishes the document they read.

func init() {
	registerCheckpoints(map[string]checkpointFunc{
		"ia.x402":           cpX402,
		"ia.mpp":            cpMPP,
		"ia.ucp":            cpUCP,
		"ia.acp-manifest":   cpACP,
		"ia.ap2":            cpAP2,
		"ia.agent-checkout": cpAgentCheckout,
	})
}

// commerceTypes are the JSON-LD types that make a commerce site.
var commerceTypes = []string{"Product", "Offer", "AggregateOffer", "ProductGroup"}

// commerce reports Product/Offer JSON-LD on a scanned page.
func (s *site) commerce(ctx context.Context) (bool, string) {
	for _, r := range s.routes {
		for _, n := range s.page(ctx, r).ld.Nodes {
			for _, t := range n.Types {
				if slices.Contains(commerceTypes, t) {
					return true, t + " JSON-LD on " + redactURL(r)
				}
			}
		}
	}
	return false, ""
}

// notCommerce is the N/A outcome of a commerce checkpoint.
func notCommerce(expected string, scope ...string) outcome {
	return cp(NotApplicable, Receipt{Expected: expected, Note: "not a commerce site (no Product or Offer JSON-LD on the scanned pages) and no commerce document found"}, "", scope...)
}

// x402Challenge decodes a Payment-Required header: base64 JSON with
// x402Version 2 and a non-empty accepts list.
func x402Challenge(h string) bool {
	h = strings.TrimSpace(h)
	if h == "" {
		return false
	}
	var raw []byte
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if raw, err = enc.DecodeString(h); err == nil {
			break
		}
	}
	if err != nil {
		return false
	}
	var v map[string]any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	acc, _ := v["accepts"].([]any)
	return fmt.Sprint(v["x402Version"]) == "2" && len(acc) > 0
}

// cpX402: /api, /api/v1 or / answers 402 with a valid x402 v2 challenge.
func cpX402(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "GET /api, /api/v1 or / → 402 with Payment-Required: base64 JSON, x402Version 2, non-empty accepts"
	home := s.page(ctx, s.home).resp
	isCommerce, _ := s.commerce(ctx)
	if home.status != 402 && !isCommerce {
		return notCommerce(expected, "/", "/api", "/api/v1")
	}
	tried := []*response{home}
	if home.status != 402 {
		for _, p := range []string{"/api", "/api/v1"} {
			r := s.f.get(ctx, s.abs(p), acceptJSON)
			tried = append(tried, r)
			if r.status == 402 {
				break
			}
		}
	}
	last := tried[len(tried)-1]
	rec := s.receiptOf(last, expected, "Payment-Required")
	for _, t := range tried[:len(tried)-1] {
		rec.Also = append(rec.Also, s.also(t, "Payment-Required"))
	}
	scope := []string{"/", "/api", "/api/v1"}
	for _, t := range tried {
		if t.status == 402 {
			if x402Challenge(t.header.Get("Payment-Required")) {
				rec = s.receiptOf(t, expected, "Payment-Required")
				return cp(Pass, rec, "", scope...)
			}
			return cp(Fail, s.receiptOf(t, expected, "Payment-Required"), "a 402 without a valid x402 v2 Payment-Required challenge", scope...)
		}
	}
	return cp(Fail, rec, "no 402 payment challenge at /, /api or /api/v1", scope...)
}

// cpMPP: an OpenAPI operation carries a valid x-payment-info object.
func cpMPP(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "an OpenAPI operation with a non-empty x-payment-info object"
	oa := s.openapi(ctx)
	isCommerce, _ := s.commerce(ctx)
	if oa.doc == nil {
		return cp(NotApplicable, Receipt{Expected: expected, Note: "no OpenAPI document (ia.openapi)"}, "", "/openapi.json")
	}
	rec := s.receiptOf(oa.resp, expected)
	scope := []string{pathOf(oa.resp.req.url)}
	for _, item := range obj(oa.doc, "paths") {
		im, _ := item.(map[string]any)
		for _, m := range httpMethods {
			if op, ok := im[m].(map[string]any); ok && len(obj(op, "x-payment-info")) > 0 {
				return cp(Pass, rec, "", scope...)
			}
		}
	}
	if !isCommerce {
		return notCommerce(expected, scope...)
	}
	return cp(Fail, rec, "no operation has x-payment-info", scope...)
}

// commerceDoc judges a commerce well-known document.
func (s *site) commerceDoc(ctx context.Context, expected, path string, judge func(doc map[string]any) []string) outcome {
	j := s.jsonDoc(ctx, path)
	isCommerce, _ := s.commerce(ctx)
	if len(j.doc) == 0 {
		if !isCommerce && !j.allUnreachable() {
			return notCommerce(expected, path)
		}
		return s.notFound(j, expected, false)
	}
	return s.docOutcome(j, expected, judge(j.doc), wellKnownType(j.resp), false, 1)
}

// cpUCP: /.well-known/ucp has a version and non-empty capabilities.
func cpUCP(ctx context.Context, s *site, _ *Report) outcome {
	return s.commerceDoc(ctx, "/.well-known/ucp with version and a non-empty capabilities list", "/.well-known/ucp", func(doc map[string]any) []string {
		var p []string
		if doc["version"] == nil {
			p = append(p, "no version")
		}
		if c, _ := doc["capabilities"].([]any); len(c) == 0 {
			p = append(p, "no capabilities list")
		}
		return p
	})
}

// cpACP: /.well-known/acp.json has flows and a capabilities object.
func cpACP(ctx context.Context, s *site, _ *Report) outcome {
	return s.commerceDoc(ctx, "/.well-known/acp.json with a non-empty flows list and a capabilities object", "/.well-known/acp.json", func(doc map[string]any) []string {
		var p []string
		if f, _ := doc["flows"].([]any); len(f) == 0 {
			p = append(p, "no flows list")
		}
		if obj(doc, "capabilities") == nil {
			p = append(p, "no capabilities object")
		}
		return p
	})
}

// extensionURIs lists extensions[].uri at the card's top level and under
// capabilities.
func extensionURIs(card map[string]any) []string {
	var out []string
	for _, src := range []map[string]any{card, obj(card, "capabilities")} {
		exts, _ := src["extensions"].([]any)
		for _, e := range exts {
			if o, ok := e.(map[string]any); ok && str(o, "uri") != "" {
				out = append(out, str(o, "uri"))
			}
		}
	}
	return out
}

// cpAP2: the A2A card declares the AP2 extension.
func cpAP2(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "the A2A card declares an extension whose uri contains ap2"
	j := s.a2aCard(ctx)
	isCommerce, _ := s.commerce(ctx)
	if len(j.doc) == 0 {
		return cp(NotApplicable, Receipt{Expected: expected, Note: "no A2A card (ia.a2a-agent-card)"}, "", "/.well-known/agent-card.json")
	}
	rec := s.receiptOf(j.resp, expected)
	scope := []string{pathOf(j.resp.req.url)}
	uris := extensionURIs(j.doc)
	for _, u := range uris {
		if strings.Contains(strings.ToLower(u), "ap2") {
			rec.Note = "extension " + u
			return cp(Pass, rec, "", scope...)
		}
	}
	if !isCommerce {
		return notCommerce(expected, scope...)
	}
	return cp(Fail, rec, fmt.Sprintf("no AP2 extension among %d extension(s)", len(uris)), scope...)
}

// checkoutMarkers are Stripe Link and shared-payment-token markers, looked
// for in lower-cased page bodies.
var checkoutMarkers = [][]byte{[]byte("js.stripe.com"), []byte("stripe-link"), []byte("stripe_link"), []byte("link.com/"), []byte("shared_payment_token"), []byte("shared-payment-token"), []byte("spt_")}

// checkoutPath matches the routes that look like a checkout page.
var checkoutPath = regexp.MustCompile(`(?i)(checkout|cart|basket|pay|order|buy)`)

// cpAgentCheckout: a checkout page carries Stripe Link / shared payment
// token markers, or the ACP document has a checkout_sessions endpoint.
func cpAgentCheckout(ctx context.Context, s *site, _ *Report) outcome {
	const expected = "a scanned page carries Stripe Link / shared payment token markers, or the ACP document names checkout_sessions"
	isCommerce, _ := s.commerce(ctx)
	acp := s.jsonDoc(ctx, "/.well-known/acp.json")
	if acp.doc != nil {
		if b, _ := json.Marshal(acp.doc); strings.Contains(string(b), "checkout_sessions") {
			rec := s.receiptOf(acp.resp, expected)
			rec.Note = "the ACP document names checkout_sessions"
			return cp(Pass, rec, "", "/.well-known/acp.json")
		}
	}
	// The home page and the scanned routes that look like a checkout.
	for i, r := range s.routes {
		if i > 0 && !checkoutPath.MatchString(pathOf(r)) {
			continue
		}
		p := s.page(ctx, r)
		body := bytes.ToLower(p.resp.body)
		for _, m := range checkoutMarkers {
			if bytes.Contains(body, m) {
				rec := s.receiptOf(p.resp, expected)
				rec.Note = fmt.Sprintf("marker %q", m)
				return cp(Pass, rec, "", redactURL(r))
			}
		}
	}
	if !isCommerce {
		return notCommerce(expected, "/.well-known/acp.json")
	}
	return cp(Fail, s.receiptOf(acp.resp, expected), "no agent checkout marker on the scanned pages and no checkout_sessions in an ACP document", "/.well-known/acp.json")
}
