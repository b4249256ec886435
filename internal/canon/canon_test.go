package canon

import (
	"net/http"
	"testing"
)

// TestGetIsHeadersGet: for a canonical key, Get reads what http.Header.Get
// reads.
func TestGetIsHeadersGet(t *testing.T) {
	h := http.Header{}
	h.Add("ETag", `"a"`)
	h.Add("etag", `"b"`)
	h.Set("Content-Type", "text/html")
	for _, key := range []string{"Etag", "Content-Type", "Last-Modified"} {
		if got, want := Get(h, key), h.Get(key); got != want {
			t.Errorf("Get(%q) = %q, http.Header.Get = %q", key, got, want)
		}
	}
	if got := Get(nil, "Etag"); got != "" {
		t.Errorf("Get of a nil header = %q", got)
	}
}
