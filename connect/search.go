package connect

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// errEmptyQuery refuses a blank query.
var errEmptyQuery = errors.New("query is empty")

// checkQuery refuses empty and over-long queries.
func (s *Server) checkQuery(q string) error {
	if strings.TrimSpace(q) == "" {
		return errEmptyQuery
	}
	if n := utf8.RuneCountInString(q); n > s.opts.MaxQueryLength {
		return fmt.Errorf("query is %d characters, over the limit of %d", n, s.opts.MaxQueryLength)
	}
	if !utf8.ValidString(q) {
		return errors.New("query is not valid UTF-8")
	}
	return nil
}

// limitOrDefault caps a requested result count to MaxResults (0 or less
// means MaxResults).
func (s *Server) limitOrDefault(n int) int {
	if n <= 0 || n > s.opts.MaxResults {
		return s.opts.MaxResults
	}
	return n
}

// notReadyError refuses a search, read or listing while the index has never
// loaded: "no result" would be a false answer.
type notReadyError struct {
	origin     string
	loading    bool // the first refresh runs now
	retryAfter int  // seconds until the next attempt, rounded up
}

func (e *notReadyError) Error() string {
	msg := "the content index of " + e.origin + " is not ready yet: "
	if e.loading {
		msg += "it is loading"
	} else {
		msg += "the site could not be read so far"
	}
	return fmt.Sprintf("%s; try again in %d seconds", msg, e.retryAfter)
}

// notReadyRetry is the wait suggested while the first refresh runs or when
// no attempt is scheduled.
const notReadyRetry = 5 * time.Second

// checkReady returns a *notReadyError until a refresh has succeeded or pages
// are held. The reason a refresh failed stays in the log and the admin
// status: it is not the public's business.
func (s *Server) checkReady() error {
	st := s.Stats()
	if st.Ready() {
		return nil
	}
	wait := notReadyRetry
	if !st.Refreshing && !st.NextAttempt.IsZero() {
		wait = max(st.NextAttempt.Sub(s.clock.Now()), time.Second)
	}
	secs := int((wait + time.Second - 1) / time.Second)
	return &notReadyError{origin: s.opts.Origin, loading: st.Refreshing, retryAfter: secs}
}

// find checks q and searches the index within RequestTimeout (tool handlers
// do not always run under the HTTP request's context).
func (s *Server) find(ctx context.Context, q string, limit int) ([]hit, error) {
	if err := s.checkQuery(q); err != nil {
		return nil, err
	}
	if err := s.checkReady(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.RequestTimeout)
	defer cancel()
	return s.index.search(ctx, q, s.limitOrDefault(limit))
}

// displayTitle is the page title, or its path when it has none.
func (d *doc) displayTitle() string {
	if d.title != "" {
		return d.title
	}
	if u, err := url.Parse(d.url); err == nil {
		return u.Path
	}
	return d.url
}

// excerpt is the text around the hit's best match, or the page's
// description when nothing in the text matched (a title-only match).
func (h hit) excerpt() string {
	if h.snippet != "" {
		return h.snippet
	}
	return h.doc.description
}

// AskResponse is the NLWeb answer of /ask and the ask tool: the query and
// schema.org items from the index, best first.
type AskResponse struct {
	// Context is the JSON-LD context, "https://schema.org".
	Context string `json:"@context" jsonschema:"the JSON-LD context, https://schema.org"`
	// Query is the query as received.
	Query string `json:"query" jsonschema:"the query as received"`
	// Results are the matching pages, best first.
	Results []AskItem `json:"results" jsonschema:"matching pages as schema.org items, best first"`
}

// AskItem is one /ask result, a schema.org WebPage.
type AskItem struct {
	// Type is the schema.org type, "WebPage".
	Type string `json:"@type" jsonschema:"the schema.org type, WebPage"`
	// Name is the page title.
	Name string `json:"name" jsonschema:"the page title"`
	// URL is the page's canonical URL.
	URL string `json:"url" jsonschema:"the page's canonical URL"`
	// Description is the page's description, or a text excerpt matching the query.
	Description string `json:"description" jsonschema:"the page description, or an excerpt matching the query"`
	// Section is the heading of the page's section that matches best, when
	// the match is under one.
	Section string `json:"section,omitempty" jsonschema:"the heading of the best-matching section of the page"`
	// Snippet is the text around the best match, about 240 bytes on one line.
	Snippet string `json:"snippet,omitempty" jsonschema:"the text around the best match in the page"`
	// InLanguage is the page's language tag, when known.
	InLanguage string `json:"inLanguage,omitempty" jsonschema:"the page's BCP 47 language tag"`
	// DateModified is the page's last-modified date, when known.
	DateModified string `json:"dateModified,omitempty" jsonschema:"the page's last-modified date"`
}

// ask runs q and shapes the hits as an NLWeb answer.
func (s *Server) ask(ctx context.Context, q string, limit int) (AskResponse, error) {
	hits, err := s.find(ctx, q, limit)
	if err != nil {
		return AskResponse{}, err
	}
	out := AskResponse{Context: "https://schema.org", Query: q, Results: make([]AskItem, 0, len(hits))}
	for _, h := range hits {
		desc := h.doc.description
		if desc == "" {
			desc = h.excerpt()
		}
		out.Results = append(out.Results, AskItem{
			Type: "WebPage", Name: h.doc.displayTitle(), URL: h.doc.url, Description: desc,
			Section: h.heading, Snippet: h.snippet, InLanguage: h.doc.language, DateModified: h.doc.updated,
		})
	}
	return out, nil
}
