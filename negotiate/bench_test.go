package negotiate

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func BenchmarkParseAccept(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ParseAccept(acceptChrome)
	}
}

func BenchmarkPrefersMarkdown(b *testing.B) {
	for _, tc := range []struct{ name, accept string }{
		{"chrome", acceptChrome}, {"agent", acceptAgent}, {"curl", acceptCurl},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				PrefersMarkdown(tc.accept)
			}
		})
	}
}

// discardWriter is a ResponseWriter that keeps nothing but its header map.
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardWriter) WriteHeader(int)             {}

// BenchmarkHTMLPassThrough measures what the handler adds to an HTML page a
// browser gets: the decision, Vary and the Link headers (head injection off,
// so the body goes straight through).
func BenchmarkHTMLPassThrough(b *testing.B) {
	h := &Handler{Convert: fixedConvert, Options: Options{HeadLink: Bool(false)}}
	if err := h.Provision(); err != nil {
		b.Fatal(err)
	}
	body := []byte(testPage)
	next := func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, err := w.Write(body)
		return err
	}
	r := httptest.NewRequest(http.MethodGet, "/pricing", nil)
	r.Header.Set("Accept", acceptChrome)
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		clear(w.h)
		if err := h.ServeHTTP(w, r, next); err != nil {
			b.Fatal(err)
		}
	}
}
