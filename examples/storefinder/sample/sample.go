// Package sample holds the store finder's built-in dataset: a few thousand
// invented stores of a fictional multi-brand retailer, served when no --data
// file is given. It lives in the example, not in the library, so that a
// Business's own binary never carries its 4.8 MB.
//
// The file is internal/storegen's output for storegen.DefaultSeed, checked
// byte for byte by this package's tests; regenerate it with
//
//	go test ./examples/storefinder/sample -run TestGenerateReproducesEmbeddedDataset -update
package sample

import (
	"bytes"
	_ "embed"
	"fmt"

	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

//go:embed stores.json
var data []byte

// Default parses the embedded dataset, the one the example server serves
// when no --data file is given.
func Default() ([]dataset.Record, error) {
	recs, err := dataset.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("parse embedded stores.json: %w", err)
	}
	return recs, nil
}

// DefaultJSON returns a copy of the embedded dataset file, for tools that
// want the bytes rather than the records.
func DefaultJSON() []byte {
	return bytes.Clone(data)
}
