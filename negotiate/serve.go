package negotiate

import "net/http"

// The response path starts here: ServeHTTP hands a suffix URL to Reenter
// (suffix.go), wraps the client's writer (response.go), calls next with it
// and ends the response once next returns (writer.go). Its files build on
// each other in this order, each using only those before it (and the
// package's leaves: headers, media types, decoding, the rewriter):
//
//	handler.go < suffix.go < response.go < respond.go, slash.go
//	  < html.go < markdown.go < writer.go < serve.go

// ServeHTTP negotiates the response of next. Requests it cannot negotiate
// (methods other than GET and HEAD, protocol upgrades) go to next untouched.
// An error from next is returned untouched; if the response was still
// buffered, nothing of it has been written, so an error handler can answer.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request, next Next) error {
	if !h.ready {
		return errNotProvisioned
	}
	// RFC 9110 §9.3.1-2: only GET and HEAD select a representation to
	// negotiate; an upgrade (§7.8) hands the connection over.
	if (r.Method != http.MethodGet && r.Method != http.MethodHead) || isUpgrade(r) {
		return next(w, r)
	}
	rw := h.newResponseWriter(w, r)
	if rw.reenter != "" {
		if h.reenter(w, reentry(r, markPage, rw.reenter, rw.public.RawQuery)) {
			rw.free()
			return nil
		}
		rw.reenter = ""
		rw.fromPath()
	}
	originReq := rw.originRequest(r)
	returned := false
	defer func() {
		if !returned {
			rw.abort() // next panicked (http.ErrAbortHandler, say): stop the rewriter
		}
	}()
	var err error
	if rw.viaSuffix {
		err = rw.nextFollowingSlash(next, rw, originReq)
	} else {
		err = next(rw, originReq)
	}
	returned = true
	if err != nil {
		rw.abort()
		rw.free()
		return err
	}
	rw.finish()
	rw.free()
	return nil
}

func isUpgrade(r *http.Request) bool {
	return len(r.Header["Upgrade"]) > 0 || hasToken(r.Header["Connection"], "upgrade")
}
