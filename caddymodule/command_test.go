package caddymodule

import (
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

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
