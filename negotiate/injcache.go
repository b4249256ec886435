package negotiate

import (
	"github.com/agentready/caddy-agentready/internal/lru"
)

// The injection of a page with the head link to its Markdown alternate
// (Options.HeadLink) is built once per page and kept: building it escapes
// the page's address into the link and the Key and allocates them (about
// 2,000 instructions of every annotated HTML page).

// maxInjectionCache bounds the kept injections, in bytes, the Inject
// hook's strings they hold included (about 1,000 pages of a site with the
// demo's annotations); a handler keeps an eighth of
// Options.RewriteCache when that is less, and none when it is off.
const maxInjectionCache = 1 << 20

// injectionCost is what an entry costs beside its strings: the key, the
// entry, the Injection and its head array.
const injectionCost = 400

// injectionCache keeps the injections injectionFor builds, by everything
// they are built from. It is safe for concurrent use; a nil one keeps
// nothing.
type injectionCache = lru.Synced[injectionKey, *Injection]

// injectionKey is everything an injection with the head link is built
// from besides the handler's own settings (its suffix, Options.HeadLink):
// the Key of the Inject hook's answer, which names that answer whole (two
// injections with the same non-empty Key are equal; "" when the hook
// answered nil), and the page's address as the client asked for it
// (responseWriter.public: the path, its escaped form when it has one, and
// the query), which the link is made of.
type injectionKey struct {
	hook                 string
	path, rawPath, query string
}

// newInjectionCache returns a cache of at most maxBytes, nil when maxBytes
// is not positive.
func newInjectionCache(maxBytes int64) *injectionCache {
	if maxBytes <= 0 {
		return nil
	}
	return lru.NewSynced[injectionKey, *Injection](maxBytes)
}

// keepInjection keeps inj under k in c; inj is never changed afterwards.
func keepInjection(c *injectionCache, k injectionKey, inj *Injection) {
	detach(&k.path, &k.rawPath, &k.query) // the request line's memory stays the request's
	c.Add(k, inj, int64(injectionCost+len(k.hook)+len(k.path)+len(k.rawPath)+len(k.query)+injectionSize(inj)))
}

// injectionSize counts the bytes an injection holds: its strings, its
// head's elements and its form annotations. A kept injection holds the
// Inject hook's strings (a site's JSON-LD, its ARD link) as well as its own
// link, and keeps them alive after the hook has dropped them (documents
// keep one template per origin and forget the origins they have not seen
// for a while): they are the kept entry's cost, however many entries
// share them.
func injectionSize(inj *Injection) int {
	n := len(inj.Lang) + len(inj.Key) + headElementCost*len(inj.Head)
	for _, e := range inj.Head {
		n += len(e.HTML)
		for k, v := range e.SkipIf.Attrs {
			n += len(k) + len(v)
		}
	}
	for _, f := range inj.Forms {
		n += formCost + len(f.Selector)
		for k, v := range f.Attrs {
			n += len(k) + len(v)
		}
		for name, attrs := range f.Fields {
			n += len(name)
			for k, v := range attrs {
				n += len(k) + len(v)
			}
		}
	}
	return n
}

// headElementCost and formCost are what a head element and a form
// annotation cost beside their strings (the structs, their maps).
const (
	headElementCost = 64
	formCost        = 256
)
