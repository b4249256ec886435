package manifest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/selfcheck/llmstxt"
)

func TestGolden(t *testing.T) {
	for _, fx := range fixtures() {
		t.Run(fx.name, func(t *testing.T) {
			b := fx.bundle(t)
			want := map[string]bool{}
			for _, d := range b.Documents {
				name := goldenName(d.Path)
				want[name] = true
				checkGolden(t, fx.name, name, d.Body)
			}
			merged, warnings, err := b.MergeRobots([]byte(demoRobots))
			if err != nil {
				t.Fatalf("MergeRobots: %v", err)
			}
			checkGolden(t, fx.name, "robots.txt", merged)
			checkGolden(t, fx.name, "sitemap.xml", b.Sitemap.Body)
			meta := map[string]any{"inject": b.Inject, "contentSignal": b.ContentSignal, "robotsWarnings": warnings}
			checkGolden(t, fx.name, "bundle.json", jsonOf(t, meta))
			for _, n := range []string{"robots.txt", "sitemap.xml", "bundle.json"} {
				want[n] = true
			}
			// No stale golden file survives a document that is gone.
			entries, err := os.ReadDir(filepath.Join("testdata", "golden", fx.name))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if !want[e.Name()] {
					t.Errorf("stale golden file %s/%s", fx.name, e.Name())
				}
			}
		})
	}
}

func TestDocumentsSortedAndTyped(t *testing.T) {
	for _, fx := range fixtures() {
		b := fx.bundle(t)
		if !slices.IsSortedFunc(b.Documents, func(a, b Document) int { return strings.Compare(a.Path, b.Path) }) {
			t.Errorf("%s: documents not sorted by path", fx.name)
		}
		for _, d := range b.Documents {
			if d.ContentType == "" || d.CacheControl == "" || d.ModTime.IsZero() || len(d.Body) == 0 {
				t.Errorf("%s %s: incomplete document %+v", fx.name, d.Path, d)
			}
			if b.Document(d.Path) == nil {
				t.Errorf("%s: Document(%q) = nil", fx.name, d.Path)
			}
		}
		if b.Document("/nope") != nil {
			t.Errorf("%s: Document(/nope) found something", fx.name)
		}
	}
}

func TestAgentsJSONTwins(t *testing.T) {
	for _, fx := range fixtures() {
		b := fx.bundle(t)
		a, w := b.Document(PathAgentsJSON), b.Document(PathWKAgentsJSON)
		if a == nil || w == nil {
			t.Fatalf("%s: agents.json twins missing", fx.name)
		}
		// STANDARD §5 rule 10: both paths say the same thing, byte for byte.
		if string(a.Body) != string(w.Body) {
			t.Errorf("%s: /agents.json and /.well-known/agents.json differ", fx.name)
		}
	}
}

func TestLLMsTxtPassesAudits(t *testing.T) {
	for _, fx := range fixtures() {
		b := fx.bundle(t)
		d := b.Document(PathLLMsTxt)
		if d == nil {
			t.Fatalf("%s: no llms.txt", fx.name)
		}
		if r := llmstxt.Audit(200, d.Body); r.Score != 1 {
			t.Errorf("%s: Lighthouse llms-txt audit = %+v", fx.name, r)
		}
		ev := llmstxt.Evaluate(200, d.ContentType, d.Body)
		if ev.Verdict != llmstxt.VerdictPass {
			t.Errorf("%s: llms_txt verdict %s, missing %v", fx.name, ev.Verdict, ev.Missing)
		}
		if fx.name != "bare" && ev.Facts.ContactLine == "" {
			t.Errorf("%s: llms.txt has no contact line", fx.name)
		}
		if len(d.Body) >= llmsTxtLimit {
			t.Errorf("%s: llms.txt is %d bytes", fx.name, len(d.Body))
		}
		origin := fx.env.Origin
		if s := fx.load(t); s.Info.Origin != "" {
			origin = s.Info.Origin
		}
		// Canonical page URLs only: absolute, on the origin, no fragment.
		for _, l := range ev.Facts.Links {
			u, err := url.Parse(l.URL)
			if strings.HasPrefix(l.URL, "mailto:") {
				continue
			}
			if err != nil || u.Scheme+"://"+u.Host != origin || u.Fragment != "" {
				t.Errorf("%s: llms.txt link %q is not a canonical URL on %s", fx.name, l.URL, origin)
			}
		}
		if !strings.Contains(string(d.Body), "Accept: text/markdown") || !strings.Contains(string(d.Body), "/.well-known/agents.json") {
			t.Errorf("%s: llms.txt lacks the Markdown or agents.json instruction", fx.name)
		}
	}
}

func TestSkillDigestsMatchServedBytes(t *testing.T) {
	fx := fixtures()[1]
	b := fx.bundle(t)
	var index struct {
		Skills []struct{ URL, Digest string }
	}
	if err := json.Unmarshal(b.Document(PathSkillsIndex).Body, &index); err != nil {
		t.Fatal(err)
	}
	if len(index.Skills) != 2 {
		t.Fatalf("want 2 skills, got %d", len(index.Skills))
	}
	for _, sk := range index.Skills {
		u, _ := url.Parse(sk.URL)
		d := b.Document(u.Path)
		if d == nil {
			t.Fatalf("skill file %s is not served", u.Path)
		}
		sum := sha256.Sum256(d.Body)
		if want := "sha256:" + hex.EncodeToString(sum[:]); sk.Digest != want {
			t.Errorf("%s: digest %s, served bytes hash to %s", u.Path, sk.Digest, want)
		}
		onDisk, err := os.ReadFile(filepath.Join("testdata", "skills", strings.TrimPrefix(u.Path, "/.well-known/agent-skills/")))
		if err == nil && string(onDisk) != string(d.Body) {
			t.Errorf("%s: served bytes differ from the file", u.Path)
		}
	}
}

func TestSecurityTxtExpires(t *testing.T) {
	for _, tc := range []struct {
		fixture int
		days    int
	}{{0, 180}, {1, 90}} {
		fx := fixtures()[tc.fixture]
		b := fx.bundle(t)
		body := string(b.Document(PathSecurityTxt).Body)
		want := "Expires: " + testNow.Add(time.Duration(tc.days)*24*time.Hour).Format(time.RFC3339) + "\n"
		if !strings.Contains(body, want) || !strings.Contains(body, "Contact: mailto:security@acme.example\n") {
			t.Errorf("%s: security.txt lacks %q or its contact:\n%s", fx.name, want, body)
		}
	}
}

func TestDefaultBundle(t *testing.T) {
	b, err := Default().Generate(Env{Origin: "https://www.bare.example:8443/", Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, d := range b.Documents {
		paths = append(paths, d.Path)
	}
	if want := []string{PathWKAgentsJSON, PathAgentsJSON, PathLLMsTxt}; !slices.Equal(paths, want) {
		t.Errorf("documents %v, want %v", paths, want)
	}
	llms := string(b.Document(PathLLMsTxt).Body)
	if !strings.HasPrefix(llms, "# www.bare.example\n") || !strings.Contains(llms, "Instructions for AI agents:") {
		t.Errorf("llms.txt does not start from the host name with instructions:\n%s", llms)
	}
	var card struct {
		Name    string
		URL     string
		Content struct {
			Markdown struct{ ContentNegotiation bool }
		}
		Authentication struct {
			Type   string
			Public []string
		}
	}
	if err := json.Unmarshal(b.Document(PathAgentsJSON).Body, &card); err != nil {
		t.Fatal(err)
	}
	if card.Name != "www.bare.example" || card.URL != "https://www.bare.example:8443" || !card.Content.Markdown.ContentNegotiation ||
		card.Authentication.Type != "none" || !slices.Equal(card.Authentication.Public, []string{"*"}) {
		t.Errorf("agents.json = %+v", card)
	}
	if b.Robots == nil || b.Robots.Sitemap != "https://www.bare.example:8443/sitemap.xml" || b.Robots.Agentmap != "" || len(b.Robots.Groups) != 0 {
		t.Errorf("robots additions = %+v", b.Robots)
	}
	// No identity was given: no Organization/WebSite JSON-LD made up from
	// the host name.
	if b.ContentSignal != "" || b.Inject.JSONLD != "" || b.Inject.ARDLink != "" || !b.Inject.Canonical || b.Inject.Lang != "" {
		t.Errorf("bundle = %+v", b)
	}
}

func TestGenerateErrors(t *testing.T) {
	dir := t.TempDir()
	skill := filepath.Join(dir, "SKILL.md")
	if err := os.WriteFile(skill, []byte("# skill\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withSkill, err := Parse([]byte("skills:\n  - {name: s, description: d, file: SKILL.md}\n"), filepath.Join(dir, "site.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := Parse([]byte("llms:\n  sections:\n    - title: Docs\n      links:\n        - {title: Elsewhere, url: https://other.example/docs}\n"), "site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(skill); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		s    *Site
		env  Env
		want string
	}{
		{"no origin", Default(), Env{}, "no origin"},
		{"bad origin", Default(), Env{Origin: "example.com"}, "want an absolute origin"},
		{"origin with path", Default(), Env{Origin: "https://example.com/shop"}, "no path"},
		{"foreign llms link", foreign, Env{Origin: "https://acme.example"}, `site.yaml:5: llms.sections[0].links[0].url: "https://other.example/docs" is on another origin`},
		{"skill file gone", withSkill, Env{Origin: "https://acme.example"}, "skill s:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.s.Generate(tc.env)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Generate error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestConnectReflected(t *testing.T) {
	b := generateYAML(t, "connect: {enabled: true, mcp_path: /agent/mcp, ask_path: /agent/ask}\n", "https://c.example")
	for path, want := range map[string]string{
		PathAgentsJSON:    `"url": "https://c.example/agent/ask"`,
		PathMCPServerCard: `"url": "https://c.example/agent/mcp"`,
		PathARD:           `"type": "application/mcp-server-card+json"`,
		PathAPICatalog:    `"anchor": "https://c.example/agent/mcp"`,
		PathLLMsTxt:       "https://c.example/agent/ask?query=",
	} {
		d := b.Document(path)
		if d == nil || !strings.Contains(string(d.Body), want) {
			t.Errorf("%s lacks %q", path, want)
		}
	}
	off, err := Default().Generate(Env{Origin: "https://c.example", Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{PathMCPServerCard, PathARD, PathAPICatalog} {
		if off.Document(p) != nil {
			t.Errorf("%s served with connect disabled", p)
		}
	}
}

func TestDocumentsSwitches(t *testing.T) {
	b := generateYAML(t, "documents: {llms_txt: off, agents_json: origin, robots_txt: off, sitemap_xml: false}\n", "https://d.example")
	if b.Document(PathLLMsTxt) != nil || b.Robots != nil || b.Sitemap != nil {
		t.Errorf("switched-off documents still generated: %+v", b)
	}
	if d := b.Document(PathAgentsJSON); d == nil || !d.OriginWins {
		t.Errorf("agents.json should be served with OriginWins")
	}
	merged, _, err := b.MergeRobots([]byte("User-agent: *\n"))
	if err != nil || string(merged) != "User-agent: *\n" {
		t.Errorf("MergeRobots with robots off = %q, %v", merged, err)
	}
}

func TestInjectionSwitches(t *testing.T) {
	b := generateYAML(t, "site: {language: pt-BR}\ninject: {lang: false, canonical: no, json_ld: off, webmcp: false}\n"+
		"webmcp:\n  forms:\n    - {selector: form, toolname: send_form, tooldescription: Sends the form.}\n", "https://i.example")
	if in := b.Inject; in.Lang != "" || in.Canonical || in.JSONLD != "" || len(in.Forms) != 0 {
		t.Errorf("injection not switched off: %+v", in)
	}
}

func TestJSONLDCannotCloseScript(t *testing.T) {
	b := generateYAML(t, "site: {name: \"</script><script>alert(1)</script>\", description: \"a & b <c>\"}\n", "https://x.example")
	inner := strings.TrimSuffix(strings.TrimPrefix(b.Inject.JSONLD, `<script type="application/ld+json">`), "</script>")
	if strings.ContainsAny(inner, "<>") {
		t.Errorf("JSON-LD carries raw markup: %s", b.Inject.JSONLD)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(inner), &doc); err != nil {
		t.Errorf("JSON-LD does not parse: %v", err)
	}
}

func BenchmarkGenerate(b *testing.B) {
	s, err := Load("testdata/full.yaml")
	if err != nil {
		b.Fatal(err)
	}
	env := Env{MarkdownSuffix: "/md", Now: testNow}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Generate(env); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGenerateConcurrently: a Site is read-only once parsed, so reloads and
// requests may generate from it at the same time (run with -race).
func TestGenerateConcurrently(t *testing.T) {
	s, err := Load("testdata/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.Generate(Env{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			b, err := s.Generate(Env{Now: testNow})
			if err == nil && string(b.Document(PathAgentsJSON).Body) != string(want.Document(PathAgentsJSON).Body) {
				err = errors.New("agents.json differs between concurrent generations")
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestJSONLDOnlyFromGivenIdentity: the Organization/WebSite JSON-LD is
// injected only when the YAML names the site or the organisation, and its
// names are the ones given, never the host's.
func TestJSONLDOnlyFromGivenIdentity(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []string // substrings of the JSON-LD; nil: none injected
	}{
		{"nothing given", "", nil},
		{"description only", "site:\n  description: Widgets.\n", nil},
		{"site name", "site:\n  name: Acme\n", []string{`"@type":"Organization","name":"Acme"`, `"@type":"WebSite","name":"Acme"`}},
		{"organisation name", "site:\n  organization:\n    name: Acme Ltd\n", []string{`"name":"Acme Ltd"`}},
		{"turned off", "site:\n  name: Acme\ninject:\n  json_ld: false\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse([]byte(tc.yaml), "site.yaml")
			if err != nil {
				t.Fatal(err)
			}
			b, err := s.Generate(Env{Origin: "https://host.example"})
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if b.Inject.JSONLD != "" {
					t.Fatalf("JSON-LD injected without an identity: %s", b.Inject.JSONLD)
				}
				return
			}
			if strings.Contains(b.Inject.JSONLD, `"name":"host.example"`) {
				t.Errorf("the host is used as a name: %s", b.Inject.JSONLD)
			}
			for _, w := range tc.want {
				if !strings.Contains(b.Inject.JSONLD, w) {
					t.Errorf("JSON-LD lacks %s: %s", w, b.Inject.JSONLD)
				}
			}
		})
	}
}
