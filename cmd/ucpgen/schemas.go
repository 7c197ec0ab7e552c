package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ucpgen/ucpgen/schemas"
)

func newSchemas(stdout io.Writer) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "schemas --out DIR",
		Short: "Write an editable copy of the bundled UCP schema tree",
		Long: `Schemas writes the UCP schema tree bundled with ucpgen (services/ and
schemas/, no Go files) into a new folder, with ordinary writable files, so
you can add a local extension or compare it with a newer release, then
generate from it with ucpgen generate --schemas DIR.`,
		Example: `  ucpgen schemas --out ./ucp-schemas
  ucpgen generate --schemas ./ucp-schemas --out ./internal/ucploc --package ucploc`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return errors.New("--out: give the folder to write the schema tree into")
			}
			n, err := copySchemas(out)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s: wrote %d schema files\n", out, n)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "new or empty folder to write the schema tree into")
	return cmd
}

// copySchemas writes every non-Go file of the bundled tree under dir,
// refusing a folder that already holds files so nothing is overwritten.
func copySchemas(dir string) (int, error) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return 0, fmt.Errorf("--out: %s is not empty; give a new or empty folder so no file is overwritten", dir)
	}
	n := 0
	err := fs.WalkDir(schemas.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if strings.HasSuffix(p, ".go") {
			return nil
		}
		data, err := fs.ReadFile(schemas.FS, p)
		if err != nil {
			return err
		}
		n++
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		return 0, fmt.Errorf("write the schema tree into %s: %w", dir, err)
	}
	return n, nil
}
