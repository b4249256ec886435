package connect

import (
	"encoding/json"
	"net/http"
)

// problem is an RFC 9457 problem details body.
type problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail,omitempty"`
}

// writeProblem answers status with an application/problem+json body
// (RFC 9457 §3).
func writeProblem(w http.ResponseWriter, status int, title, detail string) {
	writeJSON(w, status, "application/problem+json", problem{Type: "about:blank", Title: title, Status: status, Detail: detail})
}

// writeJSON answers status with v as JSON. Answers are computed per request
// and depend on the index, so they are not stored by caches (RFC 9111 §5.2.2.5).
func writeJSON(w http.ResponseWriter, status int, contentType string, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, []byte(`{"title":"internal error","status":500}`)
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(body)
}
