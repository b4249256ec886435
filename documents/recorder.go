package documents

import (
	"bytes"
	"net/http"
)

// recorder stands between the next handler and the client when the
// origin's answer may be replaced: a response whose status keep accepts is
// held (its header in w's header map, not sent; its body in memory) for the
// caller to replace or to send as it was (writeResponse); any other
// response goes through to w as it is written.
type recorder struct {
	w      http.ResponseWriter
	keep   func(status int) bool
	status int // 0 until the handler writes its header
	held   bool
	body   bytes.Buffer
}

func newRecorder(w http.ResponseWriter, keep func(status int) bool) *recorder {
	return &recorder{w: w, keep: keep}
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
	if !rec.held {
		rec.w.WriteHeader(status)
	}
}

func (rec *recorder) Write(p []byte) (int, error) {
	rec.WriteHeader(http.StatusOK)
	if rec.held {
		return rec.body.Write(p)
	}
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
