package negotiate

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// TestPublicPathKept holds the escaped path the response writer keeps
// beside the client's URL (pubPath) to that URL's own EscapedPath, for
// requests with and without a rewrite in front (ClientURL), escaped
// slashes and letters, and Markdown suffix URLs with and without Reenter.
func TestPublicPathKept(t *testing.T) {
	for _, reenter := range []bool{false, true} {
		h := &Handler{Convert: fixedConvert}
		if reenter {
			h.Reenter = func(http.ResponseWriter, *http.Request) bool { return false }
		}
		if err := h.Provision(); err != nil {
			t.Fatal(err)
		}
		for _, target := range []string{"/", "/a/b", "/a%2Fb", "/%61", "/docs/", "/docs/md", "/docs/md/", "/a%2Fb/md", "/ü?q=1"} {
			for _, client := range []string{"", "/index.php", target, "/other%2Fpath/md"} {
				r := httptest.NewRequest(http.MethodGet, "http://example.test"+target, nil)
				h.ClientURL = nil
				if client != "" {
					u, err := url.Parse(client)
					if err != nil {
						t.Fatal(err)
					}
					h.ClientURL = func(*http.Request) *url.URL { return u }
				}
				rw := h.newResponseWriter(httptest.NewRecorder(), r)
				if rw.reenter == "" {
					rw.fromPath()
				}
				if want := rw.public.EscapedPath(); rw.pubPath != want {
					t.Errorf("reenter %v, %s (client %q): pubPath %q, public's escaped path %q", reenter, target, client, rw.pubPath, want)
				}
				rw.free()
			}
		}
	}
}
