package documents

import (
	"bytes"
	"net/http"
	"strconv"
)

// recorder stands between the next handler and the client when the
// origin's answer may be replaced: a response whose status keep accepts is
// held (its header in w's header map, not sent; at most limit bytes of its
// body in memory) for the caller to replace or to send as it was
// (writeResponse); any other response goes through to w as it is written.
//
// A held response whose body outgrows limit (or whose Content-Length says
// it will) is let go: what was held is sent, then the rest streams
// through, so the client gets the origin's bytes untouched and no more
// than limit bytes are ever held (spilled reports it). A recorder that
// drops holds no body at all: its caller always replaces a held response.
type recorder struct {
	w       http.ResponseWriter
	keep    func(status int) bool
	limit   int
	drop    bool
	status  int // 0 until the handler writes its header
	held    bool
	spilled bool
	body    bytes.Buffer
}

// newRecorder holds responses whose status keep accepts, with at most
// limit bytes of body.
func newRecorder(w http.ResponseWriter, keep func(status int) bool, limit int) *recorder {
	return &recorder{w: w, keep: keep, limit: limit}
}

// newDroppingRecorder holds responses whose status keep accepts without
// their body, for a caller that never sends a held response.
func newDroppingRecorder(w http.ResponseWriter, keep func(status int) bool) *recorder {
	return &recorder{w: w, keep: keep, drop: true}
}

// Header is w's live header map: a held response's header waits there.
func (rec *recorder) Header() http.Header { return rec.w.Header() }

// WriteHeader decides, on the final status, whether the response is held.
func (rec *recorder) WriteHeader(status int) {
	if rec.status != 0 {
		return
	}
	if status < http.StatusOK {
		// 1xx are informational: the final status follows (RFC 9110 §15.2).
		rec.w.WriteHeader(status)
		return
	}
	rec.status = status
	rec.held = rec.keep(status)
	if rec.held && !rec.drop && rec.over(rec.w.Header().Get("Content-Length")) {
		rec.held, rec.spilled = false, true
	}
	if !rec.held {
		rec.w.WriteHeader(status)
	}
}

// over reports whether a Content-Length announces more than limit bytes;
// a malformed one leaves it to the bytes written.
func (rec *recorder) over(cl string) bool {
	n, err := strconv.ParseInt(cl, 10, 64)
	return err == nil && n > int64(rec.limit)
}

func (rec *recorder) Write(p []byte) (int, error) {
	rec.WriteHeader(http.StatusOK)
	switch {
	case !rec.held:
		return rec.w.Write(p)
	case rec.drop:
		return len(p), nil
	case rec.body.Len()+len(p) <= rec.limit:
		return rec.body.Write(p)
	}
	// Over the limit: send the response as it is, from its first byte.
	rec.held, rec.spilled = false, true
	if err := rec.writeResponse(); err != nil {
		return 0, err
	}
	rec.body = bytes.Buffer{}
	return rec.w.Write(p)
}

// Flush sends what was written of a response that is not held.
func (rec *recorder) Flush() {
	if rec.status != 0 && !rec.held {
		_ = http.NewResponseController(rec.w).Flush()
	}
}

// Unwrap gives http.ResponseController the client's writer.
func (rec *recorder) Unwrap() http.ResponseWriter { return rec.w }

// buffered reports whether the response was held. A handler that wrote
// nothing has sent nothing either: its empty 200 is held, so the caller
// answers in its stead.
func (rec *recorder) buffered() bool {
	if rec.status == 0 {
		rec.status, rec.held = http.StatusOK, true
	}
	return rec.held
}

// wrote reports whether any of the response went to the client.
func (rec *recorder) wrote() bool { return rec.status != 0 && !rec.held }

// writeResponse sends a held response as the handler wrote it.
func (rec *recorder) writeResponse() error {
	rec.w.WriteHeader(rec.status)
	_, err := rec.w.Write(rec.body.Bytes())
	return err
}

// Interface guards
var _ http.Flusher = (*recorder)(nil)
