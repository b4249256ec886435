//go:build linux

package caddymodule

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy/fastcgi"
)

// wordpressCaddyfile is the set-up a WordPress owner writes first (issue
// #19): encode, agent_ready with a three-line YAML, php_fastcgi and
// file_server, on the address WordPress knows itself by.
func wordpressCaddyfile(t *testing.T, wp *wordpressSite) string {
	yaml := filepath.Join(t.TempDir(), "site.yaml")
	writeFile(t, yaml, "site:\n  name: Caddy Notes\n  description: Notes on running Caddy in front of WordPress.\n")
	return strings.NewReplacer("{root}", wp.root, "{fpm}", wp.fpm, "{yaml}", yaml).Replace(`
http://127.0.0.1:{port} {
	root * {root}
	encode gzip
	agent_ready {
		config {yaml}
		self_scan {
			delay 50ms
		}
	}
	php_fastcgi unix/{fpm}
	file_server
}`)
}

func TestWordPressExplore(t *testing.T) {
	tools := needWordPress(t)
	wp := startWordPress(t, tools)
	t.Logf("seeded %v", wp.Seeded)
	base, _ := runCaddyAt(t, wp.port, wordpressCaddyfile(t, wp))
	for _, p := range []string{"/", "/configuring-reverse-proxy/", "/about/", "/category/guides/", "/?s=caddy", "/robots.txt", "/configuring-reverse-proxy/md"} {
		resp, body := get(t, "GET", base+p)
		os.WriteFile("/tmp/wpx/out"+strings.NewReplacer("/", "_", "?", "_").Replace(p)+".html", []byte(body), 0o644)
		_, md := get(t, "GET", base+p, "Accept", "text/markdown")
		os.WriteFile("/tmp/wpx/out"+strings.NewReplacer("/", "_", "?", "_").Replace(p)+".md", []byte(md), 0o644)
		t.Logf("%s: %d %v", p, resp.StatusCode, resp.Header)
	}
}
