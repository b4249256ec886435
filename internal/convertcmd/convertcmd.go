// Package convertcmd is `caddy agent-ready convert`: it converts one HTML
// document to Markdown exactly as the agent_ready handler would (charset
// decoding, extraction, conversion, front matter). The glue registers the
// command with Caddy; its help, flags and work are here, without Caddy.
package convertcmd

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"

	"github.com/spf13/pflag"

	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
)

// The command's help.
const (
	Use   = "convert [--url <url>] [--content-selector <sel>]... [<file>|-]"
	Short = "Converts one HTML document to Markdown as the proxy would"
	Long  = `
Reads one HTML document (standard input by default, or a file) and prints
the Markdown the agent_ready handler would serve for it, front matter
included. --url sets the page's address, used for the canonical URL and to
make relative links absolute. The other flags mirror the handler's settings.
`
)

// Flags are the command's flags.
func Flags() *pflag.FlagSet {
	fs := pflag.NewFlagSet("convert", pflag.ContinueOnError)
	fs.String("url", "http://localhost/", "address of the page")
	fs.StringArray("content-selector", nil, "CSS selector of the main content (repeatable)")
	fs.StringArray("prune", nil, "CSS selector to remove, besides the defaults (repeatable)")
	fs.Bool("no-default-prune", false, "do not apply the default prune selectors")
	fs.StringArray("keep", nil, "CSS selector that always survives pruning (repeatable)")
	fs.Bool("keep-images-without-alt", false, "keep images that have no alt text")
	fs.Bool("no-jsonld", false, "do not append the page's JSON-LD block")
	fs.String("default-language", "", "front matter language when the page names none")
	fs.Bool("tokens", false, "print the o200k token count on standard error")
	return fs
}

// Args are the inputs of the command.
type Args struct {
	URL    string // the page's address
	File   string // input file; "" or "-" for stdin
	Tokens bool   // print the token count on stderr
	// Settings are the conversion's, as the handler's JSON names them
	// (the command's flags set the same fields), so the command converts
	// as the proxy does.
	Settings convert.Settings
}

// FromFlags reads Args from fs, parsed from the command line (Flags).
func FromFlags(fs *pflag.FlagSet) Args {
	strs := func(name string) []string { v, _ := fs.GetStringArray(name); return v }
	str := func(name string) string { v, _ := fs.GetString(name); return v }
	flag := func(name string) bool { v, _ := fs.GetBool(name); return v }
	return Args{
		URL:    str("url"),
		File:   fs.Arg(0),
		Tokens: flag("tokens"),
		Settings: convert.Settings{
			ContentSelectors:     strs("content-selector"),
			Prune:                strs("prune"),
			PruneDefaults:        convert.Bool(!flag("no-default-prune")),
			Keep:                 strs("keep"),
			KeepImagesWithoutAlt: flag("keep-images-without-alt"),
			JSONLDBlock:          convert.Bool(!flag("no-jsonld")),
			DefaultLanguage:      str("default-language"),
		},
	}
}

// Main runs the command on the process's standard streams and returns
// its exit status: 1 (Caddy's failed startup) with the error, else 0.
func Main(fs *pflag.FlagSet) (int, error) {
	if err := Run(os.Stdin, os.Stdout, os.Stderr, FromFlags(fs)); err != nil {
		return 1, err
	}
	return 0, nil
}

// MaxInput caps what the command reads, like the handler's max_size
// default but larger: a user debugging a big page should still get output.
const MaxInput = 64 << 20

// Run converts one HTML document exactly as the handler would: charset
// decoding, extraction, conversion, front matter.
func Run(stdin io.Reader, stdout, stderr io.Writer, args Args) error {
	pageURL, err := url.Parse(args.URL)
	if err != nil || !pageURL.IsAbs() {
		return fmt.Errorf("--url: need an absolute URL, got %q", args.URL)
	}
	raw, err := read(stdin, args.File)
	if err != nil {
		return err
	}
	var neg negotiate.Options // the handler's default output budget
	if err := neg.Provision(); err != nil {
		return err
	}
	conv, err := convert.New(convert.Options{Settings: args.Settings, FrontMatter: true, MaxMarkdownSize: neg.MaxMarkdownSize})
	if err != nil {
		return err
	}
	html, err := negotiate.ToUTF8(raw, "text/html")
	if err != nil {
		return fmt.Errorf("decoding input: %v", err)
	}
	res, err := conv.Convert(html, pageURL, http.Header{})
	if errors.Is(err, convert.ErrNoContent) {
		return fmt.Errorf("converting: %v; the proxy answers this page with its HTML (fail-open reason no_content)", err)
	}
	if err != nil {
		return fmt.Errorf("converting: %v", err)
	}
	if _, err := stdout.Write(res.Markdown); err != nil {
		return err
	}
	if args.Tokens {
		fmt.Fprintf(stderr, "tokens: %d\n", res.Tokens)
	}
	return nil
}

// read reads the input: file, or stdin for "" and "-"; at most MaxInput
// bytes.
func read(stdin io.Reader, file string) ([]byte, error) {
	in := stdin
	if file != "" && file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return nil, fmt.Errorf("opening input: %v", err)
		}
		defer f.Close()
		in = f
	}
	raw, err := io.ReadAll(io.LimitReader(in, MaxInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading input: %v", err)
	}
	if len(raw) > MaxInput {
		return nil, fmt.Errorf("input larger than %d bytes", MaxInput)
	}
	return raw, nil
}
