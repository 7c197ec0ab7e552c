package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/schemas"
)

type generateFlags struct {
	schemaRoot string
	openrpc    string
	out        string
	pkg        string
	check      bool
}

func newGenerate(stdout io.Writer) *cobra.Command {
	var f generateFlags
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Generate the Go package from an OpenRPC file and its schemas",
		Long: `Generate reads the OpenRPC file (--openrpc, a path inside --schemas) and every
JSON Schema it references, checks them with a JSON Schema 2020-12 compiler,
and writes the generated Go files into --out.

With no flags it regenerates generated/location from the UCP 2026-08-25
schema set bundled with ucpgen (run it from the ucpgen repository root).
With --check it writes nothing and exits 1 if the files in --out differ from
what it would write, naming each stale file.`,
		Example: `  ucpgen generate
  ucpgen generate --schemas ./ucp-2026-08-25 --out ./internal/ucploc --package ucploc
  ucpgen generate --check`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runGenerate(f, stdout) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.schemaRoot, "schemas", "", "schema tree root holding services/ and schemas/ (default: the UCP 2026-08-25 set bundled with ucpgen)")
	fl.StringVar(&f.openrpc, "openrpc", schemas.OpenRPCPath, "OpenRPC file, relative to --schemas")
	fl.StringVar(&f.out, "out", filepath.Join("generated", "location"), "output directory")
	fl.StringVar(&f.pkg, "package", "", "Go package name of the output (default: the output directory's name)")
	fl.BoolVar(&f.check, "check", false, "do not write; exit 1 if the output directory is stale")
	return cmd
}

func runGenerate(f generateFlags, stdout io.Writer) error {
	var fsys fs.FS = schemas.FS
	if f.schemaRoot != "" {
		st, err := os.Stat(f.schemaRoot)
		if err != nil {
			return fmt.Errorf("--schemas: %w", err)
		}
		if !st.IsDir() {
			return fmt.Errorf("--schemas: %s is not a directory", f.schemaRoot)
		}
		fsys = os.DirFS(f.schemaRoot)
	}
	pkg := f.pkg
	if pkg == "" {
		abs, err := filepath.Abs(f.out)
		if err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		pkg = filepath.Base(abs)
	}
	if !token(pkg) {
		return fmt.Errorf("--package: %q is not a valid Go package name", pkg)
	}
	files, err := generator.Generate(generator.Config{FS: fsys, OpenRPC: filepath.ToSlash(f.openrpc), Package: pkg})
	if err != nil {
		return err
	}
	if f.check {
		if err := generator.Check(f.out, files); err != nil {
			return exitError{code: 1, err: err}
		}
		fmt.Fprintf(stdout, "%s is up to date (%d files)\n", f.out, len(files))
		return nil
	}
	if err := generator.Write(f.out, files); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d files to %s\n", len(files), f.out)
	return nil
}

func token(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
