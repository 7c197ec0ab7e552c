// Package cursorkeys reads the store finder's cursor key file, so that every
// replica behind a load balancer signs and verifies pagination cursors with
// the same keys, and keys can rotate without breaking cursors in flight.
//
// The file (or the STOREFINDER_CURSOR_KEYS environment variable, holding
// the same JSON) names the signing key and lists every key that verifies:
//
//	{"current": "2026-12", "keys": {"2026-11": "<base64>", "2026-12": "<base64>"}}
//
// Keys are standard base64 (padded) of at least pagination.MinKeyLen random
// bytes (`head -c 32 /dev/urandom | base64`). To rotate: add the new key to
// every replica's file first, then make it current; remove the old key once
// the cursors it signed no longer matter.
package cursorkeys

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/ucpgen/ucpgen/runtime/domain/pagination"
)

// EnvVar is the environment variable that may hold the key file's JSON
// itself, for platforms that inject secrets as variables rather than files.
const EnvVar = "STOREFINDER_CURSOR_KEYS"

// file is the key file's JSON shape.
type file struct {
	Current string            `json:"current"`
	Keys    map[string]string `json:"keys"`
}

// Parse reads a key file's JSON strictly (unknown members, bad base64 and
// short keys are errors naming the member) and returns the signer.
func Parse(data []byte) (*pagination.Signer, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f file
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("cursor keys: %w (want {\"current\": id, \"keys\": {id: base64}})", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("cursor keys: unexpected data after the JSON object")
	}
	if f.Current == "" {
		return nil, fmt.Errorf("cursor keys: current: required: the id of the key that signs new cursors")
	}
	if len(f.Keys) == 0 {
		return nil, fmt.Errorf("cursor keys: keys: required: at least the current key")
	}
	ids := make([]string, 0, len(f.Keys))
	for id := range f.Keys {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	keys := make(map[string][]byte, len(f.Keys))
	for _, id := range ids {
		k, err := base64.StdEncoding.DecodeString(f.Keys[id])
		if err != nil {
			return nil, fmt.Errorf("cursor keys: keys/%s: not standard base64: %w", id, err)
		}
		if len(k) < pagination.MinKeyLen {
			return nil, fmt.Errorf("cursor keys: keys/%s: %d bytes: must be at least %d random bytes", id, len(k), pagination.MinKeyLen)
		}
		keys[id] = k
	}
	if _, ok := keys[f.Current]; !ok {
		return nil, fmt.Errorf("cursor keys: current: %q is not among keys (%v)", f.Current, ids)
	}
	s, err := pagination.NewSigner(f.Current, keys)
	if err != nil {
		return nil, fmt.Errorf("cursor keys: %w", err)
	}
	return s, nil
}

// Load returns the signer of the key file at path, or of the EnvVar
// variable when path is empty; (nil, nil) when neither is given (an empty
// variable counts as not given), which means a per-process key.
func Load(path string) (*pagination.Signer, error) {
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("--cursor-keys: %w", err)
		}
		s, err := Parse(b)
		if err != nil {
			return nil, fmt.Errorf("--cursor-keys %s: %w", path, err)
		}
		return s, nil
	}
	v := os.Getenv(EnvVar)
	if v == "" {
		return nil, nil
	}
	s, err := Parse([]byte(v))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", EnvVar, err)
	}
	return s, nil
}
