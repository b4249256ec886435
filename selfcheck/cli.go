package selfcheck

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// Exit codes of RunCLI.
const (
	// ExitOK: the scan completed, whatever the score.
	ExitOK = 0
	// ExitScanFailed: nothing could be scanned (home page unreachable) or
	// the report could not be written.
	ExitScanFailed = 1
	// ExitUsage: bad usage (missing or malformed URL, unknown format…).
	ExitUsage = 2
	// ExitBelowThreshold: the score is below --fail-under.
	ExitBelowThreshold = 3
)

// CLIArgs are the arguments of `caddy agent-ready scan`.
type CLIArgs struct {
	// Target is the URL to scan (required; "example.com" means https).
	Target string
	// Format is json, markdown (or md) or html. Default: markdown.
	Format string
	// Out is the file to write the report to. Default: standard output.
	Out string
	// Pages is how many sitemap pages to scan besides the home page.
	// Default: 5 (0); negative: home page only.
	Pages int
	// Timeout bounds the whole scan. Default: 60s (0).
	Timeout time.Duration
	// Quiet turns off the progress line.
	Quiet bool
	// FailUnder makes RunCLI exit 3 when the score is below it. Default: 0
	// (never).
	FailUnder float64
	// Options carries further scan options (transport, limits) for callers
	// and tests; Pages and Timeout above override it when set.
	Options Options
}

// RunCLI runs one scan for the command line: it validates args, shows
// "checks done / total" on stderr when stderr is a terminal and not quiet,
// writes the report to stdout or args.Out, and returns the exit code
// (ExitOK, ExitScanFailed, ExitUsage, ExitBelowThreshold).
func RunCLI(ctx context.Context, args CLIArgs, stdout, stderr io.Writer, stderrIsTTY bool) (exitCode int) {
	target, render, err := args.validate()
	if err != nil {
		fmt.Fprintf(stderr, "agent-ready scan: %v\n", err)
		fmt.Fprintln(stderr, "usage: caddy agent-ready scan URL [--format json|markdown|html] [--out FILE] [--pages N] [--timeout D] [--quiet] [--fail-under SCORE]")
		return ExitUsage
	}
	opts := args.Options
	if args.Pages != 0 {
		opts.Pages = args.Pages
	}
	if args.Timeout > 0 {
		opts.Timeout = args.Timeout
	}
	progress := stderrIsTTY && !args.Quiet
	if progress {
		var mu sync.Mutex
		opts.Progress = func(done, total int) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(stderr, "\rchecks %d / %d", done, total)
		}
	}
	rep, err := Scan(ctx, target, opts)
	if progress {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		fmt.Fprintf(stderr, "agent-ready scan: %v\n", err)
		return ExitScanFailed
	}
	out, err := render(rep)
	if err != nil {
		fmt.Fprintf(stderr, "agent-ready scan: rendering report: %v\n", err)
		return ExitScanFailed
	}
	if args.Out != "" {
		if err := os.WriteFile(args.Out, out, 0o644); err != nil {
			fmt.Fprintf(stderr, "agent-ready scan: writing report: %v\n", err)
			return ExitScanFailed
		}
	} else if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "agent-ready scan: writing report: %v\n", err)
		return ExitScanFailed
	}
	if !args.Quiet {
		fmt.Fprintf(stderr, "score %s / 100 (%d could not be checked)\n", num(rep.Score), len(rep.CouldNotCheck))
	}
	if args.FailUnder > 0 && rep.Score < args.FailUnder {
		fmt.Fprintf(stderr, "agent-ready scan: score %s is below --fail-under %s\n", num(rep.Score), num(args.FailUnder))
		return ExitBelowThreshold
	}
	return ExitOK
}

// validate checks the arguments and picks the renderer.
func (a CLIArgs) validate() (string, func(*Report) ([]byte, error), error) {
	t := strings.TrimSpace(a.Target)
	if t == "" {
		return "", nil, fmt.Errorf("missing URL to scan")
	}
	if !strings.Contains(t, "://") {
		t = "https://" + t
	}
	u, err := url.Parse(t)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", nil, fmt.Errorf("%q is not an http or https URL", a.Target)
	}
	if a.FailUnder < 0 || a.FailUnder > 100 {
		return "", nil, fmt.Errorf("--fail-under %v is outside 0..100", a.FailUnder)
	}
	if a.Timeout < 0 {
		return "", nil, fmt.Errorf("--timeout %v is negative", a.Timeout)
	}
	var render func(*Report) ([]byte, error)
	switch strings.ToLower(a.Format) {
	case "", "markdown", "md":
		render = func(r *Report) ([]byte, error) { return r.Markdown(), nil }
	case "json":
		render = (*Report).JSON
	case "html":
		render = func(r *Report) ([]byte, error) { return r.HTML(), nil }
	default:
		return "", nil, fmt.Errorf("unknown --format %q (want json, markdown or html)", a.Format)
	}
	return t, render, nil
}
