// Package generator runs ucpgen's pipeline: load the OpenRPC file and its
// schemas, build the intermediate model, emit Go files, and write or check
// them. The CLI and tests call it; nothing here knows about cobra.
package generator

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/ucpgen/ucpgen/generator/delta"
	"github.com/ucpgen/ucpgen/generator/drift"
	"github.com/ucpgen/ucpgen/generator/emit"
	"github.com/ucpgen/ucpgen/generator/ir"
	"github.com/ucpgen/ucpgen/generator/load"
	"github.com/ucpgen/ucpgen/internal/unidiff"
	"github.com/ucpgen/ucpgen/internal/version"
)

// Config says what to generate.
type Config struct {
	// FS is the schema tree root (it holds services/ and schemas/).
	FS fs.FS
	// OpenRPC is the OpenRPC file's slash path inside FS.
	OpenRPC string
	// Package is the Go package name of the output.
	Package string
	// Generator is the ucpgen version written into headers; empty means
	// "(devel)". The CLI passes version.Read().Header().
	Generator string
	// Warn receives each lint warning and notice (file#/pointer:
	// message); nil drops them. Strict makes any warning, but no notice,
	// an error instead.
	Warn   func(load.Warning)
	Strict bool
	// UCPVersion states the release of a tree that does not state it
	// (UCP's source/ layout); a tree stating another one is refused.
	UCPVersion string
	// ServeFrom, when set, makes the package serve its version from a
	// newer generated package (convert.go); nil generates it standalone.
	ServeFrom *ServeFrom
}

// ServeFrom names the newer package an older one serves from and the schema
// tree it was generated from, which is compared with this input's so that
// only the members whose shape changed are left to the Business.
type ServeFrom struct {
	// ImportPath is the newer package's Go import path.
	ImportPath string
	// FS, OpenRPC and UCPVersion locate the newer package's input, as in
	// Config.
	FS                  fs.FS
	OpenRPC, UCPVersion string
}

// Model loads the input and builds the intermediate model, for emitters and
// tests that inspect it.
func Model(cfg Config) (*ir.Model, *load.Spec, error) {
	spec, err := load.OpenRPCWith(cfg.FS, cfg.OpenRPC, load.Options{UCPVersion: cfg.UCPVersion})
	if err != nil {
		return nil, nil, err
	}
	m, err := ir.Build(spec)
	if err != nil {
		return nil, nil, err
	}
	return m, spec, nil
}

// Generate returns the generated files keyed by name: the emitted Go files,
// the tools' schema files and the package's surface manifest
// (delta.ManifestName), which the next run compares with to report what a
// UCP bump brings.
func Generate(cfg Config) (map[string][]byte, error) {
	if cfg.Package == "" {
		return nil, fmt.Errorf("package name is empty")
	}
	m, spec, err := Model(cfg)
	if err != nil {
		return nil, err
	}
	decls := drift.Declarations()
	if cfg.ServeFrom != nil {
		decls = drift.ServedFrom(decls)
	}
	spec.Warnings = append(spec.Warnings, drift.Check(spec, decls)...)
	if refused := load.Refused(spec.Warnings); cfg.Strict && len(refused) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "%d lint warning(s), refused by --strict:", len(refused))
		for _, w := range refused {
			b.WriteString("\n  " + w.String())
		}
		return nil, errors.New(b.String())
	}
	if cfg.Warn != nil {
		for _, w := range spec.Warnings {
			cfg.Warn(w)
		}
	}
	gen := cfg.Generator
	if gen == "" {
		gen = version.Devel
	}
	opts := emit.Options{Package: cfg.Package, Source: cfg.OpenRPC, Generator: gen, UCPVersion: spec.Version, VersionFrom: spec.Release.From}
	if sf := cfg.ServeFrom; sf != nil {
		newer, _, err := Model(Config{FS: sf.FS, OpenRPC: sf.OpenRPC, UCPVersion: sf.UCPVersion})
		if err != nil {
			return nil, fmt.Errorf("serve from %s: %w", sf.ImportPath, err)
		}
		opts.ServeFrom = &emit.ServeFrom{Model: newer, ImportPath: sf.ImportPath}
	}
	files, err := emit.Files(m, opts)
	if err != nil {
		return nil, err
	}
	manifest, err := delta.FromModel(m).Encode()
	if err != nil {
		return nil, err
	}
	files[delta.ManifestName] = manifest
	return files, nil
}

// Result says what Write did to each file, so the CLI can list them.
type Result struct {
	Written, Unchanged, Removed []string
}

// Write is Update for callers that need no report of what changed.
func Write(dir string, files map[string][]byte) error {
	_, err := Update(dir, files)
	return err
}

// Update stores files into dir, creating it if needed, and removes generated
// files of an earlier run that this run no longer produces. A file whose
// bytes already match is not rewritten, so its modification time stays and
// build tools that watch it see no change.
func Update(dir string, files map[string][]byte) (Result, error) {
	var res Result
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, fmt.Errorf("create %s: %w", dir, err)
	}
	stale, err := generatedFiles(dir)
	if err != nil {
		return res, err
	}
	for _, name := range stale {
		if _, keep := files[name]; !keep {
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return res, fmt.Errorf("remove stale %s: %w", name, err)
			}
			res.Removed = append(res.Removed, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		path := filepath.Join(dir, name)
		if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, files[name]) {
			res.Unchanged = append(res.Unchanged, name)
			continue
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return res, fmt.Errorf("write %s: %w", path, err)
		}
		res.Written = append(res.Written, name)
	}
	return res, nil
}

// Stale is one file of the output directory that differs from what the
// generator produces.
type Stale struct {
	Name string
	// Reason is "differs", "missing" or "no longer generated".
	Reason string
	// Diff is a unified diff from the file on disk to the generator's
	// output (from or to /dev/null for a missing or extra file).
	Diff string
}

// Check compares files with dir and returns every stale file with a diff,
// so CI can fail when committed generated code is out of date and show why.
func Check(dir string, files map[string][]byte) ([]Stale, error) {
	var out []Stale
	for _, name := range slices.Sorted(maps.Keys(files)) {
		path := filepath.Join(dir, name)
		have, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out = append(out, Stale{Name: name, Reason: "missing", Diff: unidiff.Diff("/dev/null", path, nil, files[name])})
		case err != nil:
			return nil, fmt.Errorf("read %s: %w", path, err)
		case !bytes.Equal(have, files[name]):
			out = append(out, Stale{Name: name, Reason: "differs", Diff: unidiff.Diff(path, path+" (generated)", have, files[name])})
		}
	}
	existing, err := generatedFiles(dir)
	if err != nil {
		return nil, err
	}
	for _, name := range existing {
		if _, ok := files[name]; !ok {
			path := filepath.Join(dir, name)
			have, err := os.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", path, err)
			}
			out = append(out, Stale{Name: name, Reason: "no longer generated", Diff: unidiff.Diff(path, "/dev/null", have, nil)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// generatedFiles lists the files in dir that an earlier run wrote and a
// later one may have to remove: the .go files that carry ucpgen's header,
// and the surface manifest when it is ucpgen's (a stale one would make the
// next run report a bump against a package that is not there).
func generatedFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	var out []string
	for _, e := range entries {
		manifest := e.Name() == delta.ManifestName
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") && !manifest {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", e.Name(), err)
		}
		if manifest && delta.IsManifest(b) || bytes.HasPrefix(b, []byte("// Code generated by ucpgen")) {
			out = append(out, e.Name())
		}
	}
	return out, nil
}
