package negotiate

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// clientURLKey holds, in a miniServer request's context, the URL the
// request entered the server with (Caddy's original request).
type clientURLKey struct{}

// miniServer is a server's route chain in miniature, in the shape of
// Caddy's: each request entering it gets its own original URL; a
// basic_auth on the exact path /private/ comes first, then a rewrite of
// every path under /site (`rewrite * /site{uri}`; paths under /tried/ go
// to /index.php instead, as try_files does), then the handler, whose
// Reenter enters the chain again, then an origin that redirects the
// directories /dir, /private and /md to their slash in the client's terms
// (as file_server and WordPress do from the original request URI).
type miniServer struct {
	h       *Handler
	entered []string // request URIs that entered the chain
	asked   []string // paths the origin was asked for
}

func newMiniServer(t *testing.T) *miniServer {
	t.Helper()
	s := &miniServer{}
	s.h = &Handler{
		Convert: func(html []byte, p Page) (*Converted, error) {
			return &Converted{Markdown: []byte("# page " + p.URL.Path + "\n" + string(html) + "\n")}, nil
		},
		Reenter: func(w http.ResponseWriter, r *http.Request) bool {
			s.ServeHTTP(w, r)
			return true
		},
		ClientURL: func(r *http.Request) *url.URL {
			u, _ := r.Context().Value(clientURLKey{}).(*url.URL)
			return u
		},
	}
	if err := s.h.Provision(); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *miniServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.entered = append(s.entered, r.URL.RequestURI())
	u := *r.URL
	r = r.WithContext(context.WithValue(r.Context(), clientURLKey{}, &u))
	if r.URL.Path == "/private/" && r.Header.Get("Authorization") != "Basic good" {
		http.Error(w, "401 unauthorized", http.StatusUnauthorized)
		return
	}
	if strings.HasPrefix(r.URL.Path, "/tried/") {
		r.URL.Path = "/index.php" // try_files to a front controller
	} else if r.URL.Path == "/alias" {
		r.URL.Path = "/site/x/md" // a rewrite that makes a suffix URL
	} else {
		r.URL.Path, r.URL.RawPath = "/site"+r.URL.Path, ""
	}
	if err := s.h.ServeHTTP(w, r, s.origin); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
	}
}

func (s *miniServer) origin(w http.ResponseWriter, r *http.Request) error {
	s.asked = append(s.asked, r.URL.Path)
	client := r.Context().Value(clientURLKey{}).(*url.URL)
	switch r.URL.Path {
	case "/site/dir", "/site/private", "/site/md":
		http.Redirect(w, r, "http://"+r.Host+client.Path+"/", http.StatusMovedPermanently)
		return nil
	case "/site/elsewhere":
		http.Redirect(w, r, "/other/", http.StatusMovedPermanently)
		return nil
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, err := io.WriteString(w, "<p>html of "+r.URL.Path+"</p>")
	return err
}

// TestReenterFromClientURL: a suffix URL enters the chain again as the
// client's own request for the page: from the client's path, not the one
// a rewrite in front made of it (the rewrite applies once; a suffix the
// rewrite removed from the path is still the client's, one it added is
// not), and the origin's add-a-slash redirect is followed by entering the chain once
// more, so a rule on the exact path with the slash judges it. The answer
// is written once.
func TestReenterFromClientURL(t *testing.T) {
	for _, tc := range []struct {
		target, auth string
		status       int
		body         string   // the whole Markdown body; "": not Markdown
		entered      []string // request URIs that entered the chain
		asked        []string // paths the origin was asked for
	}{
		{"/about/md?x=1", "", 200, "# page /about\n<p>html of /site/about</p>\n",
			[]string{"/about/md?x=1", "/about?x=1"}, []string{"/site/about"}},
		{"/dir/md", "", 200, "# page /dir/\n<p>html of /site/dir/</p>\n",
			[]string{"/dir/md", "/dir", "/dir/"}, []string{"/site/dir", "/site/dir/"}},
		{"/private/md", "", 401, "",
			[]string{"/private/md", "/private", "/private/"}, []string{"/site/private"}},
		{"/private/md", "Basic good", 200, "# page /private/\n<p>html of /site/private/</p>\n",
			[]string{"/private/md", "/private", "/private/"}, []string{"/site/private", "/site/private/"}},
		{"/md/md", "", 200, "# page /md/\n<p>html of /site/md/</p>\n",
			[]string{"/md/md", "/md", "/md/"}, []string{"/site/md", "/site/md/"}},
		{"/tried/page/md", "", 200, "# page /tried/page\n<p>html of /index.php</p>\n",
			[]string{"/tried/page/md", "/tried/page"}, []string{"/index.php"}},
		{"/alias", "", 200, "",
			[]string{"/alias"}, []string{"/site/x/md"}},
		{"/elsewhere/md", "", 301, "",
			[]string{"/elsewhere/md", "/elsewhere"}, []string{"/site/elsewhere"}},
	} {
		t.Run(tc.target+" "+tc.auth, func(t *testing.T) {
			s := newMiniServer(t)
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("GET", "http://site.test"+tc.target, nil)
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			s.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d\n%s", rec.Code, tc.status, rec.Body)
			}
			if tc.body == "" && strings.HasPrefix(rec.Body.String(), "# page") {
				t.Errorf("Markdown for a URL the client did not ask in Markdown: %q", rec.Body)
			}
			if tc.body != "" && rec.Body.String() != tc.body {
				t.Errorf("body %q, want %q", rec.Body, tc.body)
			}
			if tc.status != 200 && strings.Contains(rec.Body.String(), "html of") {
				t.Errorf("the page leaked in a %d: %q", rec.Code, rec.Body)
			}
			if got := strings.Join(s.entered, " "); got != strings.Join(tc.entered, " ") {
				t.Errorf("entered the chain as %q, want %q", got, strings.Join(tc.entered, " "))
			}
			if got := strings.Join(s.asked, " "); got != strings.Join(tc.asked, " ") {
				t.Errorf("origin asked for %q, want %q", got, strings.Join(tc.asked, " "))
			}
		})
	}
}

// countingWriter counts the status lines a response gets.
type countingWriter struct {
	*httptest.ResponseRecorder
	statuses int
}

func (c *countingWriter) WriteHeader(status int) {
	c.statuses++
	c.ResponseRecorder.WriteHeader(status)
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.statuses == 0 {
		c.WriteHeader(http.StatusOK)
	}
	return c.ResponseRecorder.Write(p)
}

// FuzzReenter: whatever path a client sends, its request enters the chain
// at most three times (its own, the page's, the page's with the slash),
// gets one status line and at most one Markdown document.
func FuzzReenter(f *testing.F) {
	for _, s := range []string{"/md/md", "/dir/md", "/private/md", "/md", "/md/", "/%2e%2e/md", "/a%2fmd", "/dir/md/md?x=1", "/tried/md", "/alias"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, target string) {
		u, err := url.ParseRequestURI(target)
		if err != nil || u.Host != "" || !strings.HasPrefix(target, "/") {
			return
		}
		s := newMiniServer(t)
		w := &countingWriter{ResponseRecorder: httptest.NewRecorder()}
		req := (&http.Request{Method: http.MethodGet, URL: u, RequestURI: target, Host: "site.test", Header: http.Header{}, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}).WithContext(context.Background())
		s.ServeHTTP(w, req)
		if len(s.entered) > 3 {
			t.Errorf("%q entered the chain %d times: %q", target, len(s.entered), s.entered)
		}
		if w.statuses != 1 {
			t.Errorf("%q got %d status lines", target, w.statuses)
		}
		if n := strings.Count(w.Body.String(), "# page "); n > 1 {
			t.Errorf("%q got %d Markdown documents:\n%s", target, n, w.Body)
		}
	})
}
