package main

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/generator/delta"
	"github.com/ucpgen/ucpgen/generator/load"
	"github.com/ucpgen/ucpgen/schemas"
)

// exitBreaking is diff's exit code when the report holds a breaking
// change, so CI can stop a bump that needs Business code to change.
const exitBreaking = 1

type diffFlags struct {
	from, to               string
	fromVersion, toVersion string
	openrpc                string
	json                   bool
}

func newDiff(stdout io.Writer) *cobra.Command {
	var f diffFlags
	cmd := &cobra.Command{
		Use:   "diff --from DIR --to DIR",
		Short: "Report what the API of a generated package gains and loses between two schema trees",
		Long: `Diff loads two UCP schema trees, builds the model each would generate, and
prints what changes from --from to --to, one line per change: capabilities,
methods and their params, REST operations and their headers, types, members
and enum values. A new capability is not served until the Business
implements it; a change that breaks Business code (a removed method or
member, a method added to a capability already served, a member that
became required or optional, a changed type, a removed enum value) is
marked [breaking]. generate prints the same report when it replaces a
package.

Either tree may be in UCP's source layout, which states no version (name
it with --from-ucp-version or --to-ucp-version; the report then labels
the tree by its folder), or in the published layout, which states its own.

Exit codes: 0 no breaking change; 1 a breaking change; 2 bad input.`,
		Example: `  ucpgen diff --from ./ucp-2026-08-25/source --to ./ucp-main/source
  ucpgen diff --from ./old --from-ucp-version 2026-08-25 --to ./new --to-ucp-version 2026-10-07 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runDiff(f, stdout) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.from, "from", "", "schema tree root (holding services/ and schemas/) of the version compared from")
	fl.StringVar(&f.to, "to", "", "schema tree root of the version compared to")
	fl.StringVar(&f.fromVersion, "from-ucp-version", "", "UCP release (YYYY-MM-DD) of a --from tree that does not state it")
	fl.StringVar(&f.toVersion, "to-ucp-version", "", "UCP release (YYYY-MM-DD) of a --to tree that does not state it")
	fl.StringVar(&f.openrpc, "openrpc", schemas.OpenRPCPath, "OpenRPC file, relative to each tree")
	fl.BoolVar(&f.json, "json", false, "print the changes as JSON instead of text")
	return cmd
}

func runDiff(f diffFlags, stdout io.Writer) error {
	from, err := surfaceOf("--from", f.from, f.fromVersion, f.openrpc)
	if err != nil {
		return err
	}
	to, err := surfaceOf("--to", f.to, f.toVersion, f.openrpc)
	if err != nil {
		return err
	}
	// A tree that states no version is labelled by the folder given.
	d := delta.CompareAs(from, to, cmp.Or(from.Version, f.from), cmp.Or(to.Version, f.to))
	switch {
	case f.json:
		err = d.WriteJSON(stdout)
	case d.Empty():
		_, err = fmt.Fprintf(stdout, "ucpgen: UCP %s -> %s changes nothing in the generated API\n", d.From, d.To)
	default:
		err = d.WriteText(stdout)
	}
	if err != nil {
		return fmt.Errorf("write the report: %w", err)
	}
	if d.Breaking() {
		return exitError{code: exitBreaking, err: fmt.Errorf("UCP %s -> %s breaks Business code: %s", d.From, d.To, d.Summary())}
	}
	return nil
}

// surfaceOf loads the tree a flag names and summarises the API it would
// generate; errors name the flag.
func surfaceOf(flag, root, version, openrpc string) (*delta.Surface, error) {
	if root == "" {
		return nil, fmt.Errorf("%s: give the schema tree root, the folder holding services/ and schemas/", flag)
	}
	if version != "" && !load.IsRelease(version) {
		return nil, fmt.Errorf("%s-ucp-version: %q is not a UCP release (YYYY-MM-DD)", flag, version)
	}
	fsys, err := schemaDir(flag, root, openrpc)
	if err != nil {
		return nil, err
	}
	// Lint warnings concern the code generate would write, not the
	// surface, so they are not repeated here.
	m, _, err := generator.Model(generator.Config{FS: fsys, OpenRPC: filepath.ToSlash(openrpc), UCPVersion: version})
	if err != nil {
		if version != "" {
			return nil, fmt.Errorf("%s %s (%s-ucp-version %s): %w", flag, root, flag, version, err)
		}
		return nil, fmt.Errorf("%s %s: %w", flag, root, err)
	}
	return delta.FromModel(m), nil
}
