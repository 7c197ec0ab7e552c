package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "-buildmode", Value: "exe"},
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "2427bd9c0ffee"},
		{Key: "vcs.time", Value: "2026-11-30T20:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}
	for _, tc := range []struct {
		name       string
		bi         debug.BuildInfo
		header     string
		wantString []string
	}{{
		name:       "go build in a checkout, VCS stamped (Go 1.24+ sets a pseudo-version)",
		bi:         debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: ModulePath, Version: "v0.0.0-20261130200000-2427bd9c0ffe+dirty"}, Settings: vcs},
		header:     Devel,
		wantString: []string{"v0.0.0-20261130200000-2427bd9c0ffe+dirty", "revision 2427bd9c0ffee", "uncommitted changes", "go1.26.8"},
	}, {
		name:       "go run in a checkout with -buildvcs=false",
		bi:         debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: Devel}},
		header:     Devel,
		wantString: []string{Devel, "without VCS stamping"},
	}, {
		name:       "go install github.com/ucpgen/ucpgen/cmd/ucpgen@v1.2.3",
		bi:         debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: "v1.2.3", Sum: "h1:x"}},
		header:     "v1.2.3",
		wantString: []string{"v1.2.3"},
	}, {
		name: "go tool ucpgen in a user's module (itself a git checkout)",
		bi: debug.BuildInfo{
			Main:     debug.Module{Path: "example.com/shop", Version: Devel},
			Deps:     []*debug.Module{{Path: "github.com/spf13/cobra", Version: "v1.10.2"}, {Path: ModulePath, Version: "v0.4.0"}},
			Settings: vcs,
		},
		header:     "v0.4.0",
		wantString: []string{"v0.4.0"},
	}, {
		name: "user module replacing ucpgen by a local directory",
		bi: debug.BuildInfo{
			Main: debug.Module{Path: "example.com/shop", Version: Devel},
			Deps: []*debug.Module{{Path: ModulePath, Version: "v0.4.0", Replace: &debug.Module{Path: "../ucpgen"}}},
		},
		header:     Devel,
		wantString: []string{Devel},
	}, {
		name:       "ucpgen not among the modules (test binary of another module)",
		bi:         debug.BuildInfo{Main: debug.Module{Path: "example.com/other"}},
		header:     Devel,
		wantString: []string{Devel},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			info := FromBuildInfo(&tc.bi)
			if got := info.Header(); got != tc.header {
				t.Errorf("Header() = %q, want %q", got, tc.header)
			}
			s := info.String()
			for _, w := range tc.wantString {
				if !strings.Contains(s, w) {
					t.Errorf("String() = %q, missing %q", s, w)
				}
			}
			if tc.header != Devel && strings.Contains(s, "revision") {
				t.Errorf("module build reports a VCS revision: %q", s)
			}
		})
	}
}
