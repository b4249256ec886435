// Package caddytest is what the tests that run Caddy in their own process
// share: caddymodule's tests and the browser tests of the nested module
// caddymodule/browser (which cannot import a _test.go file). Only tests
// import it.
package caddytest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"

	"github.com/agentready/caddy-agentready/internal/testnet"
	_ "github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile" // the caddyfile adapter
)

// User-Agents of the tests: a browser and the agents the traffic tests
// count.
const (
	UABrowser    = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"
	UAGPTBot     = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	UAChatGPT    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"
	UAClaudeBot  = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
	UAAmazonbot  = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0 Safari/537.36"
	UASearchBot  = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot"
	UAPerplexity = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)"
)

// Main runs the tests of m with Caddy's data directory ($XDG_DATA_HOME,
// which its AppDataDir follows) in a temporary directory, so that what the
// sites save (traffic counts) stays out of the user's, and exits.
func Main(m *testing.M) {
	dir, err := os.MkdirTemp("", "agentready-data-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_DATA_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// DemoCaddyfile is the bundled demo with the origin replaced by a test
// server: agent_ready with the example YAML (config, its path), the
// self-scan soon after start; {port} is for the caller to replace.
func DemoCaddyfile(originURL, config string) string {
	return `
:{port} {
	bind 127.0.0.1
	encode gzip
	agent_ready {
		config ` + config + `
		self_scan {
			delay 50ms
			timeout 30s
		}
	}
	reverse_proxy ` + strings.TrimPrefix(originURL, "http://") + `
}`
}

// TrafficCaddyfile runs agent_ready with yaml in front of origin, the
// client address taken from X-Forwarded-For of the local test client (a
// trusted proxy), GPTBot's ranges from a local file; {admin} and {port}
// are for the caller to replace.
func TrafficCaddyfile(t testing.TB, originURL, yaml, extra string) string {
	t.Helper()
	dir := t.TempDir()
	yamlPath := filepath.Join(dir, "site.yaml")
	rangesPath := filepath.Join(dir, "gptbot.json")
	if err := os.WriteFile(yamlPath, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rangesPath, []byte(`{"prefixes":[{"ipv4Prefix":"203.0.113.0/24"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return `{
	admin 127.0.0.1:{admin}
	persist_config off
	servers {
		trusted_proxies static 127.0.0.1/32
		client_ip_headers X-Forwarded-For
	}
}
:{port} {
	bind 127.0.0.1
	agent_ready {
		config ` + yamlPath + `
		self_scan off
		traffic {
			ranges https://openai.com/gptbot.json ` + rangesPath + `
			` + extra + `
		}
	}
	reverse_proxy ` + strings.TrimPrefix(originURL, "http://") + `
}`
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago and
// that no test of this process was given before (see testnet.FreePort).
func FreePort(t testing.TB) int {
	t.Helper()
	return testnet.FreePort(t)
}

// Load adapts the Caddyfile text, as read from filename (its relative
// paths are filename's directory's), and runs it in this process until
// the test ends.
func Load(t testing.TB, text, filename string) {
	t.Helper()
	cfg, warnings, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(text), map[string]any{"filename": filename})
	if err != nil {
		t.Fatalf("adapting Caddyfile: %v\n%s", err, text)
	}
	if len(warnings) > 0 {
		t.Logf("adapt warnings: %v", warnings)
	}
	if err := caddy.Load(cfg, true); err != nil {
		t.Fatalf("loading config: %v", err)
	}
	t.Cleanup(func() {
		if err := caddy.Stop(); err != nil {
			t.Logf("stopping caddy: %v", err)
		}
	})
}

// WaitListening waits up to 10 s for something to listen on addr.
func WaitListening(t testing.TB, addr string) {
	t.Helper()
	testnet.WaitListening(t, addr, 10*time.Second)
}
