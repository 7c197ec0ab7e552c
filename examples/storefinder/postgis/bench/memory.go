package main

import (
	"fmt"

	"github.com/ucpgen/ucpgen/examples/storefinder/dataset"
	"github.com/ucpgen/ucpgen/examples/storefinder/store"
	"github.com/ucpgen/ucpgen/generated/location"
)

// memoryService is the in-memory store finder over recs, behind the same
// generated service as the PostGIS source.
func memoryService(recs []dataset.Record) (*location.Service, error) {
	src, err := store.New(recs, store.Options{})
	if err != nil {
		return nil, fmt.Errorf("in-memory store: %w", err)
	}
	return location.NewService(src, location.ServiceOptions{})
}
