package manifest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schema locations, relative to testdata/schemas.
const (
	schemaARD        = "ard-entry.schema.v0.91.json#/$defs/ardManifest"
	schemaServerCard = "mcp-server-card.schema.json#/$defs/ServerCard"
	schemaA2A        = "own/a2a-agent-card-v1.0.schema.json"
	schemaAgents     = "own/agents.schema.json"
	schemaCatalog    = "own/api-catalog.schema.json"
	schemaSkills     = "own/agent-skills-index-v0.2.0.schema.json"
	schemaResource   = "own/oauth-protected-resource.schema.json"
)

// documentSchemas maps each generated JSON document to its schema.
var documentSchemas = map[string]string{
	PathAgentsJSON:    schemaAgents,
	PathWKAgentsJSON:  schemaAgents,
	PathARD:           schemaARD,
	PathMCPServerCard: schemaServerCard,
	PathAgentCard:     schemaA2A,
	PathAPICatalog:    schemaCatalog,
	PathSkillsIndex:   schemaSkills,
	PathOAuthResource: schemaResource,
}

// compileSchema compiles one schema location under testdata/schemas, with
// format assertions on.
func compileSchema(t *testing.T, loc string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	file, _, _ := strings.Cut(loc, "#")
	f, err := os.Open(filepath.Join("testdata", "schemas", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if err := c.AddResource(file, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(loc)
	if err != nil {
		t.Fatalf("compiling %s: %v", loc, err)
	}
	return sch
}

func validateJSON(t *testing.T, sch *jsonschema.Schema, body []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

func TestDocumentsValidateAgainstSchemas(t *testing.T) {
	schemas := map[string]*jsonschema.Schema{}
	get := func(loc string) *jsonschema.Schema {
		if schemas[loc] == nil {
			schemas[loc] = compileSchema(t, loc)
		}
		return schemas[loc]
	}
	seen := map[string]bool{}
	for _, fx := range fixtures() {
		b := fx.bundle(t)
		for _, d := range b.Documents {
			if !strings.Contains(d.ContentType, "json") {
				continue
			}
			loc, ok := documentSchemas[d.Path]
			if !ok {
				t.Errorf("%s %s: JSON document with no schema to validate it", fx.name, d.Path)
				continue
			}
			seen[d.Path] = true
			if err := validateJSON(t, get(loc), d.Body); err != nil {
				t.Errorf("%s %s against %s: %v", fx.name, d.Path, loc, err)
			}
		}
		// Cards carried inline in ard.json are validated too.
		if d := b.Document(PathARD); d != nil {
			var m struct {
				Entries []struct {
					Type string
					Data json.RawMessage
				}
			}
			if err := json.Unmarshal(d.Body, &m); err != nil {
				t.Fatal(err)
			}
			for _, e := range m.Entries {
				loc := map[string]string{mediaMCPCard: schemaServerCard, mediaA2ACard: schemaA2A}[e.Type]
				if e.Data == nil || loc == "" {
					continue
				}
				seen["inline "+e.Type] = true
				if err := validateJSON(t, get(loc), e.Data); err != nil {
					t.Errorf("%s: inline %s card: %v", fx.name, e.Type, err)
				}
			}
		}
	}
	// Every kind of document was exercised by some fixture.
	for path := range documentSchemas {
		if !seen[path] {
			t.Errorf("no fixture generates %s", path)
		}
	}
	if !seen["inline "+mediaMCPCard] || !seen["inline "+mediaA2ACard] {
		t.Errorf("no fixture carries inline cards in ard.json: %v", seen)
	}
}

// TestSchemasAreNotVacuous proves each schema rejects what it must, so a
// passing validation above means something.
func TestSchemasAreNotVacuous(t *testing.T) {
	shared := filepath.Join("testdata", "schemas", "mcp-server-card-fixtures")
	for _, tc := range []struct {
		schema, doc string
		valid       bool
	}{
		{schemaServerCard, `{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"example-org/minimal","version":"1.0.0","description":"Smallest valid Server Card."}`, true},
		{schemaServerCard, `{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"no-slash","version":"1.0.0","description":"x"}`, false},
		{schemaServerCard, `{"name":"a/b","version":"1.0.0","description":"no $schema"}`, false},
		{schemaARD, `{"entries":[{"identifier":"urn:air:a.example:ns:x","displayName":"X","type":"application/json","url":"https://a.example/x","data":{}}]}`, false},
		{schemaARD, `{"entries":[{"identifier":"not-a-urn","displayName":"X","type":"application/json","url":"https://a.example/x"}]}`, false},
		{schemaA2A, mustRead(t, "testdata/schemas/agent-card-sample-v1.0.json"), true},
		{schemaA2A, `{"name":"old","description":"0.3 card","url":"https://a.example/a2a","version":"1","capabilities":{},"defaultInputModes":[],"defaultOutputModes":[],"skills":[],"supportedInterfaces":[{"url":"https://a.example","protocolBinding":"JSONRPC","protocolVersion":"0.3"}]}`, false},
		{schemaAgents, `{"version":"1.0","name":"x","url":"https://x.example","content":{"markdown":{"contentNegotiation":true}},"interfaces":[{"type":"mcp","url":"https://x.example/mcp"}],"agents":[],"authentication":{"type":"none","public":["*"]}}`, false},
		{schemaAgents, `{"version":"1.0","name":"x","url":"https://x.example","content":{"markdown":{"contentNegotiation":true}},"interfaces":[],"agents":[],"authentication":{"type":"oauth","public":[]}}`, false},
		{schemaCatalog, `{"linkset":[{"anchor":"https://x.example/api"}]}`, false},
		{schemaSkills, `{"$schema":"https://schemas.agentskills.io/discovery/0.2.0/schema.json","skills":[{"name":"a","type":"skill-md","description":"d","url":"/a","digest":"sha256:c4d5e6f7..."}]}`, false},
		{schemaResource, `{"authorization_servers":["https://as.example"]}`, false},
	} {
		err := validateJSON(t, compileSchema(t, tc.schema), []byte(tc.doc))
		if (err == nil) != tc.valid {
			t.Errorf("%s: valid=%v, got error %v for %s", tc.schema, tc.valid, err, tc.doc)
		}
	}
	// The upstream valid and invalid cards.
	for dir, valid := range map[string]bool{"valid": true, "invalid": false} {
		files, _ := filepath.Glob(filepath.Join(shared, dir, "*.json"))
		if len(files) == 0 {
			t.Fatalf("no fixtures in %s/%s", shared, dir)
		}
		for _, f := range files {
			err := validateJSON(t, compileSchema(t, schemaServerCard), []byte(mustRead(t, f)))
			if (err == nil) != valid {
				t.Errorf("%s: valid=%v, got %v", f, valid, err)
			}
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
