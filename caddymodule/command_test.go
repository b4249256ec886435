package caddymodule

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
)

// TestRunConvertMatchesHandler: `caddy agent-ready convert` prints what the
// handler serves for the same page and settings.
func TestRunConvertMatchesHandler(t *testing.T) {
	page := filepath.Join("..", "examples", "site", "pricing.html")
	var out, errOut bytes.Buffer
	err := runConvert(nil, &out, &errOut, convertArgs{URL: "https://acme.example/pricing", File: page, Tokens: true})
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

// TestRunConvertEmptyPage: an empty page is a valid, empty Markdown
// document: its front matter and no body, exit status 0.
func TestRunConvertEmptyPage(t *testing.T) {
	for _, in := range []string{"", "<html><body></body></html>"} {
		var out, errOut bytes.Buffer
		err := runConvert(strings.NewReader(in), &out, &errOut, convertArgs{URL: "http://x/"})
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if want := "---\ncanonical: http://x/\n---\n"; out.String() != want {
			t.Errorf("%q: output %q, want %q", in, out.String(), want)
		}
	}
}

func TestRunConvertErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args convertArgs
		in   string
		want string
	}{
		{"relative url", convertArgs{URL: "/pricing"}, "<p>x</p>", "need an absolute URL"},
		{"missing file", convertArgs{URL: "http://x/", File: "does-not-exist.html"}, "", "opening input"},
		{"bad selector", convertArgs{URL: "http://x/", Settings: convert.Settings{ContentSelectors: []string{"main["}}}, "<p>x</p>", "main["},
		{"application shell", convertArgs{URL: "http://x/"}, "<script>app()</script><div id=app></div>", "no text in its HTML outside scripts"},
		{"application shell names the proxy's reason", convertArgs{URL: "http://x/"}, "<script>app()</script><div id=app></div>", "fail-open reason no_content"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := runConvert(strings.NewReader(tc.in), &out, &errOut, tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestCommandUsageExitStatus: bad usage of `caddy agent-ready` exits with
// status 2, as scan's help documents (cobra's own errors would make Caddy
// exit with 1, which scan documents as "could not be scanned").
func TestCommandUsageExitStatus(t *testing.T) {
	for _, args := range [][]string{
		{"scan"},
		{"scan", "http://a.example/", "http://b.example/"},
		{"scan", "--bogus", "http://a.example/"},
		{"scan", "--pages", "many", "http://a.example/"},
		{"convert", "a.html", "b.html"},
		{"convert", "--bogus"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			root := &cobra.Command{Use: "agent-ready", SilenceUsage: true, SilenceErrors: true}
			addCommands(root)
			root.SetArgs(args)
			root.SetOut(io.Discard)
			root.SetErr(io.Discard)
			err := root.Execute()
			if code := exitStatus(err); code != exitUsage {
				t.Fatalf("exit status %d (error %v), want %d", code, err, exitUsage)
			}
		})
	}
}

// exitStatus is the status Caddy's Main exits with for err: the ExitCode
// of caddycmd's (unexported) exitError, else 1; 0 for no error.
func exitStatus(err error) int {
	if err == nil {
		return 0
	}
	v := reflect.ValueOf(err)
	if v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct {
		if f := v.Elem().FieldByName("ExitCode"); f.IsValid() && f.CanInt() {
			return int(f.Int())
		}
	}
	return 1
}
