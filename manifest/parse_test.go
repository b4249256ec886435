package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/discover"
)

// TestParseErrors gives each kind of bad input and the exact problems it
// must produce, "file:line: field: message", sorted by line.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		yaml string
		want []string
	}{
		{"invalid yaml", "site:\n  name: \"unclosed\n",
			[]string{"site.yaml:2: invalid YAML: found unexpected end of stream"}},
		{"tab indentation", "site:\n\tname: x\n",
			[]string{"site.yaml:2: invalid YAML: found character that cannot start any token"}},
		{"two documents", "site:\n  name: a\n---\nsite:\n  name: b\n",
			[]string{"site.yaml:3: a second YAML document (---): put the whole configuration in one document"}},
		{"top level list", "- a\n- b\n",
			[]string{"site.yaml:1: want a mapping of sections at the top level, got a list"}},
		{"unknown top key", "sitee:\n  name: x\n",
			[]string{`site.yaml:1: sitee: unknown key (did you mean "site"?)`}},
		{"unknown nested key", "site:\n  orign: https://a.example\n",
			[]string{`site.yaml:2: site.orign: unknown key (did you mean "origin"?)`}},
		{"unknown key no suggestion", "contacts:\n  fax: 123\n",
			[]string{"site.yaml:2: contacts.fax: unknown key"}},
		{"duplicate key", "site:\n  name: a\n  name: b\n",
			[]string{"site.yaml:3: site.name: duplicate key"}},
		{"string for mapping", "site: Acme\n",
			[]string{`site.yaml:1: site: want a mapping of keys, got "Acme"`}},
		{"mapping for string", "site:\n  name: {a: b}\n",
			[]string{"site.yaml:2: site.name: want a single value, got a mapping"}},
		{"mapping for list", "interfaces:\n  id: x\n",
			[]string{"site.yaml:2: interfaces: want a list, got a mapping"}},
		{"bad integer", "contacts:\n  security:\n    expires_days: soon\n",
			[]string{`site.yaml:3: contacts.security.expires_days: want an integer, got "soon"`}},
		{"bad bool", "connect:\n  enabled: maybe\n",
			[]string{`site.yaml:2: connect.enabled: want true or false, got "maybe"`}},
		{"bad duration", "connect:\n  refresh: hourly\n",
			[]string{`site.yaml:2: connect.refresh: want a duration such as 30m or 1h, got "hourly"`}},
		{"retry_min out of range", "connect:\n  retry_min: 10m\n",
			[]string{"site.yaml:2: connect.retry_min: want a duration from 0 to 5m (the longest wait between retries), got 10m0s"}},
		{"bad enum with suggestion", "interfaces:\n  - id: a\n    type: mpc\n    url: /mcp\n",
			[]string{`site.yaml:3: interfaces[0].type: want one of mcp, openapi, graphql, a2a, cli, sdk, got "mpc" (did you mean "mcp"?)`}},
		{"bad permission", "policy:\n  training: maybe\n",
			[]string{`site.yaml:2: policy.training: want one of allow, disallow, got "maybe"`}},
		{"relative origin", "site:\n  origin: acme.example\n",
			[]string{`site.yaml:2: site.origin: want an absolute origin such as https://example.com, got "acme.example"`}},
		{"origin with path", "site:\n  origin: https://acme.example/shop\n",
			[]string{"site.yaml:2: site.origin: an origin has no path, query, fragment or user info: https://acme.example/shop"}},
		{"relative same_as", "site:\n  organization:\n    same_as: [github.com/acme]\n",
			[]string{`site.yaml:3: site.organization.same_as[0]: want an absolute http(s) URL, got "github.com/acme"`}},
		{"relative link", "llms:\n  sections:\n    - title: Docs\n      links:\n        - {title: Start, url: docs/start}\n",
			[]string{`site.yaml:5: llms.sections[0].links[0].url: "docs/start" is relative: write it from the site root (/docs/start) or absolute`}},
		{"foreign llms link", "site:\n  origin: https://acme.example\nllms:\n  optional:\n    - title: Elsewhere\n      url: https://other.example/x\n",
			[]string{`site.yaml:6: llms.optional[0].url: "https://other.example/x" is on another origin; list only pages of https://acme.example`}},
		{"fragment in llms link", "llms:\n  optional:\n    - {title: A, url: \"/a#b\"}\n",
			[]string{`site.yaml:3: llms.optional[0].url: "/a#b": a canonical page URL has no #fragment`}},
		{"link without url", "llms:\n  optional:\n    - title: A\n",
			[]string{"site.yaml:3: llms.optional[0].url: a link needs a url"}},
		{"section without links", "llms:\n  sections:\n    - title: Empty\n",
			[]string{"site.yaml:3: llms.sections[0].links: a section needs at least one link"}},
		{"bad urn", "interfaces:\n  - id: a\n    type: openapi\n    url: /openapi.json\n    identifier: urn:acme:a\n",
			[]string{`site.yaml:5: interfaces[0].identifier: "urn:acme:a" is not an ARD identifier urn:air:<publisher>:<namespace>:<name>`}},
		{"urn missing name", "ard:\n  entries:\n    - {identifier: \"urn:air:acme.example:x\", display_name: X, type: application/json, url: /x, queries: [a, b]}\n",
			[]string{`site.yaml:3: ard.entries[0].identifier: "urn:air:acme.example:x" is not an ARD identifier urn:air:<publisher>:<namespace>:<name>`}},
		{"duplicate ids", "interfaces:\n  - {id: api, type: openapi, url: /a.json}\n  - {id: api, type: graphql, url: /graphql}\n",
			[]string{`site.yaml:3: interfaces[1].id: duplicate id "api"`}},
		{"duplicate identifiers", "interfaces:\n  - {id: a, type: openapi, url: /a.json, identifier: \"urn:air:x.example:api:a\"}\n" +
			"ard:\n  entries:\n    - {identifier: \"urn:air:x.example:api:a\", display_name: A, type: application/json, url: /a, queries: [q1, q2]}\n",
			[]string{`site.yaml:5: ard.entries[0].identifier: duplicate identifier "urn:air:x.example:api:a" (first at interfaces[0].identifier)`}},
		{"too few queries", "interfaces:\n  - id: a\n    type: openapi\n    url: /a.json\n    queries: [just one]\n",
			[]string{"site.yaml:5: interfaces[0].queries: want 2 to 5 representative queries, got 1"}},
		{"missing url", "interfaces:\n  - {id: m, type: mcp}\n",
			[]string{"site.yaml:2: interfaces[0].url: a mcp interface needs a url"}},
		{"field on wrong type", "interfaces:\n  - {id: m, type: openapi, url: /o.json, transport: sse, install: npm i x}\n",
			[]string{"site.yaml:2: interfaces[0].install: only a cli or sdk has an install command",
				"site.yaml:2: interfaces[0].transport: only an mcp interface has a transport"}},
		{"skill file missing", "skills:\n  - name: embed\n    description: Embed a widget.\n    file: skills/nope/SKILL.md\n",
			[]string{"site.yaml:4: skills[0].file: skills/nope/SKILL.md does not exist (looked in .)"}},
		{"bad skill name", "skills:\n  - {name: Embed_Widget, description: d, file: testdata/skills/embed-widget/SKILL.md}\n",
			[]string{`site.yaml:2: skills[0].name: "Embed_Widget": use 1 to 64 lowercase letters, digits and hyphens`}},
		{"oauth without servers", "authentication:\n  type: oauth\n",
			[]string{"site.yaml:2: authentication.authorization_servers: type oauth needs at least one authorization server"}},
		{"http issuer", "authentication:\n  type: oauth\n  authorization_servers: [http://as.example]\n",
			[]string{`site.yaml:3: authentication.authorization_servers[0]: want an absolute https issuer URL without query or fragment, got "http://as.example"`}},
		{"unknown public id", "interfaces:\n  - {id: rest, type: openapi, url: /o.json}\nauthentication:\n  public: [rets]\n",
			[]string{`site.yaml:4: authentication.public[0]: "rets" is not an interface id, "content", "connect" or "*" (did you mean "rest"?)`}},
		{"webmcp problems", "webmcp:\n  forms:\n    - selector: \"form[\"\n      toolname: ContactUs\n      tooldescription: short\n",
			[]string{`site.yaml:3: webmcp.forms[0].selector: invalid CSS selector "form[": expected identifier, found EOF instead`,
				`site.yaml:4: webmcp.forms[0].toolname: "ContactUs" is not a snake_case tool name such as contact_sales`,
				"site.yaml:5: webmcp.forms[0].tooldescription: say what the tool does in at least 10 characters"}},
		{"webmcp placeholder", "webmcp:\n  forms:\n    - selector: form\n      toolname: search_form\n      tooldescription: Describe in a sentence what this form does.\n",
			[]string{`site.yaml:5: webmcp.forms[0].tooldescription: "Describe in a sentence what this form does." is the fix snippet's placeholder: replace it with a sentence saying what this form does`}},
		{"connect oauth without authentication", "connect:\n  enabled: true\n  auth: oauth\n",
			[]string{"site.yaml:3: connect.auth: oauth needs authentication.type oauth",
				"site.yaml:3: connect.auth: oauth needs authentication.jwks_uri, the authorization server's key set, to verify access tokens"}},
		{"connect oauth without jwks", "authentication: {type: oauth, authorization_servers: [\"https://as.example\"]}\n" +
			"connect:\n  auth: oauth\n",
			[]string{"site.yaml:3: connect.auth: oauth needs authentication.jwks_uri, the authorization server's key set, to verify access tokens"}},
		{"connect unknown tool", "authentication: {type: oauth, authorization_servers: [\"https://as.example\"], jwks_uri: \"https://as.example/jwks\", scopes: [read]}\n" +
			"connect:\n  auth: oauth\n  tool_scopes:\n    search: read\n",
			[]string{`site.yaml:5: connect.tool_scopes.search: unknown tool "search"`}},
		{"connect scope not declared", "authentication: {type: oauth, authorization_servers: [\"https://as.example\"], jwks_uri: \"https://as.example/jwks\"}\n" +
			"connect:\n  auth: oauth\n  tool_scopes:\n    get_page: pages:read\n",
			[]string{`site.yaml:5: connect.tool_scopes.get_page: scope "pages:read" is not listed in authentication.scopes`}},
		{"connect paths", "connect:\n  mcp_path: mcp\n  ask_path: /mcp\n",
			[]string{`site.yaml:2: connect.mcp_path: want a path starting with /, got "mcp"`}},
		{"bad enforce", "policy:\n  enforce: strict\n",
			[]string{`site.yaml:2: policy.enforce: want one of off, claimed, verified, got "strict"`}},
		{"discovery out of range", "discovery:\n  mode: spider\n  max_pages: -1\n  max_depth: 5000\n  concurrency: 100\n  max_page_bytes: 1000\n  max_bytes: 2000\n  delay: 2m\n  timeout: 10ms\n",
			[]string{`site.yaml:2: discovery.mode: want one of auto, sitemap, crawl, got "spider"`,
				"site.yaml:3: discovery.max_pages: want between 1 and 1000000, got -1",
				"site.yaml:4: discovery.max_depth: want between 1 and 1000, got 5000",
				"site.yaml:5: discovery.concurrency: want between 1 and 32, got 100",
				"site.yaml:6: discovery.max_page_bytes: want at least 65536, got 1000",
				"site.yaml:7: discovery.max_bytes: want at least max_page_bytes (65536), got 2000",
				"site.yaml:8: discovery.delay: want between 0s and 1m0s, got 2m0s",
				"site.yaml:9: discovery.timeout: want between 1s and 10m0s, got 10ms"}},
		{"bad content signal", "policy:\n  content_signal: train please\n",
			[]string{`site.yaml:2: policy.content_signal: want comma-separated key=yes|no pairs such as "search=yes, ai-train=no", got "train please"`}},
		{"a known agent under another kind", "policy:\n  extra_agents:\n    training: [ExampleBot, OAI-SearchBot]\n    user: [GPTBot]\n",
			[]string{`site.yaml:3: policy.extra_agents.training[1]: OAI-SearchBot is already known as a search crawler (OpenAI); it is governed by policy.search, list it there or not at all`,
				`site.yaml:4: policy.extra_agents.user[0]: GPTBot is already known as a training crawler (OpenAI); it is governed by policy.training, list it there or not at all`}},
		{"bad email and language", "site:\n  language: english!\ncontacts:\n  email: \"Acme <hello@acme.example>\"\n",
			[]string{`site.yaml:2: site.language: "english!" is not a BCP 47 language tag such as en or en-GB`,
				`site.yaml:4: contacts.email: "Acme <hello@acme.example>" is not a plain e-mail address`}},
		{"several problems sorted by line", "policy:\n  search: maybe\nsite:\n  nmae: x\ninterfaces:\n  - {id: \"a b\", type: cli, install: x}\n",
			[]string{`site.yaml:2: policy.search: want one of allow, disallow, got "maybe"`,
				`site.yaml:4: site.nmae: unknown key (did you mean "name"?)`,
				`site.yaml:6: interfaces[0].id: "a b": use letters, digits, '.', '_' and '-' only`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse([]byte(tc.yaml), "site.yaml")
			if err == nil {
				t.Fatalf("Parse accepted it: %+v", s)
			}
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("error is %T, want Errors: %v", err, err)
			}
			got := strings.Split(err.Error(), "\n")
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			for _, e := range es {
				if e.Line < 1 || e.File != "site.yaml" {
					t.Errorf("problem without a position: %+v", e)
				}
			}
		})
	}
}

func TestParseEmptyIsDefault(t *testing.T) {
	for _, in := range []string{"", "\n", "# only a comment\n", "---\n", "~\n"} {
		s, err := Parse([]byte(in), "site.yaml")
		if err != nil {
			t.Fatalf("Parse(%q): %v", in, err)
		}
		a, _ := s.Generate(Env{Origin: "https://e.example", Now: testNow})
		b, _ := Default().Generate(Env{Origin: "https://e.example", Now: testNow})
		if !reflect.DeepEqual(a, b) {
			t.Errorf("Parse(%q) does not generate what Default does", in)
		}
	}
}

func TestParseDefaults(t *testing.T) {
	s, err := Parse([]byte("interfaces:\n  - {id: m, type: mcp, url: /mcp}\nauthentication: {type: oauth, authorization_servers: [\"https://as.example\"]}\nskills:\n  - {name: z, description: d, file: skills/status-tools.zip}\n"), "testdata/site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c := s.Connect
	if c.Enabled || c.MCPPath != "/mcp" || c.AskPath != "/ask" || c.MaxPages != 1000 || c.MaxBytes != 64<<20 ||
		c.Refresh != time.Hour || c.RateLimit != 60 || c.Auth != ConnectPublic {
		t.Errorf("connect defaults = %+v", c)
	}
	if it := s.Interfaces[0]; it.Transport != TransportStreamableHTTP || it.Version != "1.0.0" {
		t.Errorf("interface defaults = %+v", it)
	}
	// The YAML's defaults are package discover's (the test may import it;
	// manifest itself does not).
	want := Discovery{Mode: DiscoveryMode(discover.ModeAuto), MaxPages: discover.DefaultMaxPages, MaxDepth: discover.DefaultMaxDepth,
		MaxBytes: discover.DefaultMaxBytes, MaxPageBytes: discover.DefaultMaxPageBytes,
		Concurrency: discover.DefaultConcurrency, Timeout: discover.DefaultTimeout}
	if s.Discovery != want {
		t.Errorf("discovery defaults = %+v, want %+v", s.Discovery, want)
	}
	if a := s.Authentication; !reflect.DeepEqual(a.Public, []string{"content"}) || a.Note != "" {
		t.Errorf("oauth defaults = %+v", a)
	}
	if s.Skills[0].Type != "archive" || s.Documents.CacheControl != defaultCacheControl || s.Documents.ARD != ServeGenerate ||
		s.Contacts.Security.ExpiresDays != 180 || s.Info.Organization.Type != "Organization" || s.LLMs.AutoList.Max != 50 {
		t.Errorf("defaults not applied: %+v", s)
	}
	d := Default()
	if d.Authentication.Type != AuthNone || !reflect.DeepEqual(d.Authentication.Public, []string{"*"}) || d.Authentication.Note == "" {
		t.Errorf("Default authentication = %+v", d.Authentication)
	}
}

func TestParseAcceptsSpellings(t *testing.T) {
	s, err := Parse([]byte("policy: {training: no, search: yes, user: Allow}\ninterfaces:\n  - {id: x, type: MCP, url: /m, transport: SSE}\nsite: {pages: /one}\n"), "site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Policy; p.Training != Disallow || p.Search != Allow || p.User != Allow {
		t.Errorf("policy = %+v", p)
	}
	if it := s.Interfaces[0]; it.Type != TypeMCP || it.Transport != TransportSSE {
		t.Errorf("interface = %+v", it)
	}
	if !reflect.DeepEqual(s.Info.Pages, []string{"/one"}) {
		t.Errorf("a lone value is not a list of one: %v", s.Info.Pages)
	}
}

func TestWarnings(t *testing.T) {
	long := strings.Repeat("word ", 11_000)
	s, err := Parse([]byte("site:\n  origin: https://acme.example\ncontacts:\n  security:\n    expires_days: 400\nllms:\n  instructions: "+long+"\n"+
		"interfaces:\n  - {id: m, type: mcp, url: /m, identifier: \"urn:air:other.example:mcp:m\", description: \""+strings.Repeat("x", 120)+"\"}\n"), "site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"site.yaml:5: contacts.security.expires_days: 400 days is more than the year RFC 9116 §2.5.5 recommends",
		`site.yaml:9: interfaces[0].identifier: publisher "other.example" is not the site's host "acme.example"`,
		"site.yaml:9: interfaces[0].description: longer than the 100 characters an MCP server card allows; the card carries it truncated",
		"site.yaml:7: llms: configured llms.txt content is 54999 characters, over the 50000 agents read comfortably",
	}
	if got := s.Warnings(); !reflect.DeepEqual(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	b, err := s.Generate(Env{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b.Document(PathMCPServerCard).Body), `"description": "`+strings.Repeat("x", 97)+`..."`) {
		t.Errorf("server card description not truncated to 100 characters")
	}
}

func TestLoad(t *testing.T) {
	if _, err := Load("testdata/does-not-exist.yaml"); err == nil || !strings.Contains(err.Error(), "reading site config") {
		t.Errorf("Load of a missing file: %v", err)
	}
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, MaxConfigBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("Load of an oversized file: %v", err)
	}
	// Skill files resolve against the configuration's own directory.
	if err := os.MkdirAll(filepath.Join(dir, "skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "skills", "a.md"), []byte("# a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "site.yaml")
	if err := os.WriteFile(cfg, []byte("skills:\n  - {name: a, description: d, file: skills/a.md}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Generate(Env{Origin: "https://l.example", Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if d := b.Document("/.well-known/agent-skills/a/SKILL.md"); d == nil || string(d.Body) != "# a\n" {
		t.Errorf("skill not served from the config directory")
	}
}

func TestAliasBombIsBounded(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n" +
		"site:\n  pages: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
	_, err := Parse([]byte(bomb), "site.yaml")
	if err == nil {
		t.Fatal("alias bomb accepted")
	}
	if es, ok := err.(Errors); !ok || len(es) > 20 {
		t.Errorf("want a short list of problems, got %d", len(es))
	}
}

func TestAliasCycleAndDepth(t *testing.T) {
	for in, want := range map[string]string{
		"site:\n  pages: &a [*a]\n":     "want a single value, got a list",
		"site: &a {organization: *a}\n": "site.organization.organization: unknown key",
	} {
		_, err := Parse([]byte(in), "site.yaml")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%.40q) = %v, want %q", in, err, want)
		}
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"origin", "name", "description", "language"}
	for word, want := range map[string]string{"orign": "origin", "nmae": "name", "descripton": "description", "zzz": "", "lang": ""} {
		if got := suggest(word, names); got != want {
			t.Errorf("suggest(%q) = %q, want %q", word, got, want)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("../examples/site.yaml")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data, "site.yaml"); err != nil {
			b.Fatal(err)
		}
	}
}
