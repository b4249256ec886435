package selfcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRunCLI(t *testing.T) {
	ready := agentReadySite(t).serve(t)
	bareSrv := bareSite().serve(t)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	refused := "http://" + ln.Addr().String()
	ln.Close()
	out := filepath.Join(t.TempDir(), "report.html")
	fixed := Options{Now: func() time.Time { return fixedNow }, RequestTimeout: 2 * time.Second}
	tests := []struct {
		name     string
		args     CLIArgs
		tty      bool
		code     int
		stdout   string // substring
		stderr   string // substring
		noStderr string // must not appear on stderr
	}{
		{name: "markdown to stdout", args: CLIArgs{Target: ready.URL}, code: ExitOK, stdout: "**Score: 100 / 100**", stderr: "score 100 / 100"},
		{name: "json", args: CLIArgs{Target: ready.URL, Format: "json", Quiet: true}, code: ExitOK, stdout: `"schema_version": "1.1"`},
		{name: "progress on a TTY", args: CLIArgs{Target: bareSrv.URL}, tty: true, code: ExitOK, stderr: "checks 35 / 35"},
		{name: "no progress when quiet", args: CLIArgs{Target: bareSrv.URL, Quiet: true}, tty: true, code: ExitOK, noStderr: "checks"},
		{name: "no progress without a TTY", args: CLIArgs{Target: bareSrv.URL}, code: ExitOK, noStderr: "checks "},
		{name: "html to a file", args: CLIArgs{Target: ready.URL, Format: "html", Out: out, Quiet: true}, code: ExitOK},
		{name: "below fail-under", args: CLIArgs{Target: bareSrv.URL, FailUnder: 50}, code: ExitBelowThreshold, stderr: "below --fail-under 50"},
		{name: "at fail-under", args: CLIArgs{Target: ready.URL, FailUnder: 100, Quiet: true}, code: ExitOK},
		{name: "unreachable", args: CLIArgs{Target: refused}, code: ExitScanFailed, stderr: "connection refused"},
		{name: "missing URL", args: CLIArgs{}, code: ExitUsage, stderr: "usage:"},
		{name: "bad scheme", args: CLIArgs{Target: "ftp://x.test"}, code: ExitUsage, stderr: "not an http or https URL"},
		{name: "bad format", args: CLIArgs{Target: ready.URL, Format: "pdf"}, code: ExitUsage, stderr: "unknown --format"},
		{name: "bad fail-under", args: CLIArgs{Target: ready.URL, FailUnder: 101}, code: ExitUsage},
		{name: "sarif", args: CLIArgs{Target: bareSrv.URL, Format: "sarif", Quiet: true}, code: ExitOK, stdout: `"version": "2.1.0"`},
		{name: "junit", args: CLIArgs{Target: bareSrv.URL, Format: "junit", Quiet: true}, code: ExitOK, stdout: `<testsuites name="agent-ready`},
		{name: "sarif below fail-under", args: CLIArgs{Target: bareSrv.URL, Format: "sarif", FailUnder: 90, Quiet: true}, code: ExitBelowThreshold, stdout: `"results"`},
		{name: "check one passing checkpoint", args: CLIArgs{Target: ready.URL, Check: "ia.agents-json"}, code: ExitOK, stdout: "ia.agents-json — PASS", stderr: "ia.agents-json: PASS"},
		{name: "check one failing check", args: CLIArgs{Target: bareSrv.URL, Check: "llms_txt"}, code: ExitBelowThreshold, stdout: "expected: 200 text/plain"},
		{name: "check one lint rule as JSON", args: CLIArgs{Target: bareSrv.URL, Check: "no_op_behavior_required", Format: "json", Quiet: true}, code: ExitOK, stdout: `"id": "no_op_behavior_required"`},
		{name: "check an unknown id", args: CLIArgs{Target: ready.URL, Check: "nope"}, code: ExitUsage, stderr: "not a check, checkpoint or lint rule"},
		{name: "unwritable out", args: CLIArgs{Target: ready.URL, Out: filepath.Join(t.TempDir(), "no", "such", "dir", "r.md")}, code: ExitScanFailed, stderr: "writing report"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			tc.args.Options = fixed
			code := RunCLI(context.Background(), tc.args, &stdout, &stderr, tc.tty)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.stdout) {
				t.Errorf("stdout lacks %q", tc.stdout)
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tc.stderr)
			}
			if tc.noStderr != "" && strings.Contains(stderr.String(), tc.noStderr) {
				t.Errorf("stderr %q contains %q", stderr.String(), tc.noStderr)
			}
		})
	}
	page, err := os.ReadFile(out)
	if err != nil || !bytes.Contains(page, []byte(`id="score"`)) {
		t.Errorf("--out file: %v, %d bytes", err, len(page))
	}
}

// TestRunCLIJSONIsTheReport: the CLI's JSON decodes into the same totals
// as a direct scan.
func TestRunCLIJSONIsTheReport(t *testing.T) {
	srv := bareSite().serve(t)
	var stdout, stderr bytes.Buffer
	if code := RunCLI(context.Background(), CLIArgs{Target: srv.URL, Format: "json", Pages: -1}, &stdout, &stderr, false); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var r Report
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	direct := scanURL(t, srv.URL, Options{Pages: -1})
	if r.Score != direct.Score || len(r.Routes) != 1 {
		t.Errorf("CLI score %v routes %v, direct %v", r.Score, r.Routes, direct.Score)
	}
}
