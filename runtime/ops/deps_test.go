package ops

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDependenciesKeepGo125 holds the go.mod pins to their reason: the
// module promises go 1.25.0, and every module it builds with (the pinned
// Prometheus ones included) must declare no newer go version; the next
// releases of client_golang (v1.25.0) and common (v0.72.0) declare 1.26.0.
func TestDependenciesKeepGo125(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mod), "\ngo 1.25.0\n") {
		t.Fatal("go.mod no longer says go 1.25.0; drop the pins that exist for it")
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.GoVersion}}", "all").Output()
	if err != nil {
		t.Skipf("go list -m all: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, v, _ := strings.Cut(line, " ")
		if v != "" && newerThan(v, [3]int{1, 25, 0}) {
			t.Errorf("%s declares go %s, above the module's go 1.25.0", path, v)
		}
	}
}

// newerThan compares a go directive ("1.25", "1.25.0", "1.26rc1") with
// want; unreadable parts count as 0.
func newerThan(v string, want [3]int) bool {
	var got [3]int
	for i, p := range strings.SplitN(v, ".", 3) {
		n := 0
		for _, r := range p {
			if r < '0' || r > '9' {
				break
			}
			n = n*10 + int(r-'0')
		}
		got[i] = n
	}
	for i := range got {
		if got[i] != want[i] {
			return got[i] > want[i]
		}
	}
	return false
}

func TestNewerThan(t *testing.T) {
	for v, want := range map[string]bool{"1.25.0": false, "1.25": false, "1.24.3": false, "1.26.0": true, "1.26rc1": true, "1.25.1": true, "2": true} {
		if got := newerThan(v, [3]int{1, 25, 0}); got != want {
			t.Errorf("newerThan(%s) = %v, want %v", v, got, want)
		}
	}
}
