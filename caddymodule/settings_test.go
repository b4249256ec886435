package caddymodule

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"

	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
)

// jsonOnly are the JSON fields of AgentReady that have no Caddyfile
// subdirective: an inline YAML document belongs in a JSON config; a
// Caddyfile names the file; the adapter (parseCaddyfile, not a
// subdirective) sets config_sha256 from the file config names.
var jsonOnly = []string{"site_yaml", "config_sha256"}

// subdirectiveSamples are argument lines for each subdirective; together
// they set every field the subdirective claims.
var subdirectiveSamples = map[string][]string{
	"config":                 {"site.yaml"},
	"max_size":               {"4MiB"},
	"max_markdown_size":      {"8MiB"},
	"convert_timeout":        {"3s"},
	"queue_timeout":          {"500ms"},
	"conversions_per_client": {"4"},
	"markdown_suffix":        {"/markdown", "off"},
	"link_llms":              {"/docs/llms.txt", "off"},
	"link_agents":            {"off"},
	"link_markdown":          {"off"},
	"head_link":              {"on"},
	"cache_control":          {"private"},
	"content_signal":         {"search=yes, ai-train=no"},
	"tokens_header":          {"off"},
	"rewrite_cache":          {"1MiB", "off"},
	"content_selector":       {"main .post"},
	"prune":                  {"nav .ads", "off"},
	"keep":                   {".keep-me"},
	"images_without_alt":     {"keep"},
	"jsonld_block":           {"off"},
	"default_language":       {"en-GB"},
	"conversion_cache":       {"16MiB", "off"},
	"inject":                 {"off"},
	"self_scan":              {"off"},
	"traffic":                {"off"},
	"fleet":                  {"2s"},
}

// jsonFields returns the JSON names of t's fields as encoding/json sees
// them: the fields of embedded structs promoted, a shallower field hiding
// a deeper one of the same name. Two fields of one name at the same depth
// (which encoding/json would both drop) are returned in clash.
func jsonFields(t reflect.Type) (fields map[string]int, clash []string) {
	fields = map[string]int{}
	var walk func(t reflect.Type, depth int)
	walk = func(t reflect.Type, depth int) {
		for f := range t.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
				walk(f.Type, depth+1)
				continue
			}
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			switch d, seen := fields[name]; {
			case !seen || depth < d:
				fields[name] = depth
			case depth == d:
				clash = append(clash, name)
			}
		}
	}
	walk(t, 0)
	return fields, clash
}

// TestSettingsOneName: every setting has one name. The JSON fields of the
// handler (its own and those promoted from negotiate.Options and
// convert.Settings) are the fields the Caddyfile's subdirectives set, plus
// the JSON-only ones; and each subdirective sets exactly the fields it
// claims.
func TestSettingsOneName(t *testing.T) {
	fields, clash := jsonFields(reflect.TypeFor[AgentReady]())
	if len(clash) > 0 {
		t.Errorf("JSON fields defined twice at the same depth (encoding/json drops them): %v", clash)
	}
	fromCaddyfile := map[string]string{}
	for name, sub := range subdirectives {
		for _, f := range sub.fields {
			if other, dup := fromCaddyfile[f]; dup {
				t.Errorf("%s is set by both %s and %s", f, other, name)
			}
			fromCaddyfile[f] = name
		}
	}
	want := slices.Sorted(maps.Keys(fromCaddyfile))
	for _, f := range jsonOnly {
		if _, dup := fromCaddyfile[f]; dup {
			t.Errorf("%s is listed as JSON-only but subdirective %s sets it", f, fromCaddyfile[f])
		}
		want = append(want, f)
	}
	slices.Sort(want)
	if got := slices.Sorted(maps.Keys(fields)); !slices.Equal(got, want) {
		t.Errorf("JSON fields and Caddyfile subdirectives differ\njson:      %v\ncaddyfile: %v", got, want)
	}

	for name, sub := range subdirectives {
		samples, ok := subdirectiveSamples[name]
		if !ok {
			t.Errorf("subdirective %s has no sample in subdirectiveSamples", name)
			continue
		}
		set := map[string]bool{}
		for _, args := range samples {
			var ar AgentReady
			if err := ar.UnmarshalCaddyfile(caddyfile.NewTestDispenser("agent_ready {\n" + name + " " + args + "\n}")); err != nil {
				t.Errorf("%s %s: %v", name, args, err)
				continue
			}
			raw, _ := json.Marshal(ar)
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			for k := range m {
				if !slices.Contains(sub.fields, k) {
					t.Errorf("%s %s sets %s, which it does not claim", name, args, k)
				}
				set[k] = true
			}
		}
		if got := slices.Sorted(maps.Keys(set)); !slices.Equal(got, slices.Sorted(slices.Values(sub.fields))) {
			t.Errorf("%s: samples set %v, it claims %v", name, got, sub.fields)
		}
	}
}

// TestSettingsDefaultsFromOwners: the Caddyfile sets no default, and a
// handler left at its defaults negotiates and converts with exactly the
// defaults of negotiate.Options and convert.Settings.
func TestSettingsDefaultsFromOwners(t *testing.T) {
	var parsed AgentReady
	if err := parsed.UnmarshalCaddyfile(caddyfile.NewTestDispenser("agent_ready {\n}")); err != nil {
		t.Fatal(err)
	}
	if raw, _ := json.Marshal(parsed); string(raw) != "{}" {
		t.Errorf("an empty agent_ready block sets %s", raw)
	}

	ctx, cancel := caddy.NewContext(caddy.Context{Context: context.Background()})
	defer cancel()
	ar := new(AgentReady)
	if err := ar.Provision(ctx); err != nil {
		t.Fatal(err)
	}
	neg := negotiate.Handler{Convert: ar.convertPage}
	if err := neg.Provision(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ar.neg.Options, neg.Options) {
		t.Errorf("negotiation options\n got %+v\nwant %+v", ar.neg.Options, neg.Options)
	}
	var settings convert.Settings
	if err := settings.Provision(); err != nil {
		t.Fatal(err)
	}
	conv, err := convert.New(convert.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]convert.Settings{"handler": ar.Settings, "converter": ar.conv.Options().Settings} {
		if !reflect.DeepEqual(got, settings) || !reflect.DeepEqual(got, conv.Options().Settings) {
			t.Errorf("%s's conversion settings\n got %+v\nwant %+v", name, got, settings)
		}
	}
	if o := ar.conv.Options(); o.MaxMarkdownSize != ar.neg.Options.MaxMarkdownSize || !o.FrontMatter {
		t.Errorf("converter: output budget %d, want max_markdown_size %d; front matter %v", o.MaxMarkdownSize, ar.neg.Options.MaxMarkdownSize, o.FrontMatter)
	}
	if ar.cache == nil {
		t.Error("no conversion cache by default")
	}
}

// TestSettingsDocumented: the comment of every JSON field of the handler,
// promoted ones included, is its user documentation: full sentences that
// start with the field's name and state its default.
func TestSettingsDocumented(t *testing.T) {
	for file, types := range map[string][]string{
		"module.go":                         {"AgentReady"},
		"../manifest/source.go":             {"Source"},
		"../internal/admission/settings.go": {"Queue"},
		"../selfscan/settings.go":           {"Settings"},
		"../traffic/sites/settings.go":      {"Settings"},
		"../fleet/settings.go":              {"Settings"},
		"../negotiate/options.go":           {"Options"},
		"../negotiate/convert/settings.go":  {"Settings"},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !slices.Contains(types, ts.Name.Name) {
				return true
			}
			found++
			for _, field := range ts.Type.(*ast.StructType).Fields.List {
				if field.Tag == nil || len(field.Names) == 0 || !strings.Contains(field.Tag.Value, `json:"`) {
					continue
				}
				name := field.Names[0].Name
				doc := strings.TrimSpace(field.Doc.Text())
				switch {
				case !strings.HasPrefix(doc, name+" "):
					t.Errorf("%s: %s.%s: the comment does not start with the field's name", file, ts.Name.Name, name)
				case !strings.HasSuffix(doc, "."):
					t.Errorf("%s: %s.%s: the comment is not full sentences", file, ts.Name.Name, name)
				case !strings.Contains(doc, "Default"):
					t.Errorf("%s: %s.%s: the comment does not state the default", file, ts.Name.Name, name)
				}
			}
			return false
		})
		if found != len(types) {
			t.Errorf("%s: found %d of the types %v", file, found, types)
		}
	}
}
