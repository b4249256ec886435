package selfcheck

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

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
