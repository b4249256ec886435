package selfcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
)

// httpMethods are the operation keys of an OpenAPI path item.
var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// problemFields are the members an error body names (RFC 9457 problem
// details and the common ad-hoc shapes, STANDARD.md §9).
var problemFields = []string{"title", "detail", "error", "message", "code", "type", "status"}

// missingProbe is the path asked under the API base to see how unknown
// paths fail.
const missingProbe = "agentready-selfcheck-no-such-path"

// opFindings counts an OpenAPI document's operations against the criteria.
type opFindings struct {
	ops, met int
	missing  []string
}

// judgeOperations checks every operation for operationId, summary, typed
// parameters, a 2xx schema and an error model.
func judgeOperations(doc map[string]any) opFindings {
	var f opFindings
	paths := obj(doc, "paths")
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		item, _ := paths[p].(map[string]any)
		for _, m := range httpMethods {
			op, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			f.ops++
			name := strings.ToUpper(m) + " " + p
			crit := func(ok bool, what string) {
				if ok {
					f.met++
				} else if len(f.missing) < 8 {
					f.missing = append(f.missing, name+": "+what)
				}
			}
			crit(str(op, "operationId") != "", "operationId")
			crit(str(op, "summary") != "", "summary")
			crit(typedParams(item, op), "typed parameters")
			ok2xx, okErr := responses(op)
			crit(ok2xx, "a 2xx response schema")
			crit(okErr, "an error response model")
		}
	}
	return f
}

// typedParams reports whether every parameter has a schema/type or a $ref.
func typedParams(item, op map[string]any) bool {
	for _, src := range []map[string]any{item, op} {
		params, _ := src["parameters"].([]any)
		for _, p := range params {
			pm, _ := p.(map[string]any)
			if pm == nil {
				return false
			}
			if pm["$ref"] != nil || pm["type"] != nil || pm["content"] != nil {
				continue
			}
			if sch := obj(pm, "schema"); sch != nil && (sch["type"] != nil || sch["$ref"] != nil || sch["oneOf"] != nil || sch["anyOf"] != nil || sch["allOf"] != nil) {
				continue
			}
			return false
		}
	}
	return true
}

// responses reports a 2xx response with a schema and a 4xx/5xx/default
// response (an error model).
func responses(op map[string]any) (ok2xx, okErr bool) {
	for code, r := range obj(op, "responses") {
		rm, _ := r.(map[string]any)
		switch {
		case strings.HasPrefix(code, "2"):
			if rm != nil && (rm["$ref"] != nil || rm["schema"] != nil || hasContentSchema(rm)) || code == "204" {
				ok2xx = true
			}
		case strings.HasPrefix(code, "4"), strings.HasPrefix(code, "5"), code == "default":
			okErr = true
		}
	}
	return ok2xx, okErr
}

// hasContentSchema reports a response whose content has a schema.
func hasContentSchema(r map[string]any) bool {
	for _, mt := range obj(r, "content") {
		if m, ok := mt.(map[string]any); ok && m["schema"] != nil {
			return true
		}
	}
	return false
}

// apiBase returns the API's base URL on the site: the first server URL
// (OpenAPI 3.x) or basePath (Swagger 2.0), resolved against the document.
func (s *site) apiBase(oa openapiResult) string {
	base, _ := url.Parse(oa.resp.req.url)
	ref := "/"
	if servers, ok := oa.doc["servers"].([]any); ok && len(servers) > 0 {
		if sv, ok := servers[0].(map[string]any); ok && str(sv, "url") != "" {
			ref = str(sv, "url")
		}
	} else if bp := str(oa.doc, "basePath"); bp != "" {
		ref = bp
	}
	u := resolve(base, ref)
	return strings.TrimSuffix(u, "/") + "/"
}

// isProblemBody reports a JSON object naming an error.
func isProblemBody(r *response) bool {
	var v map[string]any
	if json.Unmarshal(r.body, &v) != nil {
		return false
	}
	for _, f := range problemFields {
		if _, ok := v[f]; ok {
			return true
		}
	}
	return false
}

// checkOpenAPIQuality: every operation has operationId, a summary, typed
// parameters, a 2xx schema and an error model; an unknown path under the
// API base answers 404/410 with a JSON problem body (RFC 9457). N/A without
// OpenAPI.
func checkOpenAPIQuality(ctx context.Context, s *site) outcome {
	const expected = "every operation: operationId, summary, typed parameters, 2xx schema, error model; GET <api base>/" + missingProbe + " → 404/410 with a JSON problem body"
	oa := s.openapi(ctx)
	if oa.doc == nil {
		for _, t := range oa.tried {
			if t.unreachable() {
				o := s.couldNotCheck(t, expected)
				o.scope = []string{pathOf(t.req.url)}
				return o
			}
		}
		rec := Receipt{Expected: expected, Note: "no OpenAPI document found"}
		if oa.resp != nil {
			rec = s.receiptOf(oa.resp, expected)
			rec.Note = "no OpenAPI document found"
		}
		return outcome{verdict: NotApplicable, receipt: rec, scope: []string{"/openapi.json"}}
	}
	rec := s.receiptOf(oa.resp, expected)
	f := judgeOperations(oa.doc)
	probeURL := s.apiBase(oa) + missingProbe
	var probe *response
	if onOrigin(probeURL, s.origin) {
		probe = s.f.get(ctx, probeURL, acceptJSON)
		rec.Also = []Exchange{s.also(probe)}
	}
	probeOK := probe != nil && (probe.status == 404 || probe.status == 410) && isProblemBody(probe)
	missing := append([]string(nil), f.missing...)
	if !probeOK {
		missing = append(missing, "unknown API path → 404/410 with a JSON problem body")
	}
	rec.Note = fmt.Sprintf("%d operation(s), %d of %d criteria met; unknown-path probe ok: %t", f.ops, f.met, 5*f.ops, probeOK)
	if f.ops == 0 {
		return outcome{verdict: Fail, missing: "the document has no operations", receipt: rec, scope: []string{pathOf(oa.resp.req.url)}}
	}
	frac := 0.8 * float64(f.met) / float64(5*f.ops)
	if probeOK {
		frac += 0.2
	}
	o := fromFraction(frac, strings.Join(missing, "; "))
	o.receipt, o.scope = rec, []string{pathOf(oa.resp.req.url)}
	return o
}
