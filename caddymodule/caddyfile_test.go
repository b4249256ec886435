package caddymodule

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	_ "github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/encode"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/encode/gzip"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy"

	"github.com/agentready/caddy-agentready/internal/setting"
	"github.com/agentready/caddy-agentready/manifest"
	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestCaddyfileAdapt adapts every testdata/caddyfile_adapt/*.caddyfiletest
// (a Caddyfile, a line of dashes, the expected JSON) the way Caddy's own
// caddyfile_adapt tests do.
func TestCaddyfileAdapt(t *testing.T) {
	files, err := filepath.Glob("testdata/caddyfile_adapt/*.caddyfiletest")
	if err != nil || len(files) == 0 {
		t.Fatalf("no adapt tests found: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".caddyfiletest"), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			in, want, ok := strings.Cut(string(raw), "\n----------\n")
			if !ok {
				t.Fatalf("%s: missing ---------- separator", f)
			}
			got, err := adapt(in+"\n", f)
			if err != nil {
				if strings.HasPrefix(strings.TrimSpace(want), "error:") {
					if !strings.Contains(err.Error(), strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(want), "error:"))) {
						t.Fatalf("error %q does not contain %q", err, want)
					}
					return
				}
				t.Fatalf("adapting: %v", err)
			}
			if *update {
				if err := os.WriteFile(f, []byte(in+"\n----------\n"+got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if strings.TrimSpace(got) != strings.TrimSpace(want) {
				t.Errorf("adapted JSON differs (run with -update to accept)\n--- got\n%s\n--- want\n%s", got, want)
			}
		})
	}
}

// adapt adapts a Caddyfile read from filename: a relative config path is
// the directory of filename's (testdata/caddyfile_adapt/site.yaml for the
// goldens).
func adapt(caddyfileText, filename string) (string, error) {
	adapter := caddyconfig.GetAdapter("caddyfile")
	out, warnings, err := adapter.Adapt([]byte(caddyfileText), map[string]any{"filename": filename})
	if err != nil {
		return "", err
	}
	if len(warnings) > 0 {
		w, _ := json.Marshal(warnings)
		return "", &adaptWarnings{string(w)}
	}
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		return "", err
	}
	pretty, err := json.MarshalIndent(v, "", "\t")
	return string(pretty) + "\n", err
}

type adaptWarnings struct{ s string }

func (w *adaptWarnings) Error() string { return "adapt warnings: " + w.s }

// TestUnmarshalCaddyfileErrors checks that mistakes fail at load time with
// the subdirective named.
func TestUnmarshalCaddyfileErrors(t *testing.T) {
	for _, tc := range []struct {
		name, input, want string
	}{
		{"unknown", "agent_ready {\n\tbogus 1\n}", "unrecognized subdirective 'bogus'"},
		{"max_size bad", "agent_ready {\n\tmax_size lots\n}", "max_size: invalid size 'lots'"},
		{"max_size zero", "agent_ready {\n\tmax_size 0\n}", "max_size: invalid size '0'"},
		{"config two args", "agent_ready {\n\tconfig a b\n}", "wrong argument count"},
		{"config missing", "agent_ready {\n\tconfig\n}", "wrong argument count"},
		{"head_link bad", "agent_ready {\n\thead_link maybe\n}", "head_link: expected on or off, got 'maybe'"},
		{"images bad", "agent_ready {\n\timages_without_alt sometimes\n}", "images_without_alt: expected keep or drop"},
		{"prune empty", "agent_ready {\n\tprune\n}", "wrong argument count"},
		{"cache bad", "agent_ready {\n\tconversion_cache huge\n}", "conversion_cache: invalid size 'huge'"},
		{"rewrite cache bad", "agent_ready {\n\trewrite_cache 0\n}", "rewrite_cache: invalid size '0'"},
		{"max_size off", "agent_ready {\n\tmax_size off\n}", "max_size: invalid size 'off'"},
		{"max_markdown_size off", "agent_ready {\n\tmax_markdown_size off\n}", "max_markdown_size: invalid size 'off'"},
		{"convert_timeout bad", "agent_ready {\n\tconvert_timeout soon\n}", "convert_timeout: invalid duration 'soon'"},
		{"convert_timeout zero", "agent_ready {\n\tconvert_timeout 0s\n}", "convert_timeout: invalid duration '0s'"},
		{"queue_timeout bad", "agent_ready {\n\tqueue_timeout 0\n}", "queue_timeout: invalid duration '0'"},
		{"conversions_per_client bad", "agent_ready {\n\tconversions_per_client none\n}", "conversions_per_client: invalid number 'none'"},
		{"conversions_per_client zero", "agent_ready {\n\tconversions_per_client 0\n}", "conversions_per_client: invalid number '0'"},
		{"convert_timeout two args", "agent_ready {\n\tconvert_timeout 1s 2s\n}", "wrong argument count"},
		{"inline args", "agent_ready a.yaml b.yaml", "wrong argument count"},
		{"config twice", "agent_ready {\n\tconfig a.yaml\n\tconfig b.yaml\n}", "config given twice (first on line 2): keep one"},
		{"config inline and in block", "agent_ready a.yaml {\n\tconfig b.yaml\n}", "config given twice (first on line 1)"},
		{"max_size twice", "agent_ready {\n\tmax_size 1MB\n\tmax_size 2MB\n}", "max_size given twice"},
		{"self_scan twice", "agent_ready {\n\tself_scan off\n\tself_scan off\n}", "self_scan given twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ar AgentReady
			err := ar.UnmarshalCaddyfile(caddyfile.NewTestDispenser(tc.input))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestUnmarshalCaddyfile(t *testing.T) {
	var ar AgentReady
	err := ar.UnmarshalCaddyfile(caddyfile.NewTestDispenser(`agent_ready {
		config site.yaml
		max_size 4MiB
		max_markdown_size 10MB
		convert_timeout 3s
		markdown_suffix off
		link_llms /docs/llms.txt
		link_agents off
		link_markdown off
		head_link on
		cache_control "private, max-age=60"
		content_signal search=yes, ai-input=yes, ai-train=no
		tokens_header off
		content_selector "#content" .post
		content_selector .extra
		prune nav .ads
		keep .keep-me
		images_without_alt keep
		jsonld_block off
		default_language en-GB
		conversion_cache off
		rewrite_cache off
		inject off
	}`))
	if err != nil {
		t.Fatal(err)
	}
	f := false
	tr := true
	want := AgentReady{
		Source: manifest.Source{Config: "site.yaml"},
		Options: negotiate.Options{
			MaxSize: 4 << 20, MaxMarkdownSize: 10e6, MarkdownSuffix: "-", LinkLLMS: "/docs/llms.txt", LinkAgents: "-",
			LinkMarkdown: &f, HeadLink: &tr, CacheControl: "private, max-age=60",
			ContentSignal: "search=yes, ai-input=yes, ai-train=no", TokensHeader: &f, RewriteCache: -1,
		},
		ConvertTimeout: setting.Duration(3 * time.Second),
		Settings: convert.Settings{
			ContentSelectors: []string{"#content", ".post", ".extra"}, Prune: []string{"nav", ".ads"}, Keep: []string{".keep-me"},
			KeepImagesWithoutAlt: true, JSONLDBlock: &f, DefaultLanguage: "en-GB", ConversionCache: -1,
		},
		Inject: &f,
	}
	gotJSON, _ := json.Marshal(ar)
	wantJSON, _ := json.Marshal(want)
	if string(gotJSON) != string(wantJSON) {
		t.Fatalf("got  %s\nwant %s", gotJSON, wantJSON)
	}
}
