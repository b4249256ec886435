package documents

import (
	"github.com/agentready/caddy-agentready/internal/lru"
	"github.com/agentready/caddy-agentready/negotiate"
)

// The injection of a page with its canonical link is built once per page
// of a bundle and kept with the bundle (every HTML page asks for it:
// escaping its address into the link and the Key, about 2,000
// instructions a request).

// maxPageInjections bounds the injections a bundle keeps, in bytes (about
// 850 pages of ordinary addresses); a set has at most maxOrigins
// bundles.
const maxPageInjections = 512 << 10

// pageInjectionCost is what an entry costs beside its strings: the key,
// the entry, the Injection and its head array.
const pageInjectionCost = 450

// pageInjections keeps a bundle's injections by page. It is safe for
// concurrent use; a nil one keeps nothing.
type pageInjections = lru.Synced[pageKey, *negotiate.Injection]

// pageKey is everything a page's injection is built from besides the
// bundle (its template, its canonical origin): the path the client asked
// for and its escaped form, as url.URL has them (bundle.injection). A page
// with a query has no canonical and is not kept.
type pageKey struct {
	path, rawPath string
}

func newPageInjections() *pageInjections {
	return lru.NewSynced[pageKey, *negotiate.Injection](maxPageInjections)
}

// keepPage keeps inj under k in c; inj is never changed afterwards.
func keepPage(c *pageInjections, k pageKey, inj *negotiate.Injection) {
	c.Add(k, inj, int64(pageInjectionCost+len(k.path)+len(k.rawPath)+len(inj.Key)+len(inj.Head[0].HTML)))
}
