package main

import (
	"context"
	"fmt"

	"github.com/ucpgen/ucpgen/examples/storefinder/dataset"
	"github.com/ucpgen/ucpgen/examples/storefinder/store"
	"github.com/ucpgen/ucpgen/generated/location"
)

// memoryService is the in-memory store finder over recs.
func memoryService(recs []dataset.Record) (location.Hooks, error) {
	st, err := store.New(recs, store.Options{})
	if err != nil {
		return nil, fmt.Errorf("in-memory store: %w", err)
	}
	return hooks{st}, nil
}

type hooks struct{ *store.Store }

func (h hooks) SearchLocations(ctx context.Context, meta *location.Meta, req *location.SearchRequest) (*location.SearchResponse, error) {
	return h.Search(ctx, meta, req)
}

func (h hooks) LookupLocations(ctx context.Context, meta *location.Meta, req *location.LookupRequest) (*location.LookupResponse, error) {
	return h.Lookup(ctx, meta, req)
}
