package caddymodule

import (
	"net/http"
	"sort"

	"github.com/caddyserver/caddy/v2"

	"github.com/agentready/caddy-agentready/internal/outsider"
	"github.com/agentready/caddy-agentready/selfscan"
)

// internalKey marks, in a request's context, a request the module makes to
// its own site through the in-process transport: the self-scan's and the
// content index's. The mark lives only in the context, never in a header,
// so no client can forge it, no log line prints it and the origin never
// sees it; the metrics and the access log leave those requests out.
type internalKey struct{}

// isInternal reports whether r was made by this process's self-scan or
// content index. Every such request comes from outsider.RemoteAddr, so a
// visitor's request is told apart by its address alone, without the walk
// up the context's chain of values (a few hundred instructions, several
// times per request on the browser path); the mark in the context decides.
func isInternal(r *http.Request) bool {
	if r.RemoteAddr != outsider.RemoteAddr {
		return false
	}
	marked, _ := r.Context().Value(internalKey{}).(bool)
	return marked
}

// siteScans holds the self-score (selfscan.Site) of every site that uses
// the handler. The entries outlive config reloads (a usage pool counts the
// configs that use each), so the admin endpoint keeps answering with the
// last complete report while the new config scans again.
var siteScans = caddy.NewUsagePool()

// status is what the admin endpoint shows about a site.
type status = selfscan.Status

// sitesSnapshot lists the registered sites, sorted by key.
func sitesSnapshot() []*selfscan.Site {
	var out []*selfscan.Site
	siteScans.Range(func(_, v any) bool {
		out = append(out, v.(*selfscan.Site))
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}
