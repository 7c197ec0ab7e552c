// Package stringarena copies the short strings a load keeps for every
// record (ids, aliases) into shared chunks, so that a million of them are
// a few hundred objects for the garbage collector to find, not a million.
package stringarena

import "unsafe"

// chunkSize is the size of one chunk; a string longer than an eighth of it
// gets an allocation of its own, so a chunk wastes little at its end.
const chunkSize = 64 << 10

// Arena hands out strings whose bytes live in chunks it never writes
// again; the zero value is ready. A string keeps its whole chunk alive, so
// an Arena is for strings that live as long as their neighbours. It is not
// safe for concurrent use.
type Arena struct {
	chunk []byte
}

// Bytes returns a string holding a copy of b.
func (a *Arena) Bytes(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > chunkSize/8 {
		return string(b)
	}
	if cap(a.chunk)-len(a.chunk) < len(b) {
		a.chunk = make([]byte, 0, chunkSize)
	}
	at := len(a.chunk)
	a.chunk = append(a.chunk, b...)
	return unsafe.String(&a.chunk[at], len(b))
}

// String returns a copy of s that shares none of s's memory.
func (a *Arena) String(s string) string {
	return a.Bytes(unsafe.Slice(unsafe.StringData(s), len(s)))
}
