package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ucpgen/ucpgen/internal/version"
)

// genDirective is one //go:generate line that runs ucpgen generate.
type genDirective struct {
	dir  string   // the package folder, where go generate would run it
	pos  string   // file:line, for messages
	args []string // the arguments after "generate"
}

// runPackages is generate's package mode: it finds the //go:generate lines
// that call ucpgen generate in the packages the patterns match and runs
// each as go generate would (in its package folder), adding --check and
// --strict from the command line. It lets a user's CI check the packages
// their module generates with the command the README shows.
func runPackages(cmd *cobra.Command, patterns []string, outer generateFlags, v version.Info, stdout, stderr io.Writer) error {
	var fixed []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if f.Name != "check" && f.Name != "strict" {
			fixed = append(fixed, "--"+f.Name)
		}
	})
	if len(fixed) > 0 {
		return fmt.Errorf("%s cannot be combined with package patterns: each //go:generate line states its own flags (only --check and --strict apply to all)", strings.Join(fixed, ", "))
	}
	dirs, err := matchPackages(patterns)
	if err != nil {
		return err
	}
	var directives []genDirective
	for _, d := range dirs {
		found, err := directivesIn(d)
		if err != nil {
			return err
		}
		directives = append(directives, found...)
	}
	if len(directives) == 0 {
		return fmt.Errorf("no //go:generate line in %s runs ucpgen generate; add one to the package that holds the generated code", strings.Join(patterns, " "))
	}
	worst := error(nil)
	for _, d := range directives {
		var f generateFlags
		fl := pflag.NewFlagSet("go:generate", pflag.ContinueOnError)
		fl.SetOutput(io.Discard)
		bindGenerateFlags(fl, &f)
		if err := fl.Parse(d.args); err != nil {
			return fmt.Errorf("%s: %w", d.pos, err)
		}
		if fl.NArg() > 0 {
			return fmt.Errorf("%s: unexpected arguments %q after the flags", d.pos, fl.Args())
		}
		if err := checkFlags(fl); err != nil {
			return fmt.Errorf("%s: %w", d.pos, err)
		}
		f.out = inDir(d.dir, f.out)
		if f.schemaRoot != "" {
			f.schemaRoot = inDir(d.dir, f.schemaRoot)
		}
		if f.serveFromSchemas != "" {
			f.serveFromSchemas = inDir(d.dir, f.serveFromSchemas)
		}
		f.check = f.check || outer.check
		f.strict = f.strict || outer.strict
		err := runGenerate(f, v, stdout, stderr)
		var ee exitError
		switch {
		case err == nil:
		case errors.As(err, &ee) && ee.code == exitStale:
			fmt.Fprintln(stderr, "ucpgen:", err)
			if worst == nil {
				worst = exitError{code: exitStale, err: errors.New("stale generated code; run `go generate ./...` and commit the result")}
			}
		default:
			return fmt.Errorf("%s: %w", d.pos, err)
		}
	}
	return worst
}

// inDir resolves a path of a //go:generate line against its package folder.
func inDir(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// matchPackages expands go-style package patterns relative to the working
// directory ("./...", "./internal/...", "./internal/ucploc") into folders
// holding .go files, skipping what the go command skips: testdata, vendor,
// folders starting with . or _, and nested modules.
func matchPackages(patterns []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(d string) {
		if !seen[d] && hasGoFiles(d) {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, p := range patterns {
		if !strings.HasPrefix(p, ".") && !filepath.IsAbs(p) {
			return nil, fmt.Errorf("package pattern %q: give a folder pattern such as ./... or ./internal/ucploc (import paths are not resolved)", p)
		}
		root, rec := p, false
		if p == "..." || strings.HasSuffix(p, "/...") {
			root, rec = strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/"), true
			if root == "" {
				root = "."
			}
		}
		root = filepath.Clean(filepath.FromSlash(root))
		st, err := os.Stat(root)
		if err != nil || !st.IsDir() {
			return nil, fmt.Errorf("package pattern %q: %s is not a folder", p, root)
		}
		if !rec {
			add(root)
			continue
		}
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return nil
			}
			name := d.Name()
			if path != root {
				if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			add(path)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("package pattern %q: %w", p, err)
		}
	}
	sort.Strings(out)
	return out, nil
}

func hasGoFiles(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	return len(m) > 0
}

// directivesIn returns the //go:generate lines of dir's .go files that run
// ucpgen generate: `go tool ucpgen generate`, `go run .../cmd/ucpgen
// generate` or a ucpgen binary, in file and line order.
func directivesIn(dir string) ([]genDirective, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	sort.Strings(files)
	var out []genDirective
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", file, err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "//go:generate ")
			if !ok {
				continue
			}
			words, err := splitWords(rest)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", file, i+1, err)
			}
			for j := 0; j+1 < len(words); j++ {
				w := words[j]
				if (w == "ucpgen" || strings.HasSuffix(w, "/cmd/ucpgen") || strings.HasSuffix(w, string(filepath.Separator)+"ucpgen")) && words[j+1] == "generate" {
					out = append(out, genDirective{dir: dir, pos: fmt.Sprintf("%s:%d", file, i+1), args: words[j+2:]})
					break
				}
			}
		}
	}
	return out, nil
}

// splitWords splits a //go:generate line into words as go generate does:
// at spaces, with double-quoted strings kept whole (Go string syntax).
func splitWords(s string) ([]string, error) {
	var out []string
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return out, nil
		}
		if s[0] == '"' {
			end := 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return nil, errors.New("unterminated quoted string in //go:generate line")
			}
			out = append(out, strings.ReplaceAll(s[1:end], `\"`, `"`))
			s = s[end+1:]
			continue
		}
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			return append(out, s), nil
		}
		out = append(out, s[:i])
		s = s[i:]
	}
}
