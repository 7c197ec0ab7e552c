package dataset

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenKnown: a file opens without parsing when its contents are the
// fingerprinted ones, ReadSpan then reads the earlier parse's Locations,
// and any change of contents (same size or not) is ErrOtherContents.
func TestOpenKnown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stores.json")
	data := sampleJSON(t)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	df, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer df.Close()
	f, _ := os.Open(path)
	fp, err := FingerprintOf(f, int64(len(data)), 1000) // many blocks, one short
	f.Close()
	if err != nil || len(fp.Sums) != (len(data)+999)/1000 {
		t.Fatalf("fingerprint: %v, %d sums", err, len(fp.Sums))
	}
	known, err := OpenKnown(path, fp)
	if err != nil {
		t.Fatal(err)
	}
	sp := df.Records[3].Span
	got, err := known.ReadSpan(sp, nil)
	known.Close()
	if want, _ := df.ReadLocation(3, nil); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("ReadSpan: %v, %q", err, got)
	}
	for name, change := range map[string][]byte{
		"one byte": append(append(bytes.Clone(data[:100]), data[100]^1), data[101:]...),
		"longer":   append(bytes.Clone(data), ' '),
		"shorter":  data[:len(data)-1],
	} {
		if err := os.WriteFile(path, change, 0o600); err != nil {
			t.Fatal(err)
		}
		if df, err := OpenKnown(path, fp); !errors.Is(err, ErrOtherContents) {
			if df != nil {
				df.Close()
			}
			t.Errorf("%s: err = %v, want ErrOtherContents", name, err)
		}
	}
}
