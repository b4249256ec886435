package caddymodule

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/caddyserver/caddy/v2"
	caddycmd "github.com/caddyserver/caddy/v2/cmd"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/agentready/caddy-agentready/internal/convertcmd"
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
		Use:   convertcmd.Use,
		Short: convertcmd.Short,
		Long:  convertcmd.Long,
		Args:  usageArgs(cobra.MaximumNArgs(1)),
		RunE:  caddycmd.WrapCommandFuncForCobra(cmdConvert),
	}
	conv.Flags().AddFlagSet(convertcmd.Flags())
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

// cmdConvert runs `caddy agent-ready convert` (package convertcmd).
func cmdConvert(fl caddycmd.Flags) (int, error) {
	if err := convertcmd.Run(os.Stdin, os.Stdout, os.Stderr, convertcmd.FromFlags(fl.FlagSet)); err != nil {
		return caddy.ExitCodeFailedStartup, err
	}
	return caddy.ExitCodeSuccess, nil
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
