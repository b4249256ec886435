package documents

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agentready/caddy-agentready/manifest"
	"github.com/agentready/caddy-agentready/negotiate"
)

// FullPage is one page of llms-full.txt, as the caller fetched it.
type FullPage struct {
	// URL is the page's public URL, its source line.
	URL string
	// Title and Description are the page's front matter title and
	// description ("" when it has none).
	Title, Description string
	// Markdown is the page's Markdown, without its front matter.
	Markdown []byte
}

// FullStats says what BuildLLMsFull put in the file.
type FullStats struct {
	// Listed is how many URLs were given; Included how many pages are in
	// the file; Failed how many could not be fetched.
	Listed, Included, Failed int
	// Skipped is how many pages were left out as index, search or
	// link-only pages (by their address before fetching, or by their
	// Markdown after).
	Skipped int
	// Cut is true when pages were left out for the byte budget.
	Cut bool
	// Bytes is the size of the file.
	Bytes int
}

// fullCutRoom is the room kept under the budget for the note that says the
// file was cut.
const fullCutRoom = 512

// BuildLLMsFull renders /llms-full.txt: an H1 (title), a line saying what
// the file holds, then, for each URL in order that fetch returns (index,
// search and listing addresses left out; the caller orders the rest, see
// FullOrder), the page
// as an H2 of its title (its front matter rendered as a heading line), a
// Source line with its URL, its description as a quote, and its Markdown,
// the pages apart by a --- rule. It stops before the page that would take
// the file past maxBytes and says so at the top and at the end. fetch is
// called at most once per URL, in order, and never after the budget is
// spent; a page it fails on is left out (counted in FullStats.Failed), and
// so is a page whose Markdown is mostly links (linkOnly), so that the byte
// budget goes to the site's content, not to its indexes.
func BuildLLMsFull(ctx context.Context, title string, urls []string, maxBytes int64,
	fetch func(context.Context, string) (*FullPage, error)) ([]byte, FullStats) {
	st := FullStats{Listed: len(urls)}
	kept := slices.DeleteFunc(slices.Clone(urls), isListingURL)
	st.Skipped = len(urls) - len(kept)
	urls = kept
	var body bytes.Buffer
	budget := maxBytes - fullCutRoom
	for i, u := range urls {
		if ctx.Err() != nil || int64(body.Len()) >= budget {
			st.Cut = st.Cut || i < len(urls)
			break
		}
		p, err := fetch(ctx, u)
		if err != nil || p == nil {
			st.Failed++
			continue
		}
		if linkOnly(p.Markdown) {
			st.Skipped++
			continue
		}
		section := renderFullPage(p)
		if int64(body.Len()+len(section)) > budget {
			st.Cut = true
			break
		}
		body.Write(section)
		st.Included++
	}
	var head, foot bytes.Buffer
	fmt.Fprintf(&head, "# %s\n\n", oneLine(title))
	switch {
	case st.Cut:
		fmt.Fprintf(&head, "> The Markdown of %d of the site's %d listed pages, the pages llms.txt lists first, then the shallowest (index, search and link-only pages left out). This file was cut at %d bytes (llms.full_max_bytes): the other pages are in the sitemap, each as Markdown with the header `Accept: text/markdown`.\n\n", st.Included, st.Listed, maxBytes)
	default:
		fmt.Fprintf(&head, "> The Markdown of the site's %d pages, the pages llms.txt lists first, then the shallowest (index, search and link-only pages left out).\n\n", st.Included)
	}
	if st.Cut {
		fmt.Fprintf(&foot, "\n---\n\n[Cut here: llms-full.txt is limited to %d bytes; %d of %d pages included.]\n", maxBytes, st.Included, st.Listed)
	}
	// One allocation of the final size: the pages' buffer can be most of
	// llms.full_max_bytes, and growing a second copy by doubling would hold
	// up to twice that again while it is built.
	out := make([]byte, 0, head.Len()+body.Len()+foot.Len())
	out = append(append(append(out, head.Bytes()...), body.Bytes()...), foot.Bytes()...)
	st.Bytes = len(out)
	return out, st
}

// renderFullPage renders one page of llms-full.txt.
func renderFullPage(p *FullPage) []byte {
	var b bytes.Buffer
	title := oneLine(p.Title)
	if title == "" {
		title = p.URL
	}
	fmt.Fprintf(&b, "---\n\n## %s\n\nSource: %s\n\n", title, p.URL)
	if d := oneLine(p.Description); d != "" {
		fmt.Fprintf(&b, "> %s\n\n", d)
	}
	md := bytes.TrimSpace(p.Markdown)
	b.Write(md)
	if len(md) > 0 {
		b.WriteString("\n\n")
	}
	return b.Bytes()
}

// oneLine collapses white space, so a title or description cannot break
// out of its line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// SetLLMsFull records the body of /llms-full.txt (see BuildLLMsFull),
// served with its validators from now on.
func (s *Set) SetLLMsFull(body []byte, modTime time.Time) {
	doc := newServedDoc(manifest.Document{
		Path:         manifest.PathLLMsFullTxt,
		ContentType:  "text/markdown; charset=utf-8",
		Body:         body,
		CacheControl: s.site.Documents.CacheControl,
		OriginWins:   s.site.Documents.LLMsFullTxt == manifest.ServeOrigin,
		ModTime:      modTime.UTC().Truncate(time.Second),
	}, s.loaded)
	s.mu.Lock()
	s.full = doc
	s.mu.Unlock()
}

// serveLLMsFull answers /llms-full.txt: the file once built, else 503
// with Retry-After (RFC 9110 §15.6.4, §10.2.3) while the site's pages are
// read for it.
func (s *Set) serveLLMsFull(w http.ResponseWriter, r *http.Request, next negotiate.Next) error {
	s.mu.RLock()
	doc := s.full
	s.mu.RUnlock()
	if doc == nil {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Retry-After", "10")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, err := io.WriteString(w, "llms-full.txt is being generated from the site's pages; retry in a few seconds.\n")
		return err
	}
	if doc.OriginWins {
		return s.serveOriginFirst(w, r, next, doc)
	}
	doc.serveHTTP(w, r)
	return nil
}
