package memory

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"

	"github.com/ucpgen/ucpgen/runtime/keyfile"
)

// MinSnapshotKeyLen is the fewest random bytes a snapshot key may have.
const MinSnapshotKeyLen = 32

// maxKeyFile bounds what ReadSnapshotKey reads: a key file is a line.
const maxKeyFile = 4 << 10

// ReadSnapshotKey reads the snapshot key file at path: standard base64
// (padded) of at least MinSnapshotKeyLen random bytes, surrounding
// whitespace allowed (`head -c 32 /dev/urandom | base64 > FILE; chmod 600
// FILE`). Whoever holds the key can make the server serve any snapshot, so
// a file other users may read or write is refused (keyfile.Read, the rule
// every key file is held to), as are short, all-zero and malformed keys;
// the error names the file and the reason.
func ReadSnapshotKey(path string) ([]byte, error) {
	raw, err := keyfile.Read(path, maxKeyFile)
	if err != nil {
		return nil, err
	}
	text := bytes.TrimSpace(raw)
	if len(text) == 0 {
		return nil, fmt.Errorf("%s: empty; write the base64 of %d random bytes (head -c 32 /dev/urandom | base64)", path, MinSnapshotKeyLen)
	}
	key, err := base64.StdEncoding.DecodeString(string(text))
	if err != nil {
		return nil, fmt.Errorf("%s: not standard base64: %w", path, err)
	}
	if err := checkKey(key); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return key, nil
}

// checkKey refuses a key too weak to authenticate a snapshot.
func checkKey(key []byte) error {
	switch {
	case len(key) == 0:
		return errors.New("no snapshot key")
	case len(key) < MinSnapshotKeyLen:
		return fmt.Errorf("snapshot key of %d bytes: must be at least %d random bytes", len(key), MinSnapshotKeyLen)
	case !slices.ContainsFunc(key, func(b byte) bool { return b != 0 }):
		return errors.New("snapshot key: every byte is zero: use random bytes (head -c 32 /dev/urandom | base64)")
	}
	return nil
}
