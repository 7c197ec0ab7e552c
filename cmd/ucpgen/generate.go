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
	"github.com/spf13/pflag"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/generator/delta"
	"github.com/ucpgen/ucpgen/generator/load"
	"github.com/ucpgen/ucpgen/internal/unidiff"
	"github.com/ucpgen/ucpgen/internal/version"
	"github.com/ucpgen/ucpgen/schemas"
)

// diffLines bounds the diff printed per stale file, so one badly stale file
// cannot bury the summary in a CI log.
const diffLines = 40

type generateFlags struct {
	schemaRoot string
	openrpc    string
	out        string
	pkg        string
	check      bool
	strict     bool
	ucpVersion string
	// serveFrom* generate the package to serve from a newer one.
	serveFrom, serveFromSchemas, serveFromOpenRPC, serveFromUCPVersion string
}

func newGenerate(stdout, stderr io.Writer, v version.Info) *cobra.Command {
	var f generateFlags
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Generate the Go package from an OpenRPC file and its schemas",
		Long: `Generate reads the OpenRPC file (--openrpc, a path inside --schemas) and every
JSON Schema it references, checks them with a JSON Schema 2020-12 compiler,
and writes the generated Go files into --out. It lists the files it wrote
and leaves files whose content is already right untouched.

With no flags it regenerates generated/location from the UCP 2026-08-25
schema set bundled with ucpgen (run it from the ucpgen repository root).

A schema keyword one edit away from a known one ("minItem") is almost
certainly a typo that would drop a constraint: ucpgen warns and names the
keyword it probably means. It also warns about semantic drift: an enum
value the schemas allow that the ucpgen runtime does not interpret (a new
weekday), or a member of a type the runtime evaluates that it does not
read (a new filter such as "accessible", a new member of serves, distance,
geo or a schedule entry), naming the schema location and the runtime
package. A request that sets such a member is never answered as if it
were absent: the generated package refuses it with -32602 at its pointer
(a new filter unless the Business registers a handler for it). A new
member of a schedule entry is Location data the runtime does not read, so
update ucpgen before serving it. With --serve-from the member checks are
left to the newer package, whose types the requests are converted to.
--strict turns such warnings into errors.

A tree with no REST binding (services/common/rest.openapi.json beside the
OpenRPC file, as in UCP's 2026-08-25 source/ folder) generates the MCP
binding only: ucpgen prints a notice naming the file it looked for. A
notice is not a warning; --strict does not refuse it, because a Business
may serve MCP alone.

UCP's source/ trees state no version: name it with --ucp-version. A tree in
the published layout (https://ucp.dev/<version>/ URLs) carries its own. A
release is a calendar date written YYYY-MM-DD. Every version the input
states must agree with the flag and with each other: info.version of the
OpenRPC file and of the REST binding, and the https://ucp.dev/<version>/
URLs of $id, $ref and servers; a disagreement is an error naming both
values and where each was read.

To keep serving the previous UCP version after a bump, generate its package
with --serve-from naming the current package's import path (and
--serve-from-schemas its schema tree, default the bundled one). The older
package then gets ServeFrom and NewServiceFrom, which answer it from the
current package's Hooks or Source, and a Conversion interface with one
method per member whose shape differs between the two versions: the only
code the Business writes for the older version. --serve-from-schemas,
--serve-from-openrpc and --serve-from-ucp-version describe that package's
input, so they need --serve-from.

Each run also writes ucpgen.surface.json, a summary of the package's API
surface. Before it replaces a package that has one, generate prints what
the new input brings: new capabilities (not served until implemented),
methods, REST operations, members and enum values, and every change that
breaks Business code, marked [breaking]. ucpgen diff prints the same
report for two schema trees.

With --check it writes nothing; for each stale file it prints a unified diff
(first 40 lines) and ends with a one-line summary.

With package patterns (ucpgen generate --check --strict ./...) it runs, in
each matched package folder, every //go:generate line that calls ucpgen
generate, with that line's flags plus --check and --strict from the command
line, so CI checks exactly the packages the module generates.

Exit codes: 0 success or up to date; 1 --check found stale files; 2 bad
input (flags, schema tree, warnings under --strict) or an unwritable output.`,
		Example: `  ucpgen generate
  ucpgen generate --schemas ./ucp/source --ucp-version 2026-08-25 --out ./internal/ucploc --package ucploc
  ucpgen generate --check --strict ./...
  ucpgen generate --schemas ./ucp-previous/source --ucp-version 2026-08-21 --out ./internal/ucploc20260821 \
      --serve-from example.com/shop/internal/ucploc --serve-from-schemas ./ucp/source --serve-from-ucp-version 2026-08-25`,
		RunE: func(cmd *cobra.Command, patterns []string) error {
			if len(patterns) > 0 {
				return runPackages(cmd, patterns, f, v, stdout, stderr)
			}
			if err := checkFlags(cmd.Flags()); err != nil {
				return err
			}
			return runGenerate(f, v, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	bindGenerateFlags(fl, &f)
	return cmd
}

// bindGenerateFlags declares generate's flags on fl; package mode parses
// each //go:generate line with the same set, so both accept the same flags.
func bindGenerateFlags(fl *pflag.FlagSet, f *generateFlags) {
	fl.StringVar(&f.schemaRoot, "schemas", "", "schema tree root holding services/ and schemas/ (default: the UCP 2026-08-25 set bundled with ucpgen)")
	fl.StringVar(&f.openrpc, "openrpc", schemas.OpenRPCPath, "OpenRPC file, relative to --schemas")
	fl.StringVar(&f.out, "out", filepath.Join("generated", "location"), "output directory")
	fl.StringVar(&f.pkg, "package", "", "Go package name of the output (default: the output directory's name)")
	fl.BoolVar(&f.check, "check", false, "do not write; print a diff and exit 1 if the output directory is stale")
	fl.BoolVar(&f.strict, "strict", false, "treat lint warnings (e.g. a misspelled schema keyword) as errors")
	fl.StringVar(&f.ucpVersion, "ucp-version", "", "UCP release (a calendar date, YYYY-MM-DD) of a tree that does not state it, such as UCP's source/ folder; must match every version the tree states")
	fl.StringVar(&f.serveFrom, "serve-from", "", "import path of a newer generated package to serve this (older) version from; adds convert.go with ServeFrom and the Conversion the Business writes")
	fl.StringVar(&f.serveFromSchemas, "serve-from-schemas", "", "schema tree the --serve-from package was generated from (needs --serve-from; default: the bundled UCP set)")
	fl.StringVar(&f.serveFromOpenRPC, "serve-from-openrpc", schemas.OpenRPCPath, "OpenRPC file of the --serve-from package, relative to --serve-from-schemas (needs --serve-from)")
	fl.StringVar(&f.serveFromUCPVersion, "serve-from-ucp-version", "", "--ucp-version of the --serve-from package's schema tree (needs --serve-from)")
}

// flagNeeds pairs each flag that means nothing alone with the flag it
// needs: the --serve-from-* flags describe the input of the --serve-from
// package, so without --serve-from they would be silently ignored.
var flagNeeds = [][2]string{
	{"serve-from-schemas", "serve-from"},
	{"serve-from-openrpc", "serve-from"},
	{"serve-from-ucp-version", "serve-from"},
}

// releaseFlags are the flags that name a UCP release.
var releaseFlags = []string{"ucp-version", "serve-from-ucp-version"}

// checkFlags refuses, before any tree is read, a flag given without the
// flag it needs and a release flag that is no calendar date, naming the
// flags and the reason. Package mode checks each //go:generate line with
// it too.
func checkFlags(fl *pflag.FlagSet) error {
	for _, p := range flagNeeds {
		if fl.Changed(p[0]) && fl.Lookup(p[1]).Value.String() == "" {
			return fmt.Errorf("--%s needs --%s: it describes the input of the newer package named by --%s; pass --%s too, or leave --%s out", p[0], p[1], p[1], p[1], p[0])
		}
	}
	for _, name := range releaseFlags {
		if v := fl.Lookup(name).Value.String(); v != "" {
			if err := load.CheckRelease(v); err != nil {
				return fmt.Errorf("--%s %q is not a UCP release (YYYY-MM-DD): %w", name, v, err)
			}
		}
	}
	return nil
}

func runGenerate(f generateFlags, v version.Info, stdout, stderr io.Writer) error {
	fsys, err := schemaFS(f.schemaRoot, f.openrpc)
	if err != nil {
		return err
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
	var serveFrom *generator.ServeFrom
	if f.serveFrom != "" {
		newer, err := bundledFS("--serve-from-openrpc", "--serve-from-schemas", f.serveFromOpenRPC)
		if f.serveFromSchemas != "" {
			newer, err = schemaDir("--serve-from-schemas", f.serveFromSchemas, f.serveFromOpenRPC)
		}
		if err != nil {
			return err
		}
		serveFrom = &generator.ServeFrom{ImportPath: f.serveFrom, FS: newer, OpenRPC: filepath.ToSlash(f.serveFromOpenRPC), UCPVersion: f.serveFromUCPVersion}
	}
	files, err := generator.Generate(generator.Config{
		FS:         fsys,
		OpenRPC:    filepath.ToSlash(f.openrpc),
		Package:    pkg,
		Generator:  v.Header(),
		Strict:     f.strict,
		UCPVersion: f.ucpVersion,
		Warn:       func(w load.Warning) { fmt.Fprintf(stderr, "ucpgen: %s: %s\n", w.Kind(), w) },
		ServeFrom:  serveFrom,
	})
	if err != nil {
		return err
	}
	if f.check {
		stale, err := generator.Check(f.out, files)
		if err != nil {
			return err
		}
		if len(stale) == 0 {
			fmt.Fprintf(stdout, "%s is up to date (%d files)\n", f.out, len(files))
			return nil
		}
		for _, s := range stale {
			fmt.Fprint(stdout, unidiff.Truncate(s.Diff, diffLines))
		}
		return exitError{code: exitStale, err: fmt.Errorf("%s: %d stale generated file(s) (%s); run `ucpgen generate` and commit the result",
			f.out, len(stale), staleNames(stale))}
	}
	if err := reportBump(f.out, files, stdout, stderr); err != nil {
		return err
	}
	res, err := generator.Update(f.out, files)
	if err != nil {
		return err
	}
	for _, n := range res.Written {
		fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(f.out, n))
	}
	for _, n := range res.Removed {
		fmt.Fprintf(stdout, "removed %s (no longer generated)\n", filepath.Join(f.out, n))
	}
	fmt.Fprintf(stdout, "%s: %d written, %d unchanged, %d removed\n", f.out, len(res.Written), len(res.Unchanged), len(res.Removed))
	return nil
}

// reportBump prints what the new output brings compared with the package
// already in out, read from the surface manifest an earlier run left there,
// so a UCP bump says which capabilities are new and which changes break
// Business code before the files are replaced. Without a manifest (a first
// run, or a package from a ucpgen that wrote none) it prints nothing; one
// it cannot read is a warning, since the new files replace it anyway.
func reportBump(out string, files map[string][]byte, stdout, stderr io.Writer) error {
	path := filepath.Join(out, delta.ManifestName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || err == nil && !delta.IsManifest(data) {
		return nil
	}
	var old *delta.Surface
	if err == nil {
		old, err = delta.Decode(path, data)
	}
	if err != nil {
		fmt.Fprintf(stderr, "ucpgen: warning: no report of what this run changes: %v\n", err)
		return nil
	}
	now, err := delta.Decode(delta.ManifestName+" (generated)", files[delta.ManifestName])
	if err != nil {
		return fmt.Errorf("the generated surface manifest: %w", err)
	}
	return delta.Compare(old, now).WriteText(stdout)
}

// schemaFS returns the input tree: the bundled one, or the --schemas folder
// after checking that it holds the OpenRPC file, naming the absolute path
// looked in and what belongs there when it does not.
func schemaFS(root, openrpc string) (fs.FS, error) {
	if root == "" {
		return bundledFS("--openrpc", "--schemas", openrpc)
	}
	return schemaDir("--schemas", root, openrpc)
}

// bundledFS is the bundled tree after checking that it holds openrpc, the
// value of rpcFlag, so a file it lacks is named with the flag (rootFlag)
// that would point at the tree holding it, not reported as a bare open
// error from the loader.
func bundledFS(rpcFlag, rootFlag, openrpc string) (fs.FS, error) {
	if _, err := fs.Stat(schemas.FS, openrpc); err != nil {
		return nil, fmt.Errorf("%s %s: the bundled schema tree has no such file (its OpenRPC file is %s); pass %s with the tree that holds it", rpcFlag, openrpc, schemas.OpenRPCPath, rootFlag)
	}
	return schemas.FS, nil
}

// schemaDir is schemaFS for a folder named by flag, which its messages
// name, so each command can point at the flag the user has to fix.
func schemaDir(flag, root, openrpc string) (fs.FS, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, root, err)
	}
	const want = "a UCP schema tree root: the folder holding services/ and schemas/ (the source/ folder of a UCP release)"
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: %s does not exist; expected %s", flag, abs, want)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", flag, err)
	case !st.IsDir():
		return nil, fmt.Errorf("%s: %s is a file, not a directory; expected %s", flag, abs, want)
	}
	rpc := filepath.Join(abs, filepath.FromSlash(openrpc))
	if _, err := os.Stat(rpc); err != nil {
		msg := fmt.Sprintf("%s: no OpenRPC file at %s; expected %s, with --openrpc (%s) inside it", flag, rpc, want, openrpc)
		if trees := treesBelow(abs, openrpc); len(trees) > 0 {
			for i, t := range trees {
				trees[i] = flag + " " + filepath.Join(root, t)
			}
			msg += fmt.Sprintf("; did you mean %s?", strings.Join(trees, " or "))
		}
		return nil, errors.New(msg)
	}
	return os.DirFS(abs), nil
}

// treesBelow names the folders directly below dir that are schema tree roots
// (a release's source/, or one version folder of a bundle such as this
// repository's schemas/2026-08-25), so a user who points one level too high
// is told where to point.
func treesBelow(dir, openrpc string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, e.Name(), filepath.FromSlash(openrpc))); err == nil {
			out = append(out, e.Name())
		}
	}
	return out
}

func staleNames(stale []generator.Stale) string {
	s := ""
	for i, x := range stale {
		if i > 0 {
			s += ", "
		}
		s += x.Name + " " + x.Reason
	}
	return s
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
