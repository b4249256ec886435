package negotiate

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/internal/benchpage"
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

// BenchmarkHTMLAnnotated is an HTML page a browser gets, annotated with a
// lang, head elements and a form rule its page does not match, as the
// origin sends it (Content-Length, 32 KiB writes): a 60 KiB page is
// rewritten whole and from its plan after the first time; a 1 MiB one,
// over maxPlannedPage, streams through the rewriter, which scans it to the
// end for a form (quiet mode, htmlrewrite's skim). The "named" cases have a
// strong ETag: from the second time, either streams through its plan.
func BenchmarkHTMLAnnotated(b *testing.B) {
	section := benchpage.Section(1)
	inj := *fullInjection
	inj.Key = "bench"
	h := &Handler{Convert: fixedConvert, Inject: func(*http.Request) *Injection { return &inj }}
	if err := h.Provision(); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		size int
		etag string
	}{{"60k", 60 << 10, ""}, {"1m", 1 << 20, ""}, {"60k-named", 60 << 10, `"v1"`}, {"1m-named", 1 << 20, `"v1"`}} {
		b.Run(tc.name, func(b *testing.B) {
			head := "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<title>Bench</title>\n</head>\n<body>\n<main>\n"
			body := []byte(head + strings.Repeat(section, (tc.size-len(head))/len(section)+1))[:tc.size]
			length := strconv.Itoa(len(body))
			next := func(w http.ResponseWriter, r *http.Request) error {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Header().Set("Content-Length", length)
				if tc.etag != "" {
					w.Header().Set("Etag", tc.etag)
				}
				w.WriteHeader(http.StatusOK)
				for p := body; len(p) > 0; {
					n := min(len(p), 32<<10)
					if _, err := w.Write(p[:n]); err != nil {
						return err
					}
					p = p[n:]
				}
				return nil
			}
			r := httptest.NewRequest(http.MethodGet, "/pricing", nil)
			r.Header.Set("Accept", acceptChrome)
			w := &discardWriter{h: http.Header{}}
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				if err := h.ServeHTTP(w, r, next); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
