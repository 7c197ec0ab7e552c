// Package keyfile reads the secret files a server keys its signatures
// with (pagination cursor keys, snapshot keys) under one rule, so that no
// key file is held to a looser standard than another: a regular file that
// no user but its owner and group may read or write, of bounded size.
package keyfile

import (
	"fmt"
	"io"
	"os"
)

// Read returns the contents of the key file at path, at most limit bytes.
// A file other users may read or write is refused (whoever can read a key
// can forge what it signs, whoever can write it can plant their own), as
// are a file that is not regular and one over limit; each error names the
// file and the reason. The mode is read from the opened file, so a rename
// in between cannot swap it.
func Read(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	if perm := st.Mode().Perm(); perm&0o006 != 0 {
		return nil, fmt.Errorf("%s: mode %04o lets other users read or write it, and whoever can read the key can forge what it signs, whoever can write it can plant one; run chmod o-rw %s", path, perm, path)
	}
	raw, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(raw)) > limit {
		return nil, fmt.Errorf("%s: over %d bytes, more than a key file holds", path, limit)
	}
	return raw, nil
}
