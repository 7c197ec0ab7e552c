// Command ucpgen generates Go types, validators and MCP tool stubs for the
// UCP Location capability from UCP's OpenRPC file and JSON Schemas.
//
// Exit codes: 0 success; 1 `generate --check` found stale output, `diff`
// found a change that breaks Business code, or `conform` found a Business
// failing a MUST; 2 ucpgen could not do its work (bad flags, a missing or
// invalid schema tree, lint warnings under --strict, an output it cannot
// write, a Business it cannot reach, a conform run cut short).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/ucpgen/ucpgen/internal/version"
)

// Exit codes, distinct so CI can tell "regenerate and commit" from "fix
// the input or the command line".
const (
	exitOK       = 0
	exitStale    = 1
	exitBadInput = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the CLI and returns the process exit code; errors are
// printed as one plain message, never a stack trace.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr, version.Read())
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			fmt.Fprintln(stderr, "ucpgen:", ee.err)
			return ee.code
		}
		fmt.Fprintln(stderr, "ucpgen:", err)
		return exitBadInput
	}
	return exitOK
}

// exitError carries an exit code other than the default 2 for a failure.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }

func newRoot(stdout, stderr io.Writer, v version.Info) *cobra.Command {
	root := &cobra.Command{
		Use:   "ucpgen",
		Short: "Generate Go code for the UCP Location capability over MCP",
		Long: `ucpgen reads UCP's OpenRPC file (services/common/mcp.openrpc.json) and the
JSON Schemas it references, and writes a Go package with the request and
response types, their validators and MCP tool stubs for the official MCP Go
SDK. Your service implements the data hooks; the ucpgen runtime does the rest.

Install it as a tool of your module and generate from a Go file:

  go get -tool github.com/ucpgen/ucpgen/cmd/ucpgen
  //go:generate go tool ucpgen generate --out . --package ucploc

Exit codes: 0 success; 1 generate --check found stale output, diff a
breaking change, or conform a Business failing a MUST; 2 bad input (flags,
schema tree, lint warnings under --strict), output not writable, or a
conform run that could not reach the Business or was cut short.`,
		Version:       v.String(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("ucpgen {{.Version}}\n")
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newGenerate(stdout, stderr, v), newDiff(stdout), newSchemas(stdout), newConform(stdout), newVersion(stdout, v))
	return root
}

func newVersion(stdout io.Writer, v version.Info) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the ucpgen version (module version, or VCS revision for a checkout build)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(stdout, "ucpgen", v.String())
			return nil
		},
	}
}
