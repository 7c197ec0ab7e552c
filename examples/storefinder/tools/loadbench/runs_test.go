package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepeatRunsBeforeEachRun checks -runs and -before-run: the command
// runs before every run, a failing one stops the measurement, and every
// run gets a load line.
func TestRepeatRunsBeforeEachRun(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		before  string
		wantErr string
		wantLog int
	}{
		{"no command", "", "", 3},
		{"command each run", "echo x >> " + dir + "/before", "", 3},
		{"failing command", "exit 3", "-before-run", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var progress strings.Builder
			l := &runLog{opt: runOptions{runs: 3, every: 1e9, before: tc.before}, progress: &progress}
			calls := 0
			err := l.repeat("m", func(run int) error {
				if run != calls {
					t.Errorf("run %d called as %d", calls, run)
				}
				calls++
				return nil
			})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one naming %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if calls != 3 || len(l.lines) != tc.wantLog {
				t.Errorf("calls %d, load lines %d; want 3 and %d", calls, len(l.lines), tc.wantLog)
			}
			if tc.before != "" {
				b, err := os.ReadFile(filepath.Join(dir, "before"))
				if err != nil || strings.Count(string(b), "x\n") != 3 {
					t.Errorf("before-run ran %q (%v), want three times", b, err)
				}
			}
		})
	}
}
