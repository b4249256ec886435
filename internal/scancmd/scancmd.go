// Package scancmd is `caddy agent-ready scan`: it scores any site against
// the agent-readiness standard (selfcheck.RunCLI). The glue registers the
// command with Caddy; its help, flags and run are here, without Caddy.
package scancmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/agentready/caddy-agentready/selfcheck"
)

// The command's help.
const (
	Use   = "scan <url> [--format json|markdown|html|sarif|junit] [--out <file>] [--pages <n>] [--timeout <duration>] [--fail-under <score>] [--check <id>] [--quiet]"
	Short = "Scores a site against the agent-readiness standard"
	Long  = `
Scans the site at <url> through three lenses — the agent-readiness
standard (100 points, 35 checks), the 28 agent-protocol checkpoints and the
20 agent-compatibility lint rules — and prints one report that opens with a
fix-first plan and keeps a receipt for every verdict. --format sarif and
--format junit feed a CI pipeline. --check <id> rescans just one check,
checkpoint or lint rule and prints its verdict and receipt. The exit code is
0 when the scan completed, whatever the score; 1 when the site could not be
scanned at all; 2 for bad usage; 3 when the score is below --fail-under, or
when the --check target is FAIL or PARTIAL.
`
)

// Flags are the command's flags.
func Flags() *pflag.FlagSet {
	fs := pflag.NewFlagSet("scan", pflag.ContinueOnError)
	fs.String("format", "markdown", "report format: json, markdown, html, sarif or junit")
	fs.String("check", "", "rescan just this check, checkpoint or lint rule id and print its verdict and receipt")
	fs.String("out", "", "write the report to this file instead of standard output")
	fs.Int("pages", 5, "pages from the sitemap to scan besides the home page")
	fs.Duration("timeout", 60*time.Second, "time limit of the whole scan")
	fs.Float64("fail-under", 0, "exit with status 3 when the score is below this")
	fs.Bool("quiet", false, "no progress display on standard error")
	return fs
}

// FromFlags reads the scan's arguments from fs, parsed from the command
// line (Flags).
func FromFlags(fs *pflag.FlagSet) selfcheck.CLIArgs {
	str := func(name string) string { v, _ := fs.GetString(name); return v }
	pages, _ := fs.GetInt("pages")
	timeout, _ := fs.GetDuration("timeout")
	failUnder, _ := fs.GetFloat64("fail-under")
	quiet, _ := fs.GetBool("quiet")
	return selfcheck.CLIArgs{Target: fs.Arg(0), Format: str("format"), Out: str("out"), Pages: pages,
		Timeout: timeout, FailUnder: failUnder, Quiet: quiet, Check: str("check")}
}

// Main runs the command on the process's standard streams, until done or
// interrupted, and returns its exit status (with an error when not 0).
func Main(fs *pflag.FlagSet) (int, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	isTTY := term.IsTerminal(int(os.Stderr.Fd()))
	if code := selfcheck.RunCLI(ctx, FromFlags(fs), os.Stdout, os.Stderr, isTTY); code != 0 {
		return code, fmt.Errorf("scan exited with status %d", code)
	}
	return 0, nil
}
