// Package version says which ucpgen built a binary, read from the Go build
// information, so `ucpgen version` and generated file headers need no
// -ldflags stamping and stay right for `go install`, `go run` and `go tool`.
package version

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// ModulePath is ucpgen's module path, looked up among the build's modules
// because under `go tool` and `go run pkg@v` ucpgen is a dependency of the
// main module rather than the main module itself.
const ModulePath = "github.com/ucpgen/ucpgen"

// Devel is the version word for a ucpgen built from a checkout rather than
// fetched as a module; generated headers use it so that regenerating from any
// clone, clean or dirty, gives the same bytes.
const Devel = "(devel)"

// Info describes the ucpgen in a binary, so the CLI can print it and the
// generator can stamp it into headers.
type Info struct {
	// Module is the module version (v1.2.3, a pseudo-version) or Devel.
	Module string
	// FromCheckout is true when ucpgen was built from a source tree (it is the
	// main module with VCS stamps, a local replace, or has no version).
	FromCheckout bool
	// Revision, Time and Dirty come from the VCS stamp of a checkout build.
	Revision string
	Time     string
	Dirty    bool
	// Go is the toolchain that built the binary.
	Go string
}

// Read returns the Info of the running binary.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Module: Devel, FromCheckout: true}
	}
	return FromBuildInfo(bi)
}

// FromBuildInfo extracts Info from build information; it is separate from
// Read so that tests can feed it the shapes each way of building produces.
func FromBuildInfo(bi *debug.BuildInfo) Info {
	info := Info{Module: Devel, FromCheckout: true, Go: bi.GoVersion}
	var mod *debug.Module
	main := false
	if bi.Main.Path == ModulePath {
		mod, main = &bi.Main, true
	} else {
		for _, d := range bi.Deps {
			if d.Path == ModulePath {
				mod = d
				break
			}
		}
	}
	if mod == nil {
		return info
	}
	v := mod.Version
	if mod.Replace != nil {
		// A replace by a local directory has no version; by a module, its.
		v = mod.Replace.Version
	}
	vcs := false
	if main {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info.Revision, vcs = s.Value, true
			case "vcs.time":
				info.Time = s.Value
			case "vcs.modified":
				info.Dirty = s.Value == "true"
			}
		}
	}
	if v != "" && v != Devel {
		info.Module = v
		info.FromCheckout = vcs
	}
	return info
}

// Header is the version written into generated file headers: the module
// version when ucpgen was fetched as a module, Devel when built from a
// checkout, so committed output does not change with each commit.
func (i Info) Header() string {
	if i.FromCheckout {
		return Devel
	}
	return i.Module
}

// String is the one-line answer of `ucpgen version`.
func (i Info) String() string {
	var b strings.Builder
	b.WriteString(i.Module)
	if i.Revision != "" {
		fmt.Fprintf(&b, ", revision %s", i.Revision)
		if i.Time != "" {
			fmt.Fprintf(&b, " (%s)", i.Time)
		}
		if i.Dirty {
			b.WriteString(", with uncommitted changes")
		}
	} else if i.FromCheckout {
		b.WriteString(", built from a source tree without VCS stamping (-buildvcs=false or no git)")
	}
	if i.Go != "" {
		fmt.Fprintf(&b, ", %s", i.Go)
	}
	return b.String()
}
