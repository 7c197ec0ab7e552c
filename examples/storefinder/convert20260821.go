package main

import (
	"fmt"
	"slices"

	"github.com/ucpgen/ucpgen/generated/location"
	old "github.com/ucpgen/ucpgen/generated/location20260821"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// conversion20260821 serves the draft 2026-08-21 from the current package:
// ucpgen converts every member that kept its shape, and these methods the
// ones old.Conversion names.
type conversion20260821 struct{}

var _ old.Conversion = conversion20260821{}

// MetaIdempotencyKey drops the key: both tools only read.
func (conversion20260821) MetaIdempotencyKey(*old.Meta, *location.Meta) error { return nil }

// LocationFilterInventory asks for in-stock items, all that filters.items says.
func (conversion20260821) LocationFilterInventory(in *old.LocationFilter, out *location.LocationFilter) error {
	for i, f := range in.Inventory.V {
		if s, ok := f.AvailabilityStatus.Get(); ok && s != "in_stock" {
			return rpcerr.Invalid(fmt.Sprintf("/inventory/%d/availability_status", i), "", "only in_stock is served, not %q", s)
		}
		out.Items.V, out.Items.Set = append(out.Items.V, f.ID), true
	}
	return nil
}

// LocationAmenities lists the map's identifiers, sorted.
func (conversion20260821) LocationAmenities(in opt.Value[map[location.AmenityType]location.Amenity], out *opt.Value[[]old.AmenityType]) error {
	out.V, out.Set = make([]old.AmenityType, 0, len(in.V)), in.Set
	for id := range in.V {
		out.V = append(out.V, old.AmenityType(id))
	}
	slices.Sort(out.V)
	return nil
}
