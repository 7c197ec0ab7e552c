package main

import (
	"fmt"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/memory"
)

// memoryService is the in-memory store finder over recs, behind the same
// generated service as the PostGIS source.
func memoryService(recs []dataset.Record) (*location.Service, error) {
	src, err := memory.New(recs, memory.Options{})
	if err != nil {
		return nil, fmt.Errorf("in-memory store: %w", err)
	}
	return location.NewService(src, location.ServiceOptions{})
}
