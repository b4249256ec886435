package connect

import (
	"errors"
	"net/http"
	"strconv"
)

// serveAsk answers NLWeb's GET /ask?query=… with an AskResponse. An optional
// limit parameter asks for fewer results than MaxResults.
func (s *Server) serveAsk(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		// RFC 9110 §15.5.6: a 405 names the allowed methods.
		w.Header().Set("Allow", "GET, HEAD")
		writeProblem(w, http.StatusMethodNotAllowed, "method not allowed", "use GET "+s.opts.AskPath+"?query=…")
		return
	}
	r, ok := s.authenticate(w, r, toolAsk)
	if !ok {
		return
	}
	q := r.URL.Query()
	limit := 0
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			writeProblem(w, http.StatusBadRequest, "bad request", "limit must be a positive integer")
			return
		}
		limit = n
	}
	out, err := s.ask(r.Context(), q.Get("query"), limit)
	var notReady *notReadyError
	switch {
	case errors.As(err, &notReady):
		// The index has never loaded: an empty result would be a false
		// answer. 503 with Retry-After (RFC 9110 §15.6.4, §10.2.3) tells
		// clients to come back, as they do on a 429.
		w.Header().Set("Retry-After", strconv.Itoa(notReady.retryAfter))
		writeProblem(w, http.StatusServiceUnavailable, "index not ready", err.Error())
		return
	case errors.Is(err, errEmptyQuery):
		writeProblem(w, http.StatusBadRequest, "bad request", "the query parameter is required")
		return
	case err != nil && r.Context().Err() != nil:
		writeProblem(w, http.StatusServiceUnavailable, "timeout", "the search did not finish in time")
		return
	case err != nil:
		// Over-long or invalid queries (checkQuery); index errors are logged.
		status := http.StatusBadRequest
		if s.checkQuery(q.Get("query")) == nil {
			status = http.StatusInternalServerError
			s.log.Error("connect: ask", "error", err)
		}
		writeProblem(w, status, http.StatusText(status), err.Error())
		return
	}
	writeJSON(w, http.StatusOK, "application/json", out)
}
