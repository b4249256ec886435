package selfcheck

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentready/caddy-agentready/selfcheck/ard"
)

func init() {
	register(map[string]checkFunc{"ard_manifest": checkARDManifest})
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
