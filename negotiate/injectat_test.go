package negotiate

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestInjectAtIsInject: InjectAt is given exactly what ClientURL answered
// (nil when it is unset or answers nil), and a handler with it answers as
// one whose Inject asks ClientURL itself.
func TestInjectAtIsInject(t *testing.T) {
	public, _ := url.Parse("/public/page?x=1")
	next := func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, err := io.WriteString(w, "<html><head><title>t</title></head><body>x</body></html>")
		return err
	}
	for _, tc := range []struct {
		name   string
		client func(*http.Request) *url.URL
	}{
		{"no ClientURL", nil},
		{"ClientURL answers nil", func(*http.Request) *url.URL { return nil }},
		{"ClientURL answers", func(*http.Request) *url.URL { return public }},
	} {
		inject := func(u *url.URL) *Injection {
			if u == nil {
				return &Injection{Key: "none", Head: []HeadElement{{HTML: "<meta name=none>"}}}
			}
			return &Injection{Key: "at " + u.String(), Head: []HeadElement{{HTML: "<meta name=\"" + u.Path + "\">"}}}
		}
		var given []*url.URL
		at := &Handler{Convert: fixedConvert, ClientURL: tc.client, InjectAt: func(r *http.Request, u *url.URL) *Injection {
			given = append(given, u)
			return inject(u)
		}}
		plain := &Handler{Convert: fixedConvert, ClientURL: tc.client, Inject: func(r *http.Request) *Injection {
			if tc.client == nil {
				return inject(nil)
			}
			return inject(tc.client(r))
		}}
		for _, h := range []*Handler{at, plain} {
			if err := h.Provision(); err != nil {
				t.Fatal(err)
			}
		}
		serve := func(h *Handler) (http.Header, string) {
			r := httptest.NewRequest(http.MethodGet, "http://example.test/page", nil)
			r.Header.Set("Accept", "text/html")
			w := httptest.NewRecorder()
			if err := h.ServeHTTP(w, r, next); err != nil {
				t.Fatal(err)
			}
			return w.Result().Header, w.Body.String()
		}
		for range 2 {
			hAt, bodyAt := serve(at)
			hPlain, bodyPlain := serve(plain)
			if bodyAt != bodyPlain || strings.Join(hAt["Link"], ",") != strings.Join(hPlain["Link"], ",") || !strings.Contains(bodyAt, "<meta") {
				t.Errorf("%s: InjectAt answered %q, Inject %q", tc.name, bodyAt, bodyPlain)
			}
		}
		for _, u := range given {
			want := (*url.URL)(nil)
			if tc.name == "ClientURL answers" {
				want = public
			}
			if u != want {
				t.Errorf("%s: InjectAt given %v, want %v", tc.name, u, want)
			}
		}
		if len(given) == 0 {
			t.Errorf("%s: InjectAt not asked", tc.name)
		}
	}
}
