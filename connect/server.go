package connect

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server answers the MCP and NLWeb endpoints from an index of the site's
// pages. Create it with [New]; it is safe for concurrent use.
type Server struct {
	opts  Options
	src   Source
	log   *slog.Logger
	store *Store
	owned bool   // the store is the server's own, closed by Close
	index *index // store.x

	clock  clock
	jitter func() float64 // in [0, 1]: where in the upper half of a backoff the wait falls

	mcp     *mcp.Server
	tools   []*mcp.Tool  // as registered, for Tools
	mcpHTTP http.Handler // SDK handler behind the SDK's bearer middleware
	limiter *limiter     // nil when rate limiting is off
	tokens  *verifier    // nil when public

	closed atomic.Bool

	llmsMu        sync.Mutex
	llmsPublished bool // the llms.txt resource is registered with s.mcp

	startOnce sync.Once
	stop      context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

// New validates opts, fills in defaults, and creates the index in memory
// unless opts.Store hands one over. logger may be nil. Call Start to index
// the site.
func New(opts Options, src Source, logger *slog.Logger) (*Server, error) {
	if src == nil {
		return nil, errors.New("connect: source is required")
	}
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if logger == nil {
		logger = discardLogger
	}
	store, owned := opts.Store, false
	if store == nil {
		store, owned = NewStore(opts.Language), true
	}
	s := &Server{
		opts: opts, src: src, log: logger, store: store, owned: owned, index: store.x,
		clock: realClock{}, jitter: rand.Float64,
	}
	if opts.RequestsPerMinute > 0 {
		s.limiter = newLimiter(opts.RequestsPerMinute, maxTrackedClients)
	}
	if opts.Auth != nil {
		s.tokens = newVerifier(opts.Auth)
	}
	s.mcp, err = s.newMCPServer()
	if err != nil {
		if owned {
			store.Close()
		}
		return nil, err
	}
	s.mcpHTTP = s.newMCPHandler()
	// A Store taken over may hold an llms.txt already.
	s.syncLLMsTxt()
	return s, nil
}

// Handles reports whether path is one of the endpoints this server answers
// (the MCP path or the ask path).
func (s *Server) Handles(path string) bool {
	return path == s.opts.MCPPath || path == s.opts.AskPath
}

// ServeHTTP answers the MCP and ask endpoints, rate-limited per client, and
// 404 for any other path.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.Handles(r.URL.Path) {
		writeProblem(w, http.StatusNotFound, "not found", "no such endpoint")
		return
	}
	if !s.allow(w, r) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.opts.RequestTimeout)
	defer cancel()
	r = r.WithContext(ctx)
	if r.URL.Path == s.opts.AskPath {
		s.serveAsk(w, r)
		return
	}
	s.serveMCP(w, r)
}

// Stats returns the index size, its state and the progress of the current
// or last refresh.
func (s *Server) Stats() Stats { return s.store.Stats() }

// Page returns the index's copy of a page of the site (an absolute URL on
// Options.Origin, or a path): its canonical URL, title, description and
// Markdown (front matter included), as the last refresh fetched it; ok is
// false when the index does not hold it. The Markdown may be shared with
// the index (a page held unpacked): do not modify it.
func (s *Server) Page(raw string) (p Page, ok bool) {
	d, err := s.lookup(raw)
	if err != nil {
		return Page{}, false
	}
	return Page{URL: d.url, Title: d.displayTitle(), Description: d.description, Language: d.language,
		Markdown: d.markdown.bytes(), Updated: d.updated}, true
}

// Close stops the refresh schedule and waits for a running refresh to end.
// When the Store is the server's own, Close releases it and requests after
// Close fail; a Store handed in through Options.Store stays open for its
// next user.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		if s.stop != nil {
			s.stop()
		}
		s.startOnce.Do(func() {}) // a Start after Close does nothing
		s.wg.Wait()
		if s.owned {
			s.closeErr = s.store.Close()
		}
	})
	return s.closeErr
}

// newMCPHandler builds the streamable HTTP handler. It is stateless: every
// POST carries a whole exchange, so no session state grows with clients, and
// responses are plain JSON rather than SSE streams. DNS-rebinding protection
// is off because the content is the public site and the host is chosen by the
// front server (Caddy's host matchers), which often listens on loopback
// behind a proxy.
func (s *Server) newMCPHandler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		Stateless:                  true,
		JSONResponse:               true,
		Logger:                     s.log,
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        s.opts.MaxRequestBytes,
		// Tie tool handlers to the request (and its RequestTimeout) where
		// the protocol version allows it (2026-07-28 and later).
		PropagateRequestCancellation: true,
	})
	if s.tokens == nil {
		return h
	}
	// The token was verified (with proper challenges) before this point; the
	// SDK middleware only carries it into the session, where tool handlers
	// read it from CallToolRequest.Extra.TokenInfo.
	return auth.RequireBearerToken(func(_ context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		if info := verifiedToken(r.Context()); info != nil {
			return info, nil
		}
		return nil, auth.ErrInvalidToken
	}, &auth.RequireBearerTokenOptions{ResourceMetadataURL: s.opts.Auth.ResourceMetadataURL})(h)
}
