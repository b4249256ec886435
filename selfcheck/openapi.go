package selfcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"gopkg.in/yaml.v3"
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
				cands = append(cands, resolve(s.origin, str(it, "url")))
			}
		}
		home := s.page(ctx, s.home)
		for _, l := range s.pageLinks(home) {
			if l.hasRel("service-desc") {
				cands = append(cands, l.target)
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
