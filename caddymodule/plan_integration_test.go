package caddymodule

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestIntegrationNamedPagesStream: behind Caddy's file_server, which names
// every file with a strong ETag and its length, a page is read as HTML
// once; from its second request it streams through its plan with its exact
// Content-Length, small or over 256 KiB, byte for byte as the first. A
// changed file gets a new tag and is read again.
func TestIntegrationNamedPagesStream(t *testing.T) {
	root := t.TempDir()
	page := func(marker string, n int) string {
		var b strings.Builder
		b.WriteString("<!DOCTYPE html>\n<html><head><title>" + marker + "</title></head><body><main>\n")
		for b.Len() < n {
			b.WriteString("<p>Widgets render on every page that embeds them; see <a href=\"/pricing\">pricing</a>.</p>\n")
		}
		b.WriteString("</main></body></html>\n")
		return b.String()
	}
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("small.html", page("Small", 2<<10))
	write("large.html", page("Large", 600<<10))
	base, _ := runCaddy(t, agentReadySite("root * "+root+"\n\tfile_server"))
	for _, name := range []string{"small.html", "large.html"} {
		plans := counterValue(t, metrics.rewrites.WithLabelValues("plan"))
		_, first := get(t, "GET", base+"/"+name, "Accept", acceptBrowser)
		resp, second := get(t, "GET", base+"/"+name, "Accept", acceptBrowser)
		if first != second || !strings.Contains(second, `<link rel="alternate" type="text/markdown" href="/`+name+`/md">`) {
			t.Fatalf("%s: the second copy (%d bytes) differs from the first (%d) or lacks the head link", name, len(second), len(first))
		}
		if resp.Header.Get("Content-Length") != strconv.Itoa(len(second)) || !strings.HasPrefix(resp.Header.Get("Etag"), `W/"`) {
			t.Errorf("%s: Content-Length %q, Etag %q for %d bytes", name, resp.Header.Get("Content-Length"), resp.Header.Get("Etag"), len(second))
		}
		if got := counterValue(t, metrics.rewrites.WithLabelValues("plan")) - plans; got != 1 {
			t.Errorf("%s: %v requests annotated from a plan, want 1", name, got)
		}
		head, _ := get(t, "HEAD", base+"/"+name, "Accept", acceptBrowser)
		if head.Header.Get("Content-Length") != strconv.Itoa(len(second)) {
			t.Errorf("%s: HEAD Content-Length %q, GET's %d", name, head.Header.Get("Content-Length"), len(second))
		}
	}
	// A changed file: a new ETag, so a new name; read and annotated anew.
	changed := page("Changed", 601<<10)
	write("large.html", changed)
	_, got := get(t, "GET", base+"/large.html", "Accept", acceptBrowser)
	if !strings.Contains(got, "<title>Changed</title>") || !keepsInOrder(changed, got) ||
		strings.Count(got, `type="text/markdown"`) != 1 || len(got) <= len(changed) {
		t.Fatalf("the changed page came out as %d bytes: %.200q", len(got), got)
	}
}
