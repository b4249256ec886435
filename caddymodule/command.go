package caddymodule

import (
	"fmt"

	caddycmd "github.com/caddyserver/caddy/v2/cmd"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/agentready/caddy-agentready/internal/convertcmd"
	"github.com/agentready/caddy-agentready/internal/scancmd"
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

// addCommands adds convert and scan under `caddy agent-ready`: their
// help, flags and work are packages convertcmd's and scancmd's.
func addCommands(cmd *cobra.Command) {
	for _, c := range []struct {
		use, short, long string
		args             cobra.PositionalArgs
		flags            *pflag.FlagSet
		main             func(*pflag.FlagSet) (int, error)
	}{
		{convertcmd.Use, convertcmd.Short, convertcmd.Long, cobra.MaximumNArgs(1), convertcmd.Flags(), convertcmd.Main},
		{scancmd.Use, scancmd.Short, scancmd.Long, cobra.ExactArgs(1), scancmd.Flags(), scancmd.Main},
	} {
		sub := &cobra.Command{Use: c.use, Short: c.short, Long: c.long, Args: usageArgs(c.args),
			RunE: caddycmd.WrapCommandFuncForCobra(func(fl caddycmd.Flags) (int, error) { return c.main(fl.FlagSet) })}
		sub.Flags().AddFlagSet(c.flags)
		sub.SetFlagErrorFunc(usageError)
		cmd.AddCommand(sub)
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
