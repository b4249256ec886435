package caddymodule

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig"
)

// TestIntegrationReloadAppliesYAML: `caddy reload` after an edit of the
// site's YAML applies it. The reload path is the CLI's: the Caddyfile is
// adapted again and POSTed to the admin API's /load, which Caddy skips
// when the adapted config is byte for byte the running one; the file's
// SHA-256 in the adapted config (config_sha256) makes the edit a change.
// A broken edit is refused with its file, line and field, and the running
// config keeps serving. The config path is relative: the Caddyfile's
// directory's, not the working directory's.
func TestIntegrationReloadAppliesYAML(t *testing.T) {
	dir := t.TempDir()
	yamlPath := filepath.Join(dir, "site.yaml")
	writeYAML := func(s string) {
		if err := os.WriteFile(yamlPath, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeYAML("site:\n  name: Before Edit\n")
	port, adminPort := freePort(t), freePort(t)
	text := fmt.Sprintf("{\n\tadmin 127.0.0.1:%d\n\tpersist_config off\n}\nhttp://127.0.0.1:%d {\n\tagent_ready site.yaml\n\trespond \"<html><body><p>hello</p></body></html>\"\n}\n", adminPort, port)
	caddyfile := filepath.Join(dir, "Caddyfile")
	adaptFile := func() ([]byte, error) {
		cfg, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(text), map[string]any{"filename": caddyfile})
		return cfg, err
	}
	cfg, err := adaptFile()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(cfg, []byte(`"config":"`+yamlPath+`"`)) {
		t.Fatalf("relative config not resolved against the Caddyfile's directory:\n%s", cfg)
	}
	base, _ := runCaddyFile(t, port, text, caddyfile)
	admin := fmt.Sprintf("http://127.0.0.1:%d", adminPort)
	if body := getUntil(t, base+"/llms.txt", "# Before Edit"); !strings.Contains(body, "# Before Edit") {
		t.Fatalf("llms.txt before the edit:\n%s", body)
	}

	reload := func() (int, string) {
		cfg, err := adaptFile()
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.Post(admin+"/load", "application/json", bytes.NewReader(cfg))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		msg, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(msg)
	}

	writeYAML("site:\n  name: After Edit\n")
	if code, msg := reload(); code != http.StatusOK {
		t.Fatalf("reload after an edit: %d %s", code, msg)
	}
	if _, body := get(t, "GET", base+"/llms.txt"); !strings.Contains(body, "# After Edit") {
		t.Fatalf("the edit was not applied by the reload:\n%s", body)
	}

	writeYAML("site:\n  name: Broken\n  origin: [not, a, url\n")
	code, msg := reload()
	if code == http.StatusOK || !strings.Contains(msg, "site.yaml") {
		t.Fatalf("a broken YAML reloaded: %d %s", code, msg)
	}
	if _, body := get(t, "GET", base+"/llms.txt"); !strings.Contains(body, "# After Edit") {
		t.Fatalf("after a refused reload the running config changed:\n%s", body)
	}
}
