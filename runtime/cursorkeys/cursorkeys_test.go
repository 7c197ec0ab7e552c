package cursorkeys_test

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/cursorkeys"
)

func key(b byte) string {
	return base64.StdEncoding.EncodeToString([]byte(strings.Repeat(string(rune('a'+b)), 32)))
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name, json, want string
	}{
		{"not JSON", `[`, "cursor keys"},
		{"unknown member", `{"current":"a","keys":{"a":"` + key(0) + `"},"extra":1}`, "unknown member"},
		{"no current", `{"keys":{"a":"` + key(0) + `"}}`, "current: required"},
		{"no keys", `{"current":"a"}`, "keys: required"},
		{"current not listed", `{"current":"b","keys":{"a":"` + key(0) + `"}}`, `"b" is not among keys`},
		{"bad base64", `{"current":"a","keys":{"a":"!!"}}`, "keys/a: not standard base64"},
		{"short key", `{"current":"a","keys":{"a":"` + base64.StdEncoding.EncodeToString([]byte("short")) + `"}}`, "keys/a: 5 bytes"},
		{"bad key id", `{"current":"a b","keys":{"a b":"` + key(0) + `"}}`, "key id"},
		{"repeated current", `{"current":"a","keys":{"a":"` + key(0) + `","b":"` + key(1) + `"},"current":"b"}`, "current: repeated"},
		{"repeated keys", `{"current":"a","keys":{"a":"` + key(0) + `"},"keys":{"b":"` + key(1) + `"}}`, "keys: repeated"},
		{"repeated key id", `{"current":"a","keys":{"a":"` + key(0) + `","a":"` + key(1) + `"}}`, "keys/a: repeated key id"},
		{"case-variant current", `{"Current":"a","keys":{"a":"` + key(0) + `"}}`, `Current: member names are case-sensitive; write "current"`},
		{"case-variant keys", `{"current":"a","KEYS":{"a":"` + key(0) + `"}}`, `KEYS: member names are case-sensitive; write "keys"`},
		{"case-variant key ids", `{"current":"a","keys":{"a":"` + key(0) + `","A":"` + key(1) + `"}}`, "keys/A: differs from keys/a only in case"},
		{"all-zero key", `{"current":"a","keys":{"a":"` + base64.StdEncoding.EncodeToString(make([]byte, 32)) + `"}}`, "keys/a: every byte is zero"},
		{"current not a string", `{"current":1,"keys":{"a":"` + key(0) + `"}}`, "current: got 1, want a string"},
		{"key not a string", `{"current":"a","keys":{"a":null}}`, "keys/a: got <nil>, want a string"},
		{"keys not an object", `{"current":"a","keys":[]}`, "keys: got ["},
		{"trailing data", `{"current":"a","keys":{"a":"` + key(0) + `"}} {}`, "unexpected data"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := cursorkeys.Parse([]byte(tc.json))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

// TestRotation: a cursor signed under the old current key still verifies
// once a new key becomes current, and new cursors carry the new key.
func TestRotation(t *testing.T) {
	before, err := cursorkeys.Parse([]byte(`{"current":"k1","keys":{"k1":"` + key(1) + `"}}`))
	if err != nil {
		t.Fatal(err)
	}
	after, err := cursorkeys.Parse([]byte(`{"current":"k2","keys":{"k1":"` + key(1) + `","k2":"` + key(2) + `"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var digest [32]byte
	old, err := before.Sign("loc_42", digest)
	if err != nil {
		t.Fatal(err)
	}
	got, err := after.Verify(old, digest)
	if err != nil || got != "loc_42" {
		t.Fatalf("old cursor after rotation: %q, %v", got, err)
	}
	if after.CurrentKeyID() != "k2" {
		t.Fatalf("current key = %q, want k2", after.CurrentKeyID())
	}
	fresh, err := after.Sign("loc_42", digest)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := before.Verify(fresh, digest); err == nil {
		t.Fatal("a replica without k2 verified a k2 cursor")
	}
}

func TestLoadFileAndEnv(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "keys.json")
	if err := os.WriteFile(p, []byte(`{"current":"f","keys":{"f":"`+key(3)+`"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(cursorkeys.EnvVar, `{"current":"e","keys":{"e":"`+key(4)+`"}}`)
	s, err := cursorkeys.Load(p)
	if err != nil || s.CurrentKeyID() != "f" {
		t.Fatalf("file: %v, %v; the flag's file must win over the variable", s, err)
	}
	s, err = cursorkeys.Load("")
	if err != nil || s.CurrentKeyID() != "e" {
		t.Fatalf("env: %v, %v", s, err)
	}
	if _, err := cursorkeys.Load(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "--cursor-keys") {
		t.Fatalf("missing file: err = %v", err)
	}
	t.Setenv(cursorkeys.EnvVar, `{}`)
	if _, err := cursorkeys.Load(""); err == nil || !strings.Contains(err.Error(), cursorkeys.EnvVar) {
		t.Fatalf("bad env: err = %v", err)
	}
}

func TestLoadNothingMeansProcessKey(t *testing.T) {
	t.Setenv(cursorkeys.EnvVar, "")
	s, err := cursorkeys.Load("")
	if err != nil || s != nil {
		t.Fatalf("Load(\"\") with an empty variable = %v, %v; want nil, nil", s, err)
	}
	os.Unsetenv(cursorkeys.EnvVar)
	s, err = cursorkeys.Load("")
	if err != nil || s != nil {
		t.Fatalf("Load(\"\") with no variable = %v, %v; want nil, nil", s, err)
	}
}

// TestLoadRefusesFilesOthersMayReadOrWrite: a key file any other user may
// read (anyone could forge cursors with its keys) or write (anyone could
// plant one) is refused, the rule the snapshot key file is held to too;
// the owner and the group may read it.
func TestLoadRefusesFilesOthersMayReadOrWrite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(p, []byte(`{"current":"f","keys":{"f":"`+key(3)+`"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []os.FileMode{0o666, 0o644, 0o604, 0o602} {
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		if _, err := cursorkeys.Load(p); err == nil || !strings.Contains(err.Error(), "lets other users read or write it") || !strings.Contains(err.Error(), "chmod o-rw") {
			t.Errorf("mode %04o: err = %v, want a refusal naming chmod o-rw", mode, err)
		}
	}
	for _, mode := range []os.FileMode{0o600, 0o640, 0o440} {
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		if s, err := cursorkeys.Load(p); err != nil || s.CurrentKeyID() != "f" {
			t.Errorf("mode %04o: %v, %v", mode, s, err)
		}
	}
}
