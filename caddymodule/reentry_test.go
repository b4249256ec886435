package caddymodule

import (
	"fmt"
	"net"
	"net/http"
	"net/http/fcgi"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The Markdown suffix URL is served as the client's own request for the
// page: it enters the route chain again from the client's URI, and the
// page's add-a-slash redirect is followed by entering it once more.

// pathLog is an origin's record of the requests it answered.
type pathLog struct {
	mu   sync.Mutex
	seen []string // "METHOD path"; headers named in watch follow as "name=value"
}

func (l *pathLog) add(r *http.Request, watch ...string) {
	entry := r.URL.Path
	for _, h := range watch {
		if v := r.Header.Get(h); v != "" {
			entry += " " + h + "=" + v
		}
	}
	l.mu.Lock()
	l.seen = append(l.seen, entry)
	l.mu.Unlock()
}

func (l *pathLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.seen...)
}

// count is how many requests for path (with or without watched headers)
// the origin answered.
func (l *pathLog) count(path string) int {
	n := 0
	for _, e := range l.list() {
		if e == path || strings.HasPrefix(e, path+" ") {
			n++
		}
	}
	return n
}

// pageHTML writes a small HTML page naming path.
func pageHTML(w http.ResponseWriter, path string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!doctype html><html lang=en><head><title>Page %s</title></head><body><main><h1>Heading of %s</h1><p>Body text of the page %s, long enough to be kept.</p></main></body></html>", path, path, path)
}

// TestSecuritySuffixStaysInItsBlock: under handle_path /partner/* beside a
// catch-all handle with another backend, /partner/report/md is the page
// /partner/report, asked of the partner backend as /report (once, with the
// block's X-Api-Key); the other backend never sees it, nor the block's key
// or the client's credentials.
func TestSecuritySuffixStaysInItsBlock(t *testing.T) {
	var partnerLog, mainLog pathLog
	partner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		partnerLog.add(r, "X-Api-Key", "Authorization")
		pageHTML(w, "partner "+r.URL.Path)
	}))
	defer partner.Close()
	main := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mainLog.add(r, "X-Api-Key", "Authorization")
		pageHTML(w, "main "+r.URL.Path)
	}))
	defer main.Close()
	base, _ := runCaddy(t, `:{port} {
	bind 127.0.0.1
	handle_path /partner/* {
		request_header X-Api-Key partner-key
		agent_ready {
			self_scan off
		}
		reverse_proxy `+strings.TrimPrefix(partner.URL, "http://")+`
	}
	handle {
		agent_ready {
			self_scan off
		}
		reverse_proxy `+strings.TrimPrefix(main.URL, "http://")+`
	}
}
`)
	resp, body := get(t, "GET", base+"/partner/report/md", "Authorization", "Bearer client-token")
	if resp.StatusCode != 200 || !strings.Contains(body, "# Heading of partner /report") {
		t.Errorf("/partner/report/md: %d, want the Markdown of the partner's /report:\n%s", resp.StatusCode, body)
	} else if !strings.Contains(body, "canonical: "+base+"/partner/report\n") {
		t.Errorf("the page's address is not the client's /partner/report:\n%s", body)
	}
	got := partnerLog.list()
	want := "/report X-Api-Key=partner-key Authorization=Bearer client-token"
	if n := partnerLog.count("/report"); n != 1 || !strings.Contains(strings.Join(got, "\n")+"\n", want+"\n") {
		t.Errorf("the partner backend saw %q, want %q once", got, want)
	}
	for _, e := range mainLog.list() {
		if strings.Contains(e, "report") || strings.Contains(e, "X-Api-Key") || strings.Contains(e, "client-token") {
			t.Errorf("the other block's backend was asked %q", e)
		}
	}
}

// TestSecuritySuffixRewriteOnce: behind `rewrite * /site{uri}`, /about/md
// asks the origin for /site/about once, never /site/site/about.
func TestSecuritySuffixRewriteOnce(t *testing.T) {
	var log pathLog
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		pageHTML(w, r.URL.Path)
	}))
	defer origin.Close()
	base, _ := runCaddy(t, `:{port} {
	bind 127.0.0.1
	rewrite * /site{uri}
	agent_ready {
		self_scan off
	}
	reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
}
`)
	resp, body := get(t, "GET", base+"/about/md")
	if resp.StatusCode != 200 || !strings.Contains(body, "# Heading of /site/about") {
		t.Fatalf("/about/md: %d, want the Markdown of /site/about:\n%s", resp.StatusCode, body)
	}
	if n := log.count("/site/about"); n != 1 {
		t.Errorf("the origin was asked for /site/about %d times, want once: %v", n, log.list())
	}
	for _, p := range log.list() {
		if strings.HasPrefix(p, "/site/site/") {
			t.Errorf("the rewrite applied twice: the origin was asked for %s", p)
		}
	}
}

// TestSecuritySuffixFrontControllerSlash: behind php_fastcgi, whose
// application routes on the client's request URI and redirects /post to
// /post/ as WordPress does (an absolute Location, X-Redirect-By), /post/md
// is the Markdown of /post/, not the redirect to its HTML. The FastCGI
// application is Go's net/http/fcgi, which reads the path from
// REQUEST_URI as PHP does.
func TestSecuritySuffixFrontControllerSlash(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "index.php"), []byte("<?php // the FastCGI server is Go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var log pathLog
	go fcgi.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		switch r.URL.Path {
		case "/post":
			w.Header().Set("X-Redirect-By", "WordPress")
			http.Redirect(w, r, "http://"+r.Host+"/post/", http.StatusMovedPermanently)
		case "/post/":
			pageHTML(w, r.URL.Path)
		default:
			http.NotFound(w, r)
		}
	}))
	base, _ := runCaddy(t, `:{port} {
	bind 127.0.0.1
	root * `+root+`
	agent_ready {
		self_scan off
	}
	php_fastcgi `+l.Addr().String()+`
}
`)
	resp, _ := get(t, "GET", base+"/post", "Accept", acceptBrowser)
	if resp.StatusCode != http.StatusMovedPermanently || !strings.HasSuffix(resp.Header.Get("Location"), "/post/") {
		t.Fatalf("/post: %d to %q, want WordPress's 301 to /post/", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, body := get(t, "GET", base+"/post/md")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") || !strings.Contains(body, "# Heading of /post/") {
		t.Fatalf("/post/md: %d %s, want the Markdown of /post/:\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if !strings.Contains(body, "canonical: "+base+"/post/\n") {
		t.Errorf("the page's address is not /post/:\n%s", body)
	}
}
