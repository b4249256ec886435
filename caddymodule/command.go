package caddymodule

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"time"

	"github.com/caddyserver/caddy/v2"
	caddycmd "github.com/caddyserver/caddy/v2/cmd"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
	"github.com/agentready/caddy-agentready/selfcheck"
)

func init() {
	caddycmd.RegisterCommand(caddycmd.Command{
		Name:  "agent-ready",
		Usage: "convert|scan",
		Short: "Converts pages to Markdown and scores sites for agent readiness",
		Long: `
Tools of the agent_ready module that work without a running server.

  convert  converts one HTML document to Markdown exactly as the proxy would
  scan     scores any site against the agent-readiness standard
`,
		CobraFunc: addCommands,
	})
}

// addCommands adds convert and scan under `caddy agent-ready`.
func addCommands(cmd *cobra.Command) {
	conv := &cobra.Command{
		Use:   "convert [--url <url>] [--content-selector <sel>]... [<file>|-]",
		Short: "Converts one HTML document to Markdown as the proxy would",
		Long: `
Reads one HTML document (standard input by default, or a file) and prints
the Markdown the agent_ready handler would serve for it, front matter
included. --url sets the page's address, used for the canonical URL and to
make relative links absolute. The other flags mirror the handler's settings.
`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
		RunE: caddycmd.WrapCommandFuncForCobra(cmdConvert),
	}
	conv.Flags().String("url", "http://localhost/", "address of the page")
	conv.Flags().StringArray("content-selector", nil, "CSS selector of the main content (repeatable)")
	conv.Flags().StringArray("prune", nil, "CSS selector to remove, besides the defaults (repeatable)")
	conv.Flags().Bool("no-default-prune", false, "do not apply the default prune selectors")
	conv.Flags().StringArray("keep", nil, "CSS selector that always survives pruning (repeatable)")
	conv.Flags().Bool("keep-images-without-alt", false, "keep images that have no alt text")
	conv.Flags().Bool("no-jsonld", false, "do not append the page's JSON-LD block")
	conv.Flags().String("default-language", "", "front matter language when the page names none")
	conv.Flags().Bool("tokens", false, "print the o200k token count on standard error")
	cmd.AddCommand(conv)

	scan := &cobra.Command{
		Use:   "scan <url> [--format json|markdown|html|sarif|junit] [--out <file>] [--pages <n>] [--timeout <duration>] [--fail-under <score>] [--check <id>] [--quiet]",
		Short: "Scores a site against the agent-readiness standard",
		Long: `
Scans the site at <url> through three lenses — the agent-readiness
standard (100 points, 35 checks), the 28 agent-protocol checkpoints and the
20 agent-compatibility lint rules — and prints one report that opens with a
fix-first plan and keeps a receipt for every verdict. --format sarif and
--format junit feed a CI pipeline. --check <id> rescans just one check,
checkpoint or lint rule and prints its verdict and receipt. The exit code is
0 when the scan completed, whatever the score; 1 when the site could not be
scanned at all; 2 for bad usage; 3 when the score is below --fail-under, or
when the --check target is FAIL or PARTIAL.
`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: caddycmd.WrapCommandFuncForCobra(cmdScan),
	}
	scan.Flags().String("format", "markdown", "report format: json, markdown, html, sarif or junit")
	scan.Flags().String("check", "", "rescan just this check, checkpoint or lint rule id and print its verdict and receipt")
	scan.Flags().String("out", "", "write the report to this file instead of standard output")
	scan.Flags().Int("pages", 5, "pages from the sitemap to scan besides the home page")
	scan.Flags().Duration("timeout", 60*time.Second, "time limit of the whole scan")
	scan.Flags().Float64("fail-under", 0, "exit with status 3 when the score is below this")
	scan.Flags().Bool("quiet", false, "no progress display on standard error")
	cmd.AddCommand(scan)
	for _, c := range []*cobra.Command{conv, scan} {
		c.SetFlagErrorFunc(usageError)
	}
}

// exitUsage is the exit status of bad usage (a missing or extra argument,
// an unknown flag or a bad flag value), as the scan's help documents.
const exitUsage = 2

// usageError turns a usage mistake cobra found into exit status 2: cobra's
// own errors make Caddy exit with 1, the status scan documents as "could
// not be scanned".
func usageError(cmd *cobra.Command, err error) error {
	return caddycmd.WrapCommandFuncForCobra(func(caddycmd.Flags) (int, error) {
		return exitUsage, fmt.Errorf("%v (see caddy agent-ready %s --help)", err, cmd.Name())
	})(cmd, nil)
}

// usageArgs is an argument check whose failure is a usage error.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usageError(cmd, err)
		}
		return nil
	}
}

// maxConvertInput caps what `convert` reads, like the handler's max_size
// default but larger: a user debugging a big page should still get output.
const maxConvertInput = 64 << 20

func cmdConvert(fl caddycmd.Flags) (int, error) {
	strs := func(name string) []string {
		v, _ := fl.GetStringArray(name)
		return v
	}
	args := convertArgs{
		URL:    fl.String("url"),
		File:   fl.Arg(0),
		Tokens: fl.Bool("tokens"),
		Settings: convert.Settings{
			ContentSelectors:     strs("content-selector"),
			Prune:                strs("prune"),
			PruneDefaults:        convert.Bool(!fl.Bool("no-default-prune")),
			Keep:                 strs("keep"),
			KeepImagesWithoutAlt: fl.Bool("keep-images-without-alt"),
			JSONLDBlock:          convert.Bool(!fl.Bool("no-jsonld")),
			DefaultLanguage:      fl.String("default-language"),
		},
	}
	if err := runConvert(os.Stdin, os.Stdout, os.Stderr, args); err != nil {
		return caddy.ExitCodeFailedStartup, err
	}
	return caddy.ExitCodeSuccess, nil
}

// convertArgs are the inputs of `caddy agent-ready convert`.
type convertArgs struct {
	URL      string // the page's address
	File     string // input file; "" or "-" for stdin
	Tokens   bool   // print the token count on stderr
	Settings convert.Settings
}

// runConvert converts one HTML document exactly as the handler would:
// charset decoding, extraction, conversion, front matter.
func runConvert(stdin io.Reader, stdout, stderr io.Writer, args convertArgs) error {
	pageURL, err := url.Parse(args.URL)
	if err != nil || !pageURL.IsAbs() {
		return fmt.Errorf("--url: need an absolute URL, got %q", args.URL)
	}
	in := stdin
	if args.File != "" && args.File != "-" {
		f, err := os.Open(args.File)
		if err != nil {
			return fmt.Errorf("opening input: %v", err)
		}
		defer f.Close()
		in = f
	}
	raw, err := io.ReadAll(io.LimitReader(in, maxConvertInput+1))
	if err != nil {
		return fmt.Errorf("reading input: %v", err)
	}
	if len(raw) > maxConvertInput {
		return fmt.Errorf("input larger than %d bytes", maxConvertInput)
	}
	var neg negotiate.Options // the handler's default output budget
	if err := neg.Provision(); err != nil {
		return err
	}
	conv, err := newConverter(args.Settings, neg.MaxMarkdownSize)
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

func cmdScan(fl caddycmd.Flags) (int, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	args := selfcheck.CLIArgs{
		Target:    fl.Arg(0),
		Format:    fl.String("format"),
		Out:       fl.String("out"),
		Pages:     fl.Int("pages"),
		Timeout:   fl.Duration("timeout"),
		FailUnder: fl.Float64("fail-under"),
		Quiet:     fl.Bool("quiet"),
		Check:     fl.String("check"),
	}
	isTTY := term.IsTerminal(int(os.Stderr.Fd()))
	code := selfcheck.RunCLI(ctx, args, os.Stdout, os.Stderr, isTTY)
	if code != 0 {
		return code, fmt.Errorf("scan exited with status %d", code)
	}
	return 0, nil
}
