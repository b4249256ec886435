package negotiate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/negotiate/htmlrewrite"
)

// The rewriter itself is package htmlrewrite's and tested there; these
// tests cover what negotiate adds: the decoder in front of it and the
// rewrite plans of the handler.

var (
	alwaysHead = HeadElement{HTML: `<meta name="x-injected" content="1">`}
	// fullInjection makes every kind of change.
	fullInjection = &Injection{
		Lang: "en",
		Head: []HeadElement{alwaysHead, {
			HTML:   `<link rel="canonical" href="https://example.com/pricing">`,
			SkipIf: TagMatch{Tag: "link", Attrs: map[string]string{"rel": "canonical"}},
		}},
		Forms: []FormAnnotation{{
			Selector: "form#contact",
			Attrs:    map[string]string{"toolname": "contact_us"},
			Fields:   map[string]map[string]string{"email": {"toolparamdescription": "Your email address"}},
		}},
	}
)

// rewriteCoded runs the decoding rewriter over in, in the content coding
// given, chunk bytes per Write (io.CopyBuffer reads, and so writes, at most
// a buffer at a time); it fails the test on any error.
func rewriteCoded(t testing.TB, in []byte, inj *Injection, chunk int, coding string) []byte {
	t.Helper()
	var out bytes.Buffer
	w := newDecodingRewriter(&out, inj, coding, 0)
	src := struct{ io.Reader }{bytes.NewReader(in)} // no WriteTo: the buffer is used
	if _, err := io.CopyBuffer(w, src, make([]byte, chunk)); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return out.Bytes()
}

// rewriteWhole is the rewriter over the identity page, in one Write.
func rewriteWhole(page []byte, inj *Injection) []byte {
	var out bytes.Buffer
	w := htmlrewrite.New(&out, inj)
	_, _ = w.Write(page)
	_ = w.Close()
	return out.Bytes()
}

// FuzzDecodingRewriter: a page in any of the codings the rewriter undoes,
// in writes of any size, comes out as the identity page rewritten.
func FuzzDecodingRewriter(f *testing.F) {
	f.Add([]byte(testPage), uint8(7))
	f.Add([]byte("<html><head></head><body><form id=contact><input name=email></form>"), uint8(1))
	f.Add([]byte("<script>"), uint8(3))
	f.Add([]byte("</"), uint8(2))
	f.Fuzz(func(t *testing.T, page []byte, chunk uint8) {
		want := rewriteWhole(page, fullInjection)
		coding := []string{"gzip", "br", "zstd", "deflate"}[int(chunk)%4]
		if got := rewriteCoded(t, encode(t, page, coding), fullInjection, int(chunk%64)+1, coding); !bytes.Equal(got, want) {
			t.Fatalf("%s input gives another output:\n%q\n%q", coding, got, want)
		}
	})
}

// A decompression bomb through the head rewrite stops at the bound instead
// of inflating the response.
func TestRewriterBoundsDecoding(t *testing.T) {
	page := []byte("<html><head><title>t</title></head><body>" + strings.Repeat("<p>aaaaaaaaaaaaaaaa</p>", 200000) + "</body></html>")
	gz := encode(t, page, "gzip")
	var out bytes.Buffer
	w := newDecodingRewriter(&out, &Injection{Lang: "en"}, "gzip", 1<<20)
	_, werr := w.Write(gz)
	cerr := w.Close()
	if !errors.Is(werr, ErrTooLarge) && !errors.Is(cerr, ErrTooLarge) {
		t.Fatalf("write %v, close %v; want ErrTooLarge", werr, cerr)
	}
	if out.Len() > 1<<20+64<<10 {
		t.Errorf("%d bytes out for a bound of 1 MiB", out.Len())
	}
	// Under the bound, the whole page comes through.
	out.Reset()
	if got := rewriteCoded(t, gz, &Injection{}, 4096, "gzip"); !bytes.Equal(got, page) {
		t.Errorf("an unbounded decode changed the page")
	}
}

// Through the handler: the second request for the same page is annotated
// from the plan, byte for byte as the first, and both carry the exact
// Content-Length; a changed page gets a plan of its own.
func TestHandlerRewritePlans(t *testing.T) {
	page := testPage
	s := newStack(t, stackConfig{
		origin: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, strings.Replace(page, "<title>", "<title>"+r.URL.Query().Get("v"), 1))
		},
		inject: func(r *http.Request) *Injection {
			return &Injection{Lang: "en", Head: []HeadElement{alwaysHead}, Key: "site"}
		},
	})
	first := s.do(http.MethodGet, "/pricing", hdr("Accept", browserAccept))
	second := s.do(http.MethodGet, "/pricing", hdr("Accept", browserAccept))
	if !bytes.Equal(first.body, second.body) || !strings.Contains(string(first.body), alwaysHead.HTML) {
		t.Fatalf("first %q\nsecond %q", first.body, second.body)
	}
	for _, res := range []*result{first, second} {
		res.wantHeader(t, "Content-Length", fmt.Sprint(len(first.body)))
	}
	if n := s.handler.plans.Len(); n != 1 {
		t.Errorf("%d plans after two requests for one page, want 1", n)
	}
	if ev := s.obs.list(); !slices.Contains(ev, "rewrote:plan=false") || !slices.Contains(ev, "rewrote:plan=true") {
		t.Errorf("events %v: want one rewrite read as HTML and one from its plan", ev)
	}
	other := s.do(http.MethodGet, "/pricing?v=2", hdr("Accept", browserAccept))
	if !strings.Contains(string(other.body), "<title>2") || s.handler.plans.Len() != 2 {
		t.Errorf("a changed page: %d plans, body %q", s.handler.plans.Len(), other.body)
	}
}
