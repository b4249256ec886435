package sites

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/traffic"
)

func TestWriter(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ctype  string
		write  func(w http.ResponseWriter)
		status int
		bytes  int64
		form   traffic.Form
	}{
		{"html", "Text/HTML; charset=utf-8", func(w http.ResponseWriter) { io.WriteString(w, "<p>hi</p>") }, 200, 9, traffic.FormHTML},
		{"markdown 201", "text/markdown", func(w http.ResponseWriter) { w.WriteHeader(201); io.WriteString(w, "# hi") }, 201, 4, traffic.FormMarkdown},
		{"103 then 404", "image/png", func(w http.ResponseWriter) { w.WriteHeader(103); w.WriteHeader(404) }, 404, 0, traffic.FormOther},
		{"copied", "text/html", func(w http.ResponseWriter) { io.Copy(w, strings.NewReader("abcdef")) }, 200, 6, traffic.FormHTML},
	} {
		rec := httptest.NewRecorder()
		tw := NewWriter(rec)
		tw.Header().Set("Content-Type", tc.ctype)
		tc.write(tw)
		if tw.Status != tc.status || tw.Bytes != tc.bytes || tw.Form != tc.form {
			t.Errorf("%s: status %d bytes %d form %v, want %d %d %v", tc.name, tw.Status, tw.Bytes, tw.Form, tc.status, tc.bytes, tc.form)
		}
		if int64(rec.Body.Len()) != tc.bytes {
			t.Errorf("%s: %d bytes reached the client", tc.name, rec.Body.Len())
		}
		tw.Release()
	}
}

// A form set by who serves the response (a generated document) is kept.
func TestWriterKeepsSetForm(t *testing.T) {
	tw := NewWriter(httptest.NewRecorder())
	defer tw.Release()
	tw.Form = traffic.FormDiscovery
	tw.Header().Set("Content-Type", "text/html")
	io.WriteString(tw, "x")
	if tw.Form != traffic.FormDiscovery {
		t.Errorf("form %v", tw.Form)
	}
}

// wrapper is a middleware's writer over another.
type wrapper struct{ http.ResponseWriter }

func (w wrapper) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func TestOuter(t *testing.T) {
	tw := NewWriter(httptest.NewRecorder())
	defer tw.Release()
	if got := Outer(wrapper{wrapper{tw}}); got != tw {
		t.Errorf("Outer found %v", got)
	}
	if got := Outer(httptest.NewRecorder()); got != nil {
		t.Errorf("Outer of a plain writer: %v", got)
	}
}
