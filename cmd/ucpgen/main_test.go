package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCLIMalformedSchemaExitsOne(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "services", "common"), 0o755)
	os.WriteFile(filepath.Join(dir, "services", "common", "mcp.openrpc.json"),
		[]byte(`{"openrpc":"1.3.2","methods":[{"name":"m","params":[{"name":"p","schema":{"$ref":"../../s.json"}}]}]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "s.json"), []byte(`{"type":"object","properties":{"a":{"$ref":"#/$defs/gone"}}}`), 0o644)
	var out, errb bytes.Buffer
	code := run([]string{"generate", "--schemas", dir, "--out", filepath.Join(dir, "out")}, &out, &errb)
	if code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
	msg := errb.String()
	if !strings.Contains(msg, "s.json#/properties/a/$ref") || strings.Contains(msg, "goroutine") {
		t.Fatalf("unexpected message: %q", msg)
	}
}

func TestCLICheckDetectsHandEdit(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "location")
	var o, e bytes.Buffer
	if code := run([]string{"generate", "--out", out}, &o, &e); code != 0 {
		t.Fatalf("generate: %d %s", code, e.String())
	}
	if code := run([]string{"generate", "--out", out, "--check"}, &o, &e); code != 0 {
		t.Fatalf("check after generate: %d %s", code, e.String())
	}
	f := filepath.Join(out, "types.go")
	b, _ := os.ReadFile(f)
	os.WriteFile(f, append(b, []byte("// edited by hand\n")...), 0o644)
	e.Reset()
	if code := run([]string{"generate", "--out", out, "--check"}, &o, &e); code != 1 {
		t.Fatalf("check after edit: exit %d, want 1", code)
	}
	if !strings.Contains(e.String(), "types.go") {
		t.Fatalf("check did not name the stale file: %q", e.String())
	}
}

func TestCLIVersionAndBadPackage(t *testing.T) {
	var o, e bytes.Buffer
	if code := run([]string{"version"}, &o, &e); code != 0 || !strings.HasPrefix(o.String(), "ucpgen ") {
		t.Fatalf("version: %d %q", code, o.String())
	}
	if code := run([]string{"generate", "--out", t.TempDir(), "--package", "9bad"}, &o, &e); code != 1 || !strings.Contains(e.String(), "--package") {
		t.Fatalf("bad package: %d %q", code, e.String())
	}
}
