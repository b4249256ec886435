package caddymodule

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	// php_fastcgi, for examples/wordpress.caddyfile
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy/fastcgi"
)

// TestExamplesLoad adapts and validates every example configuration the
// README points to, from the repository root as a user would run them:
// they must stay loadable as the module changes.
func TestExamplesLoad(t *testing.T) {
	t.Chdir("..")
	files, _ := filepath.Glob("examples/*.caddyfile")
	files = append(files, "Caddyfile")
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			cfgJSON, warnings, err := caddyconfig.GetAdapter("caddyfile").Adapt(raw, map[string]any{"filename": f})
			if err != nil {
				t.Fatalf("adapting: %v", err)
			}
			for _, w := range warnings {
				t.Errorf("adapt warning: %s", w.String())
			}
			validate(t, cfgJSON)
		})
	}
	t.Run("json/caddy.json", func(t *testing.T) {
		raw, err := os.ReadFile("examples/json/caddy.json")
		if err != nil {
			t.Fatal(err)
		}
		validate(t, raw)
	})
}

func validate(t *testing.T, cfgJSON []byte) {
	t.Helper()
	var cfg caddy.Config
	if err := json.Unmarshal(cfgJSON, &cfg); err != nil {
		t.Fatalf("decoding: %v", err)
	}
	if err := caddy.Validate(&cfg); err != nil {
		t.Fatalf("validating: %v", err)
	}
}
