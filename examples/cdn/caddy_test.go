package cdn_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	_ "github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/encode/gzip"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/encode/zstd"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/fileserver"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/headers"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/rewrite"

	_ "github.com/agentready/caddy-agentready/caddymodule"
	"github.com/agentready/caddy-agentready/internal/testnet"
)

// The ports the example files name; each test run moves them to free ones.
const (
	cachePort  = "8088"
	frontPort  = "8090"
	originPort = "8091"
	adminPort  = "2039"
)

// ports maps each example port to the free port of this run.
type ports map[string]string

// newPorts picks a free loopback port for each example port.
func newPorts(t *testing.T) ports {
	t.Helper()
	p := ports{}
	for _, name := range []string{cachePort, frontPort, originPort, adminPort} {
		p[name] = freePort(t)
	}
	return p
}

// apply rewrites every example port in text (as a whole number) to its free
// port, and fails the test if one of them is not in text at all.
func (p ports) apply(t *testing.T, text string, want ...string) string {
	t.Helper()
	for _, name := range want {
		re := regexp.MustCompile(`\b` + name + `\b`)
		if !re.MatchString(text) {
			t.Fatalf("example file no longer names port %s:\n%s", name, text)
		}
		text = re.ReplaceAllLiteralString(text, p[name])
	}
	return text
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago
// and that no other test of this process was given (testnet.FreePort).
func freePort(t *testing.T) string {
	t.Helper()
	return fmt.Sprint(testnet.FreePort(t))
}

// readExample returns a file of this directory.
func readExample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// runCaddy runs examples/cdn/Caddyfile in this process on the ports of p
// until the test ends, with the self-scan off (it would only add load).
// When cacheControl is not empty, the Caddyfile's commented-out
// `cache_control` line with that value is switched on; shortLived turns
// the origin's max-age=300 into max-age=1.
func runCaddy(t *testing.T, p ports, cacheControl string, shortLived bool) {
	t.Helper()
	text := p.apply(t, readExample(t, "Caddyfile"), adminPort, frontPort, originPort)
	examples, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	text = mustReplace(t, text, "config examples/site.yaml", "config examples/site.yaml\n\t\tself_scan off")
	if cacheControl != "" {
		line := fmt.Sprintf("cache_control %q", cacheControl)
		text = mustReplace(t, text, "# "+line, line)
	}
	if shortLived {
		text = mustReplace(t, text, `header Cache-Control "public, max-age=300"`, `header Cache-Control "public, max-age=1"`)
	}
	// Caddy's own log is noise here: what the test checks is in its output.
	text = mustReplace(t, text, "\tadmin ", "\tpersist_config off\n\tlog {\n\t\toutput discard\n\t}\n\tadmin ")
	text = strings.ReplaceAll(text, "examples/", examples+"/")

	cfg, warnings, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(text), map[string]any{"filename": "Caddyfile"})
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
	waitListening(t, "127.0.0.1:"+p[frontPort])
}

// mustReplace replaces the first old in s, failing the test when s has none.
func mustReplace(t *testing.T, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("example Caddyfile no longer contains %q", old)
	}
	return strings.Replace(s, old, new, 1)
}

// waitListening waits up to 20 s for something to accept connections on
// addr.
func waitListening(t *testing.T, addr string) {
	t.Helper()
	testnet.WaitListening(t, addr, 20*time.Second)
}
