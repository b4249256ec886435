package caddymodule

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIntegrationClientPath: the canonical link, the Markdown alternate and
// the front matter's canonical name the path the client asked for, never
// one rewritten inside the server: not php_fastcgi's rewrite to /index.php
// after the module (emulated by a rewrite in a route after it), not
// try_files before it, not a prefix handle_path strips. A page with a query
// gets no canonical: its public URL is not known. The advertised alternate
// answers the same Markdown as the negotiated page.
func TestIntegrationClientPath(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><html lang=en><head><title>Front controller</title></head><body><main><h1>Served</h1><p>Whatever the front controller routes to.</p></main></body></html>")
	}))
	defer origin.Close()
	root := t.TempDir() // try_files rewrites only to a file that exists
	if err := os.WriteFile(filepath.Join(root, "index.php"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := runCaddy(t, `
:{port} {
	bind 127.0.0.1
	root * `+root+`
	@tried path /tried/*
	try_files @tried /index.php
	handle_path /blog/* {
		agent_ready {
			config ../examples/site.yaml
			self_scan off
		}
		reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
	}
	agent_ready {
		config ../examples/site.yaml
		self_scan off
	}
	route {
		rewrite * /index.php
		reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
	}
}
`)
	for _, tc := range []struct {
		path, canonical, alternate string
	}{
		{"/", base + "/", "/md"},
		{"/hello-world/", base + "/hello-world/", "/hello-world/md/"},
		{"/category/guides/", base + "/category/guides/", "/category/guides/md/"},
		{"/?s=caddy", "", "/md?s=caddy"},
		{"/tried/page", base + "/tried/page", "/tried/page/md"},
		{"/blog/post", base + "/blog/post", "/blog/post/md"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			resp, body := get(t, "GET", base+tc.path, "Accept", "text/html")
			if strings.Contains(body, `index.php"`) || strings.Contains(body, "index.php/") {
				t.Errorf("a rewritten path shows in the page:\n%s", body)
			}
			canonical := `<link rel="canonical" href="` + tc.canonical + `">`
			if got := strings.Count(body, `rel="canonical"`); tc.canonical == "" && got != 0 {
				t.Errorf("canonical injected on a page whose public URL is unknown:\n%s", body)
			} else if tc.canonical != "" && !strings.Contains(body, canonical) {
				t.Errorf("want %s in\n%s", canonical, body)
			}
			head := `<link rel="alternate" type="text/markdown" href="` + tc.alternate + `">`
			if !strings.Contains(body, head) {
				t.Errorf("want %s in\n%s", head, body)
			}
			assertLinks(t, resp, tc.alternate)

			_, md := get(t, "GET", base+tc.path, "Accept", "text/markdown")
			want := "canonical: " + base + tc.path + "\n"
			if !strings.Contains(md, want) {
				t.Errorf("front matter lacks %q:\n%s", want, md)
			}
			// The advertised alternate is the same Markdown, whatever
			// try_files or handle_path made of its path in front.
			if resp, viaSuffix := get(t, "GET", base+tc.alternate); resp.StatusCode != 200 || viaSuffix != md {
				t.Errorf("the alternate %s answers %d %q, not the page's Markdown:\n%s\n--- negotiated:\n%s", tc.alternate, resp.StatusCode, resp.Header.Get("Content-Type"), viaSuffix, md)
			}
		})
	}
}
