// Command ucpgen generates Go types, validators and MCP tool stubs for the
// UCP Location capability from UCP's OpenRPC file and JSON Schemas.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

// version is set by -ldflags "-X main.version=..." in releases.
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the CLI and returns the process exit code; errors are
// printed as one plain message, never a stack trace.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			fmt.Fprintln(stderr, "ucpgen:", ee.err)
			return ee.code
		}
		fmt.Fprintln(stderr, "ucpgen:", err)
		return 1
	}
	return 0
}

type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "ucpgen",
		Short: "Generate Go code for the UCP Location capability over MCP",
		Long: `ucpgen reads UCP's OpenRPC file (services/common/mcp.openrpc.json) and the
JSON Schemas it references, and writes a Go package with the request and
response types, their validators and MCP tool stubs for the official MCP Go
SDK. Your service implements the data hooks; the ucpgen runtime does the rest.

Typical use, in a file of your service:

  //go:generate go run github.com/ucpgen/ucpgen/cmd/ucpgen generate --schemas ./ucp --out ./internal/ucploc --package ucploc`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newGenerate(stdout), newVersion(stdout))
	return root
}

func newVersion(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the ucpgen version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(stdout, "ucpgen", version)
			return nil
		},
	}
}
