package negotiate

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/negotiate/htmlrewrite"
)

// The rewriter itself is package htmlrewrite's and tested there; these
// tests cover what negotiate adds: the coding kept around it and the
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

// rewriteWhole is the rewriter over the identity page, in one Write.
func rewriteWhole(page []byte, inj *Injection) []byte {
	var out bytes.Buffer
	w := htmlrewrite.New(&out, inj)
	_, _ = w.Write(page)
	_ = w.Close()
	return out.Bytes()
}

// FuzzEncodeAs: a page encoded again in any coding the HTML path keeps
// decodes to the page, and an encoding over its limit stops with
// errLarger, never with more output than the limit.
func FuzzEncodeAs(f *testing.F) {
	f.Add([]byte(testPage), uint8(7))
	f.Add([]byte(""), uint8(1))
	f.Add([]byte(strings.Repeat("<p>aaaa</p>", 5000)), uint8(2))
	f.Fuzz(func(t *testing.T, page []byte, pick uint8) {
		coding := []string{"gzip", "br", "zstd", "deflate", "x-gzip"}[int(pick)%5]
		out, err := encodeAs([]byte("x"), page, coding, len(page)+1024)
		if err != nil {
			t.Fatalf("%s: %v", coding, err)
		}
		if out[0] != 'x' {
			t.Fatal("the bytes before were changed")
		}
		if got, err := Decode(bytes.NewReader(out[1:]), coding, int64(len(page))); err != nil || !bytes.Equal(got, page) {
			t.Fatalf("%s: decodes to %d bytes, %v; want the page's %d", coding, len(got), err, len(page))
		}
		limit := int(pick) % (len(out) - 1) // under the encoded length
		if short, err := encodeAs(nil, page, coding, limit); !errors.Is(err, errLarger) || len(short) > limit {
			t.Fatalf("%s with a limit of %d of %d: %d bytes, %v", coding, limit, len(out)-1, len(short), err)
		}
	})
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
