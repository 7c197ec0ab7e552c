// Package cursorkeys reads a cursor key file, so that every
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
	"io"
	"os"
	"slices"
	"strings"

	"github.com/ucpgen/ucpgen/runtime/domain/pagination"
	"github.com/ucpgen/ucpgen/runtime/keyfile"
)

// maxFile bounds the key file read: a few hundred keys at most.
const maxFile = 1 << 20

// EnvVar is the environment variable that may hold the key file's JSON
// itself, for platforms that inject secrets as variables rather than files.
const EnvVar = "STOREFINDER_CURSOR_KEYS"

// Parse reads a key file's JSON strictly and returns the signer. Member
// names match exactly (a case variant such as "Current" is refused, not
// folded), a repeated member or key id is refused rather than letting the
// last one win, and so are unknown members, bad base64, short keys and an
// all-zero key; each error names the member.
func Parse(data []byte) (*pagination.Signer, error) {
	current, entries, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("cursor keys: %w", err)
	}
	if current == nil || *current == "" {
		return nil, fmt.Errorf("cursor keys: current: required: the id of the key that signs new cursors")
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("cursor keys: keys: required: at least the current key")
	}
	keys := make(map[string][]byte, len(entries))
	folded := make(map[string]string, len(entries))
	ids := make([]string, 0, len(entries))
	for _, e := range entries {
		if other, ok := folded[strings.ToLower(e.id)]; ok {
			return nil, fmt.Errorf("cursor keys: keys/%s: differs from keys/%s only in case; give every key an id of its own", e.id, other)
		}
		folded[strings.ToLower(e.id)] = e.id
		k, err := base64.StdEncoding.DecodeString(e.value)
		if err != nil {
			return nil, fmt.Errorf("cursor keys: keys/%s: not standard base64: %w", e.id, err)
		}
		if len(k) < pagination.MinKeyLen {
			return nil, fmt.Errorf("cursor keys: keys/%s: %d bytes: must be at least %d random bytes", e.id, len(k), pagination.MinKeyLen)
		}
		if !slices.ContainsFunc(k, func(b byte) bool { return b != 0 }) {
			return nil, fmt.Errorf("cursor keys: keys/%s: every byte is zero: use random bytes (head -c 32 /dev/urandom | base64)", e.id)
		}
		keys[e.id] = k
		ids = append(ids, e.id)
	}
	slices.Sort(ids)
	if _, ok := keys[*current]; !ok {
		return nil, fmt.Errorf("cursor keys: current: %q is not among keys (%v)", *current, ids)
	}
	s, err := pagination.NewSigner(*current, keys)
	if err != nil {
		return nil, fmt.Errorf("cursor keys: %w", err)
	}
	return s, nil
}

// entry is one member of "keys", in file order.
type entry struct{ id, value string }

// shape is the file's expected form, repeated in every structural error.
const shape = `(want {"current": id, "keys": {id: base64}})`

// decode walks the JSON tokens of {"current": id, "keys": {id: base64}}
// itself, because encoding/json folds member names case-insensitively and
// keeps the last of repeated members, which would let a file say two things.
func decode(data []byte) (*string, []entry, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := delim(dec, '{'); err != nil {
		return nil, nil, err
	}
	var current *string
	var entries []entry
	seen := map[string]bool{}
	for dec.More() {
		name, err := str(dec, "member name")
		if err != nil {
			return nil, nil, err
		}
		if name != "current" && name != "keys" {
			if strings.EqualFold(name, "current") || strings.EqualFold(name, "keys") {
				return nil, nil, fmt.Errorf("%s: member names are case-sensitive; write %q", name, strings.ToLower(name))
			}
			return nil, nil, fmt.Errorf("%s: unknown member %s", name, shape)
		}
		if seen[name] {
			return nil, nil, fmt.Errorf("%s: repeated; the file must name it once", name)
		}
		seen[name] = true
		if name == "current" {
			v, err := str(dec, "current")
			if err != nil {
				return nil, nil, err
			}
			current = &v
			continue
		}
		if entries, err = decodeKeys(dec); err != nil {
			return nil, nil, err
		}
	}
	if err := delim(dec, '}'); err != nil {
		return nil, nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, fmt.Errorf("unexpected data after the JSON object")
	}
	return current, entries, nil
}

// decodeKeys reads the "keys" object, refusing a repeated key id.
func decodeKeys(dec *json.Decoder) ([]entry, error) {
	if err := delim(dec, '{'); err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	var out []entry
	seen := map[string]bool{}
	for dec.More() {
		id, err := str(dec, "key id")
		if err != nil {
			return nil, fmt.Errorf("keys: %w", err)
		}
		if seen[id] {
			return nil, fmt.Errorf("keys/%s: repeated key id; the file must list each key once", id)
		}
		seen[id] = true
		v, err := str(dec, "keys/"+id)
		if err != nil {
			return nil, err
		}
		out = append(out, entry{id: id, value: v})
	}
	if err := delim(dec, '}'); err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	return out, nil
}

// delim reads one token and requires it to be d.
func delim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("%w %s", err, shape)
	}
	if got, ok := tok.(json.Delim); !ok || got != d {
		return fmt.Errorf("got %v where %q belongs %s", tok, string(d), shape)
	}
	return nil
}

// str reads one token and requires a string; what names it in errors.
func str(dec *json.Decoder, what string) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", fmt.Errorf("%s: %w %s", what, err, shape)
	}
	s, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("%s: got %v, want a string %s", what, tok, shape)
	}
	return s, nil
}

// Load returns the signer of the key file at path, or of the EnvVar
// variable when path is empty; (nil, nil) when neither is given (an empty
// variable counts as not given), which means a per-process key.
func Load(path string) (*pagination.Signer, error) {
	if path != "" {
		b, err := keyfile.Read(path, maxFile)
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
