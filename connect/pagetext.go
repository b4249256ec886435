package connect

import (
	"bytes"
	"context"
	"sync"

	"github.com/agentready/caddy-agentready/fulltext"
)

// PageText carries, in the context of the Markdown request HTTPSource.Fetch
// makes, the full text of the HTML the Markdown is converted from, so that
// a converter serving the request in the same process (the Caddy module)
// can hand it back and the page is fetched once, not once as Markdown and
// once more as HTML. A converter that knows nothing of it leaves it empty,
// and Fetch then asks for the HTML itself. It is safe for concurrent use.
type PageText struct {
	limit int64 // HTML bytes read, as HTTPSource.MaxPageHTML

	mu       sync.Mutex
	sections []fulltext.Section
	kept     bool
}

type pageTextKey struct{}

// WithPageText returns ctx carrying p; a transport that detaches a
// request's context from its caller's (the module's in-process one) carries
// p over with it.
func WithPageText(ctx context.Context, p *PageText) context.Context {
	return context.WithValue(ctx, pageTextKey{}, p)
}

// PageTextFrom is the PageText ctx carries, nil when none.
func PageTextFrom(ctx context.Context) *PageText {
	p, _ := ctx.Value(pageTextKey{}).(*PageText)
	return p
}

// Keep reads html's text for the search (fulltext.FromHTML, within the
// source's MaxPageHTML). A converter calls it with the whole page it is
// converting to Markdown; a nil p does nothing.
func (p *PageText) Keep(html []byte) {
	if p == nil {
		return
	}
	if p.limit > 0 && int64(len(html)) > p.limit {
		html = html[:p.limit]
	}
	_, sections, err := fulltext.FromHTML(bytes.NewReader(html))
	if err != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sections, p.kept = sections, true
}

// text is what Keep read; ok is false when nothing was kept.
func (p *PageText) text() (sections []fulltext.Section, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sections, p.kept
}
