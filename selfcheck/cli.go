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
	// Pages is how many pages to scan besides the home page (Options.Pages).
	// Default: 5 (0); negative: home page only.
	Pages int
	// Timeout bounds the whole scan. Default: 60s (0).
	Timeout time.Duration
	// Quiet turns off the progress line.
	Quiet bool
	// FailUnder makes RunCLI exit 3 when the score is below it. Default: 0
	// (never).
	FailUnder float64
	// Check rescans just one check, checkpoint or lint rule (its id) and
	// prints its verdict and receipt; RunCLI exits 3 when it is FAIL or
	// PARTIAL. Default: "" (everything).
	Check string
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
		fmt.Fprintln(stderr, "usage: caddy agent-ready scan URL [--format json|markdown|html|sarif|junit] [--out FILE] [--pages N] [--timeout D] [--quiet] [--fail-under SCORE] [--check ID]")
		return ExitUsage
	}
	opts := args.Options
	opts.Only = strings.TrimSpace(args.Check)
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
	if opts.Only != "" && (strings.EqualFold(args.Format, "") || strings.EqualFold(args.Format, "markdown") || strings.EqualFold(args.Format, "md")) {
		render = func(r *Report) ([]byte, error) { return r.OneText(opts.Only), nil }
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
	if opts.Only != "" {
		v := rep.VerdictOf(opts.Only)
		if !args.Quiet {
			fmt.Fprintf(stderr, "%s: %s\n", opts.Only, v)
		}
		if v == Fail || v == Partial {
			return ExitBelowThreshold
		}
		return ExitOK
	}
	if !args.Quiet {
		fmt.Fprintf(stderr, "score %s / 100 (%d could not be checked); %s\n", num(rep.Score), len(rep.CouldNotCheck), rep.checkpointCounts())
		if rep.Lint != nil {
			fmt.Fprintf(stderr, "lint: %s\n", rep.Lint.lintLine())
		}
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
	if id := strings.TrimSpace(a.Check); id != "" && !KnownID(id) {
		return "", nil, fmt.Errorf("--check %q is not a check, checkpoint or lint rule id", id)
	}
	var render func(*Report) ([]byte, error)
	switch strings.ToLower(a.Format) {
	case "", "markdown", "md":
		render = func(r *Report) ([]byte, error) { return r.Markdown(), nil }
	case "json":
		render = (*Report).JSON
	case "html":
		render = func(r *Report) ([]byte, error) { return r.HTML(), nil }
	case "sarif":
		render = (*Report).SARIF
	case "junit":
		render = (*Report).JUnit
	default:
		return "", nil, fmt.Errorf("unknown --format %q (want json, markdown, html, sarif or junit)", a.Format)
	}
	return t, render, nil
}

// KnownID reports whether id names a check, a checkpoint or a lint rule.
func KnownID(id string) bool {
	for _, c := range catalogue {
		if c.ID == id {
			return true
		}
	}
	for _, c := range checkpoints {
		if c.ID == id {
			return true
		}
	}
	for _, l := range lintRules {
		if l.ID == id {
			return true
		}
	}
	return false
}

// VerdictOf returns the verdict of the check, checkpoint or lint rule id
// ("" when the report does not hold it).
func (r *Report) VerdictOf(id string) Verdict {
	if c := r.checkByID(id); c != nil {
		return c.Verdict
	}
	if c := r.checkpointByID(id); c != nil {
		return c.Verdict
	}
	if l := r.Lint.lintByID(id); l != nil {
		return l.Verdict
	}
	return ""
}

// OneText renders the verdict and receipt of one check, checkpoint or lint
// rule: what `scan --check ID` prints.
func (r *Report) OneText(id string) []byte {
	var text string
	switch {
	case r.checkByID(id) != nil:
		text = receiptText(*r.checkByID(id))
	case r.checkpointByID(id) != nil:
		text = checkpointText(*r.checkpointByID(id))
	case r.Lint.lintByID(id) != nil:
		text = lintText(*r.Lint.lintByID(id))
	default:
		text = "no result for " + id + "\n"
	}
	return []byte(fmt.Sprintf("%s %s — %s (%s)\n%s", verdictIcon(r.VerdictOf(id)), id, r.VerdictOf(id), r.Target, text))
}
