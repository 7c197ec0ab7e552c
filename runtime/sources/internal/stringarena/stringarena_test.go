package stringarena

import (
	"strings"
	"testing"
	"unsafe"
)

// TestArenaCopies: a string is a copy, short ones share a chunk, long
// and empty ones are what they say.
func TestArenaCopies(t *testing.T) {
	var a Arena
	src := []byte("loc_0001")
	first := a.Bytes(src)
	copy(src, "XXXXXXXX")
	if first != "loc_0001" {
		t.Fatalf("a copy changed with its source: %q", first)
	}
	second := a.String("loc_0002")
	// Consecutive short strings share one chunk.
	if got := uintptr(unsafe.Pointer(unsafe.StringData(second))) - uintptr(unsafe.Pointer(unsafe.StringData(first))); got != uintptr(len(first)) {
		t.Errorf("second string %d bytes after the first, want %d (one chunk)", got, len(first))
	}
	if a.Bytes(nil) != "" || a.String("") != "" {
		t.Error("an empty string is not empty")
	}
	long := strings.Repeat("x", chunkSize/8+1)
	if got := a.String(long); got != long || unsafe.StringData(got) == unsafe.StringData(long) {
		t.Error("a long string is not a copy of its own")
	}
}

// TestArenaFillsChunks: strings written across many chunks keep their
// bytes; a new chunk never overwrites an old one.
func TestArenaFillsChunks(t *testing.T) {
	var a Arena
	var all []string
	for i := range 3 * chunkSize / 7 {
		all = append(all, a.String("abcdefg"[:1+i%7]))
	}
	for i, s := range all {
		if want := "abcdefg"[:1+i%7]; s != want {
			t.Fatalf("string %d is %q, want %q", i, s, want)
		}
	}
}
