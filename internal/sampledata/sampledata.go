// Package sampledata gives tests of the library's sources the store finder's
// sample dataset without importing the example that embeds it: the file is
// made by internal/storegen with storegen.DefaultSeed, the same bytes as
// examples/storefinder/sample/stores.json, once per test binary.
package sampledata

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/ucpgen/ucpgen/internal/storegen"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

var generated = sync.OnceValues(func() ([]byte, error) { return storegen.Generate(storegen.DefaultSeed) })

// JSON returns a fresh copy of the sample dataset file, failing tb when the
// generator fails.
func JSON(tb testing.TB) []byte {
	tb.Helper()
	data, err := generated()
	if err != nil {
		tb.Fatalf("generate the sample dataset: %v", err)
	}
	return bytes.Clone(data)
}

// Records parses a fresh copy of the sample dataset, so a test may keep or
// change what it gets without affecting another.
func Records() ([]dataset.Record, error) {
	data, err := generated()
	if err != nil {
		return nil, fmt.Errorf("generate the sample dataset: %w", err)
	}
	recs, err := dataset.Parse(bytes.Clone(data))
	if err != nil {
		return nil, fmt.Errorf("parse the sample dataset: %w", err)
	}
	return recs, nil
}
