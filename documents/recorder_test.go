package documents

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRecorderBound: a held response keeps at most limit bytes; past it, or
// when its Content-Length says it will pass it, the response goes to the
// client as it was written, from its first byte. A dropping recorder holds
// no body at all.
func TestRecorderBound(t *testing.T) {
	for _, tc := range []struct {
		name          string
		drop          bool
		contentLength string
		writes        []int
		held, spilled bool
		keptBytes     int
		sentBytes     int
	}{
		{"under the limit", false, "", []int{40, 60}, true, false, 100, 0},
		{"over the limit by writes", false, "", []int{60, 60, 30}, false, true, 0, 150},
		{"over the limit by Content-Length", false, "150", []int{150}, false, true, 0, 150},
		{"malformed Content-Length", false, "x", []int{10}, true, false, 10, 0},
		{"dropping", true, "", []int{1 << 20, 1 << 20}, true, false, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			keep := func(status int) bool { return status == http.StatusOK }
			rec := newRecorder(w, keep, 100)
			if tc.drop {
				rec = newDroppingRecorder(w, keep)
			}
			if tc.contentLength != "" {
				rec.Header().Set("Content-Length", tc.contentLength)
			}
			rec.WriteHeader(http.StatusOK)
			for _, n := range tc.writes {
				if m, err := rec.Write([]byte(strings.Repeat("a", n))); m != n || err != nil {
					t.Fatalf("Write: %d, %v", m, err)
				}
			}
			if rec.buffered() != tc.held || rec.spilled != tc.spilled || rec.body.Len() != tc.keptBytes || w.Body.Len() != tc.sentBytes {
				t.Errorf("held %v spilled %v kept %d sent %d; want %v %v %d %d",
					rec.held, rec.spilled, rec.body.Len(), w.Body.Len(), tc.held, tc.spilled, tc.keptBytes, tc.sentBytes)
			}
		})
	}
}
