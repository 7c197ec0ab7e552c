package keyfile_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/keyfile"
)

// TestReadHoldsEveryKeyFileToOneRule: the owner and the group may read a
// key file; a file any other user may read or write, a directory and a
// file over the bound are refused with the file and the reason named.
func TestReadHoldsEveryKeyFileToOneRule(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		mode os.FileMode
		text string
		want string
	}{
		{"owner only", 0o600, "key", ""},
		{"owner and group read", 0o640, "key", ""},
		{"group may write", 0o660, "key", ""},
		{"others may read", 0o644, "key", "chmod o-rw"},
		{"others may write", 0o602, "key", "lets other users read or write it"},
		{"every user", 0o666, "key", "chmod o-rw"},
		{"over the bound", 0o600, strings.Repeat("k", 65), "over 64 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-"))
			if err := os.WriteFile(p, []byte(c.text), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, c.mode); err != nil {
				t.Fatal(err)
			}
			got, err := keyfile.Read(p, 64)
			if c.want == "" {
				if err != nil || string(got) != c.text {
					t.Fatalf("%q, %v", got, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want the file and %q", err, c.want)
			}
		})
	}
	if _, err := keyfile.Read(dir, 64); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: err = %v", err)
	}
	if _, err := keyfile.Read(filepath.Join(dir, "missing"), 64); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: err = %v", err)
	}
}
