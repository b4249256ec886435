package negotiate

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// frontController is a next in the shape of php_fastcgi: it rewrites the
// request's path in place to the script (keeping the query) before it
// answers, as Caddy's rewrite handler does.
func frontController(body string) Next {
	return func(w http.ResponseWriter, r *http.Request) error {
		r.URL.Path, r.URL.RawPath = "/index.php", ""
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, err := w.Write([]byte(body))
		return err
	}
}

// TestClientURL: what the handler derives from the page's address (the
// Markdown alternate in Link and in the head, the converter's page URL)
// comes from the URL the client asked for: neither a rewrite after the
// handler (php_fastcgi's to /index.php) nor one before it (try_files, a
// stripped prefix: Handler.ClientURL) shows.
func TestClientURL(t *testing.T) {
	for _, tc := range []struct {
		name      string
		path      string // what the handler receives
		client    string // what the client asked for ("" = no ClientURL)
		wantLink  string // the page's Markdown alternate
		wantPage  string // the converter's page URL, without the origin
		wantMDReq bool   // also ask for the Markdown form
	}{
		{"rewrite after the handler", "/hello-world/", "", "/hello-world/md/", "/hello-world/", true},
		{"rewrite after, with a query", "/?s=caddy", "", "/md?s=caddy", "/?s=caddy", true},
		{"rewrite before the handler", "/index.php", "/hello-world/", "/hello-world/md/", "/hello-world/", true},
		{"prefix stripped before the handler", "/post", "/blog/post", "/blog/post/md", "/blog/post", true},
		{"client query kept", "/index.php?p=1", "/?p=1", "/md?p=1", "/?p=1", true},
		{"suffix asked before the rewrite", "/post/md", "/blog/post/md", "", "/blog/post", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStack(t, stackConfig{next: frontController(testPage)})
			if tc.client != "" {
				s.handler.ClientURL = func(*http.Request) *url.URL {
					u, _ := url.Parse(tc.client)
					return u
				}
			}
			if tc.wantLink != "" {
				res := s.do(http.MethodGet, tc.path, hdr("Accept", browserAccept))
				link := `<` + tc.wantLink + `>; rel="alternate"; type="text/markdown"`
				if !strings.Contains(strings.Join(res.header.Values("Link"), ", "), link) {
					t.Errorf("Link %q, want %s", res.header.Values("Link"), link)
				}
				head := `<link rel="alternate" type="text/markdown" href="` + strings.ReplaceAll(tc.wantLink, "&", "&amp;") + `">`
				if !strings.Contains(string(res.body), head) {
					t.Errorf("head lacks %s:\n%s", head, res.body)
				}
			}
			res := s.do(http.MethodGet, tc.path, hdr("Accept", agentAccept))
			res.wantHeader(t, "Content-Type", "text/markdown; charset=utf-8")
			calls := wantConverted(t, s, 1)
			if len(calls) == 1 && !strings.HasSuffix(calls[0].url, "127.0.0.1"+port(s)+tc.wantPage) {
				t.Errorf("page URL %q, want …%s", calls[0].url, tc.wantPage)
			}
		})
	}
}

func port(s *stack) string {
	u, _ := url.Parse(s.front.URL)
	return ":" + u.Port()
}

// TestPublicOrigin: with Handler.Origin (the YAML's site.origin), the
// page's absolute URL is on the public origin, not on the scheme and host
// the request reached this server with (a proxy in front that ends TLS).
func TestPublicOrigin(t *testing.T) {
	for _, tc := range []struct{ public, path, want string }{
		{"https://widgets.example", "/hello-world/", "https://widgets.example/hello-world/"},
		{"https://widgets.example:8443", "/a%20b?x=1", "https://widgets.example:8443/a%20b?x=1"},
		{"", "/hello-world/", "http://127.0.0.1"},
	} {
		t.Run(tc.public+tc.path, func(t *testing.T) {
			s := newStack(t, stackConfig{next: frontController(testPage), public: tc.public})
			s.do(http.MethodGet, tc.path, hdr("Accept", agentAccept))
			calls := wantConverted(t, s, 1)
			if len(calls) == 1 && !strings.HasPrefix(calls[0].url, tc.want) {
				t.Errorf("page URL %q, want %s…", calls[0].url, tc.want)
			}
		})
	}
	for _, bad := range []string{"widgets.example", "ftp://widgets.example", "https://"} {
		h := &Handler{Convert: func([]byte, Page) (*Converted, error) { return nil, nil }, Origin: bad}
		if err := h.Provision(); err == nil {
			t.Errorf("Origin %q: Provision accepted it", bad)
		}
	}
}
