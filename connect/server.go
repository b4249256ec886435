package connect

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server answers the MCP and NLWeb endpoints from an index of the site's
// pages. Create it with [New]; it is safe for concurrent use.
type Server struct {
	opts  Options
	src   Source
	log   *slog.Logger
	index *index

	mcp     *mcp.Server
	tools   []*mcp.Tool  // as registered, for Tools
	mcpHTTP http.Handler // SDK handler behind the SDK's bearer middleware
	limiter *limiter     // nil when rate limiting is off
	tokens  *verifier    // nil when public

	progress  progress
	refreshMu sync.Mutex // held by a refresh; guards closed
	closed    bool

	llmsMu sync.Mutex
	llms   Page // last /llms.txt the Source served; empty when none

	startOnce sync.Once
	stop      context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

// New validates opts, fills in defaults, and creates the index (in memory or
// under opts.IndexDir, which must be writable). logger may be nil. Call
// Start to index the site.
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
	x, err := openIndex(opts.IndexDir)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, src: src, log: logger, index: x}
	if opts.RequestsPerMinute > 0 {
		s.limiter = newLimiter(opts.RequestsPerMinute, maxTrackedClients)
	}
	if opts.Auth != nil {
		s.tokens = newVerifier(opts.Auth)
	}
	s.mcp, err = s.newMCPServer()
	if err != nil {
		x.close()
		return nil, err
	}
	s.mcpHTTP = s.newMCPHandler()
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

// Stats returns the index size and the progress of the current or last
// refresh.
func (s *Server) Stats() Stats {
	st := s.progress.snapshot()
	st.Pages, st.Bytes = s.index.counts()
	return st
}

// Close stops the refresh schedule, waits for a running refresh to end, and
// releases the index (removing its on-disk copy). Requests after Close fail.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		if s.stop != nil {
			s.stop()
		}
		s.startOnce.Do(func() {}) // a Start after Close does nothing
		s.wg.Wait()
		s.refreshMu.Lock()
		defer s.refreshMu.Unlock()
		s.closed = true
		if err := s.index.close(); err != nil {
			s.closeErr = fmt.Errorf("connect: closing index: %v", err)
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
