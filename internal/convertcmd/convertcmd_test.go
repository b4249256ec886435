package convertcmd

import (
	"bytes"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
)

// TestRunMatchesHandler: `caddy agent-ready convert` prints what the
// handler serves for the same page and settings.
func TestRunMatchesHandler(t *testing.T) {
	page := filepath.Join("..", "..", "examples", "site", "pricing.html")
	var out, errOut bytes.Buffer
	err := Run(nil, &out, &errOut, Args{URL: "https://acme.example/pricing", File: page, Tokens: true})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := convert.New(convert.Options{FrontMatter: true})
	if err != nil {
		t.Fatal(err)
	}
	html, _ := negotiate.ToUTF8(raw, "text/html")
	u, _ := url.Parse("https://acme.example/pricing")
	want, err := conv.Convert(html, u, http.Header{})
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want.Markdown) {
		t.Errorf("convert output differs from the converter's")
	}
	if !strings.Contains(out.String(), "canonical: https://acme.example/pricing\n") {
		t.Errorf("--url not used for the canonical URL:\n%.300s", out.String())
	}
	if !strings.HasPrefix(errOut.String(), "tokens: ") {
		t.Errorf("--tokens printed %q", errOut.String())
	}
}

// TestRunEmptyPage: an empty page is a valid, empty Markdown
// document: its front matter and no body, exit status 0.
func TestRunEmptyPage(t *testing.T) {
	for _, in := range []string{"", "<html><body></body></html>"} {
		var out, errOut bytes.Buffer
		err := Run(strings.NewReader(in), &out, &errOut, Args{URL: "http://x/"})
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if want := "---\ncanonical: http://x/\n---\n"; out.String() != want {
			t.Errorf("%q: output %q, want %q", in, out.String(), want)
		}
	}
}

func TestRunErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args Args
		in   string
		want string
	}{
		{"relative url", Args{URL: "/pricing"}, "<p>x</p>", "need an absolute URL"},
		{"missing file", Args{URL: "http://x/", File: "does-not-exist.html"}, "", "opening input"},
		{"bad selector", Args{URL: "http://x/", Settings: convert.Settings{ContentSelectors: []string{"main["}}}, "<p>x</p>", "main["},
		{"application shell", Args{URL: "http://x/"}, "<script>app()</script><div id=app></div>", "no text in its HTML outside scripts"},
		{"application shell names the proxy's reason", Args{URL: "http://x/"}, "<script>app()</script><div id=app></div>", "fail-open reason no_content"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := Run(strings.NewReader(tc.in), &out, &errOut, tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestFromFlags: the flags set the conversion settings they name, and no
// flag leaves the handler's defaults (default prune selectors and the
// JSON-LD block on).
func TestFromFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want Args
	}{
		{nil, Args{URL: "http://localhost/", Settings: convert.Settings{ContentSelectors: []string{}, Prune: []string{}, Keep: []string{}, PruneDefaults: convert.Bool(true), JSONLDBlock: convert.Bool(true)}}},
		{[]string{"--url", "https://a.example/x", "--content-selector", "main", "--content-selector", ".post", "--prune", "nav",
			"--no-default-prune", "--keep", ".k", "--keep-images-without-alt", "--no-jsonld", "--default-language", "de", "--tokens", "page.html"},
			Args{URL: "https://a.example/x", File: "page.html", Tokens: true, Settings: convert.Settings{
				ContentSelectors: []string{"main", ".post"}, Prune: []string{"nav"}, PruneDefaults: convert.Bool(false), Keep: []string{".k"},
				KeepImagesWithoutAlt: true, JSONLDBlock: convert.Bool(false), DefaultLanguage: "de"}}},
	} {
		fs := Flags()
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if got := FromFlags(fs); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v:\n got %+v\nwant %+v", tc.args, got, tc.want)
		}
	}
}
