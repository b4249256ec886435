package negotiate

import (
	"sync"

	"github.com/agentready/caddy-agentready/negotiate/htmlrewrite"
)

// DefaultRewriteCache is the default Options.RewriteCache: a plan holds the
// bytes it inserts (a few kilobytes with the head elements), so this keeps
// the plans of a few thousand pages.
const DefaultRewriteCache = 8 << 20

// maxPlannedPage is the largest page, by its Content-Length, that the HTML
// path buffers whole: it is then sent with its exact Content-Length and its
// plan is looked up or recorded. A larger page, or one of unknown length,
// streams through the rewriter.
const maxPlannedPage = 256 << 10

// rewritePage returns page rewritten with inj, in buf (from pageBufPool),
// through the rewrite plans (see htmlrewrite.RewritePage): filed under id
// when the page is named, else under a hash of its bytes.
func rewritePage(buf *[]byte, page []byte, inj *Injection, plans *htmlrewrite.PlanCache, id htmlrewrite.PageID, named bool) (out *[]byte, fromPlan bool) {
	if named {
		*buf, fromPlan = htmlrewrite.RewritePageAs((*buf)[:0], page, inj, plans, id)
	} else {
		*buf, fromPlan = htmlrewrite.RewritePage((*buf)[:0], page, inj, plans)
	}
	return buf, fromPlan
}

// pageBufPool holds the buffers of the pages rewritten whole.
var pageBufPool = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

func putPageBuf(b *[]byte) {
	if cap(*b) <= 2*maxPlannedPage {
		*b = (*b)[:0]
		pageBufPool.Put(b)
	}
}
