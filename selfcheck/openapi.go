package selfcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/agentready/caddy-agentready/selfcheck/internal/parse"
)

// openapiPaths are where OpenAPI documents usually live (STANDARD.md §9).
var openapiPaths = []string{"/openapi.json", "/openapi.yaml", "/swagger.json", "/api-docs", "/.well-known/openapi"}

// openapiResult is the site's OpenAPI document, if any.
type openapiResult struct {
	resp    *response      // the document judged
	doc     map[string]any // parsed (nil when none)
	version string         // "3.x" or "2.0"
	tried   []*response
}

// allUnreachable reports whether every candidate gave no usable answer.
func (o openapiResult) allUnreachable() bool { return allUnreachable(o.tried) }

// openapi looks for an OpenAPI document: interfaces of type openapi in
// agents.json, a Link rel="service-desc" (RFC 8631) on the home page, then
// the usual paths. An HTML UI does not count.
func (s *site) openapi(ctx context.Context) openapiResult {
	return s.openapiDoc.get(func() openapiResult {
		var cands []string
		for _, it := range s.manifest(ctx).interfaces() {
			t := strings.ToLower(str(it, "type") + str(it, "protocol"))
			if (strings.Contains(t, "openapi") || strings.Contains(t, "rest")) && str(it, "url") != "" {
				cands = append(cands, parse.Resolve(s.origin, str(it, "url")))
			}
		}
		home := s.page(ctx, s.home)
		for _, l := range s.pageLinks(home) {
			if l.HasRel("service-desc") {
				cands = append(cands, l.Target)
			}
		}
		for _, p := range openapiPaths {
			cands = append(cands, s.abs(p))
		}
		var res openapiResult
		seen := map[string]bool{}
		for _, c := range cands {
			if seen[c] || len(res.tried) >= 8 {
				continue
			}
			seen[c] = true
			resp := s.f.get(ctx, c, "application/json, application/yaml;q=0.9, */*;q=0.1")
			res.tried = append(res.tried, resp)
			if !resp.ok() || isHTMLish(resp) {
				continue
			}
			doc := parseOpenAPI(resp.body)
			if doc == nil {
				continue
			}
			switch {
			case strings.HasPrefix(str(doc, "openapi"), "3."):
				res.resp, res.doc, res.version = resp, doc, "3.x"
				return res
			case str(doc, "swagger") == "2.0" && res.doc == nil:
				res.resp, res.doc, res.version = resp, doc, "2.0"
			}
		}
		if res.resp == nil && len(res.tried) > 0 {
			res.resp = res.tried[0]
		}
		return res
	})
}

// parseOpenAPI reads a JSON or YAML document as an object; nil when it is
// neither. yaml.v3 refuses excessive aliasing, so alias bombs fail.
func parseOpenAPI(body []byte) (doc map[string]any) {
	defer func() {
		if recover() != nil {
			doc = nil
		}
	}()
	b := bytes.TrimSpace(body)
	if len(b) > 0 && b[0] == '{' {
		if json.Unmarshal(b, &doc) != nil {
			return nil
		}
		return doc
	}
	if yaml.Unmarshal(b, &doc) != nil {
		return nil
	}
	return doc
}

// obj reads an object field.
func obj(o map[string]any, key string) map[string]any {
	m, _ := o[key].(map[string]any)
	return m
}

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

// judgeOperations checks every operation for operationId, a summary or
// description, typed
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
			// STANDARD.md §11 (4.17): a summary or a description.
			crit(str(op, "summary") != "" || str(op, "description") != "", "a summary or description")
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
	u := parse.Resolve(base, ref)
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
