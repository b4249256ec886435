package scancmd

import (
	"reflect"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/selfcheck"
)

// TestFromFlags: the defaults are the documented ones, and each flag sets
// the argument it names.
func TestFromFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want selfcheck.CLIArgs
	}{
		{[]string{"https://a.example/"}, selfcheck.CLIArgs{Target: "https://a.example/", Format: "markdown", Pages: 5, Timeout: time.Minute}},
		{[]string{"--format", "json", "--check", "llms-txt", "--out", "r.json", "--pages", "2", "--timeout", "5s",
			"--fail-under", "80", "--quiet", "b.example"},
			selfcheck.CLIArgs{Target: "b.example", Format: "json", Out: "r.json", Pages: 2, Timeout: 5 * time.Second,
				FailUnder: 80, Quiet: true, Check: "llms-txt"}},
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
