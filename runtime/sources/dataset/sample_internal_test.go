package dataset

import (
	"bytes"
	"sync"
	"testing"

	"github.com/ucpgen/ucpgen/internal/storegen"
)

var sample = sync.OnceValues(func() ([]byte, error) { return storegen.Generate(storegen.DefaultSeed) })

// sampleJSON returns a fresh copy of the store finder's sample dataset, made
// by internal/storegen (the same bytes as the example's embedded file), so
// that the tests run on a realistic file without the library carrying one.
func sampleJSON(t testing.TB) []byte {
	t.Helper()
	data, err := sample()
	if err != nil {
		t.Fatalf("generate the sample dataset: %v", err)
	}
	return bytes.Clone(data)
}
