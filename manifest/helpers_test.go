package manifest

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// testNow is the fixed generation time of every test bundle.
var testNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// demoRobots stands for the demo origin's robots.txt.
const demoRobots = "User-agent: *\nDisallow: /admin/\n"

// fixture is one configuration the golden and schema tests generate from.
type fixture struct {
	name string
	load func(t testing.TB) *Site
	env  Env
}

func fixtures() []fixture {
	loadFile := func(path string) func(t testing.TB) *Site {
		return func(t testing.TB) *Site {
			t.Helper()
			s, err := Load(path)
			if err != nil {
				t.Fatalf("Load(%s): %v", path, err)
			}
			return s
		}
	}
	return []fixture{
		{"site", loadFile("../examples/site.yaml"), Env{Origin: "http://localhost:8080", MarkdownSuffix: "/md", Now: testNow}},
		{"full", loadFile("testdata/full.yaml"), Env{Origin: "http://ignored.example", MarkdownSuffix: "/md", Now: testNow,
			SitemapURLs: []string{"https://acme.example/", "https://acme.example/pricing", "https://acme.example/careers/open-roles",
				"https://elsewhere.example/x", "https://acme.example/about#team", "https://acme.example/press", "https://acme.example/legal"}}},
		{"bare", func(testing.TB) *Site { return Default() }, Env{Origin: "https://bare.example", Now: testNow}},
	}
}

func (fx fixture) bundle(t testing.TB) *Bundle {
	t.Helper()
	b, err := fx.load(t).Generate(fx.env)
	if err != nil {
		t.Fatalf("%s: Generate: %v", fx.name, err)
	}
	return b
}

// goldenName flattens a request path into a visible file name:
// /.well-known/mcp/server-card.json → well-known_mcp_server-card.json.
func goldenName(path string) string {
	return strings.ReplaceAll(strings.TrimLeft(path, "/."), "/", "_")
}

// checkGolden compares got with testdata/golden/<dir>/<name>, or rewrites it
// under -update.
func checkGolden(t *testing.T, dir, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", dir, name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from its golden file (go test -update rewrites it)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// jsonOf renders v as indented JSON for golden files.
func jsonOf(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// generateYAML parses a configuration and generates it for origin.
func generateYAML(t testing.TB, yaml, origin string) *Bundle {
	t.Helper()
	s, err := Parse([]byte(yaml), "site.yaml")
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	b, err := s.Generate(Env{Origin: origin, Now: testNow})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return b
}
